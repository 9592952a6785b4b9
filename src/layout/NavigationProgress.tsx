import { useEffect, useState, useSyncExternalStore } from 'react';
import { Box } from '@mui/material';
import { useLocation } from 'react-router-dom';
import { onChunkLoadsChange, pendingChunkLoads } from '../loading/chunkLoads';
import { createProgress, PROGRESS } from './progress';

/**
 * The thin bar at the top of the window (nprogress's algorithm and the spec's values, progress.ts): it
 * starts on every navigation and runs until the new page's code has arrived, then fills and fades out.
 */
export const NavigationProgress = () => {
  const { pathname, search } = useLocation();
  const [progress] = useState(() => createProgress());
  const bar = useSyncExternalStore(progress.subscribe, progress.get);
  const loading = useSyncExternalStore(onChunkLoadsChange, pendingChunkLoads) > 0;

  // A page that needs no chunk still shows the bar for one step, so every click is acknowledged.
  useEffect(() => {
    const release = progress.hold();
    const timer = setTimeout(release, PROGRESS.speed);
    return () => {
      clearTimeout(timer);
      release();
    };
  }, [progress, pathname, search]);

  useEffect(() => (loading ? progress.hold() : undefined), [progress, loading]);

  if (!bar) return null;
  return (
    <Box
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(bar.status * 100)}
      data-testid="navigation-progress"
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        height: 2,
        width: `${bar.status * 100}%`,
        bgcolor: 'primary.main',
        opacity: bar.fading ? 0 : 1,
        transition: `width ${PROGRESS.speed}ms ease, opacity ${PROGRESS.speed}ms linear`,
        pointerEvents: 'none',
      }}
    />
  );
};
