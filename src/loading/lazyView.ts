import { lazy, type ComponentType } from 'react';
import { trackChunkLoad } from './chunkLoads';

/**
 * A component fetched in its own chunk the first time it renders (the nearest Suspense shows
 * meanwhile, the progress bar runs): what the login page does not need stays out of the first script.
 */
export const lazyView = <P extends object>(load: () => Promise<ComponentType<P>>) =>
  lazy(async () => ({ default: await trackChunkLoad(load()) }));
