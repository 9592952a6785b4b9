/** The live stream in the console (docs/live.md): one connection per tab, wired in App.tsx. */
export { createLiveConnection, type LiveConnection, type LiveStatus } from './connection';
export { LiveProvider } from './LiveProvider';
export { useLiveEvent, type LiveEventData, type LiveEventType } from './useLiveEvent';
export { useLiveResync } from './useLiveResync';
export { useLiveStatus, type LiveState } from './useLiveStatus';
export { useLiveStream } from './useLiveStream';
