/** The live stream in the console (docs/live.md): one connection per tab, wired in App.tsx. */
export { createLiveConnection, type LiveConnection, type LiveStatus } from './connection';
export { LiveProvider } from './LiveProvider';
export { useLiveEvent } from './useLiveEvent';
export { useLiveResync } from './useLiveResync';
export { useLiveStatus } from './useLiveStatus';
export { useLiveStream } from './useLiveStream';
