import { useEffect, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { notifyManager, useQueryClient } from '@tanstack/react-query';
import { RefreshIconButton } from 'react-admin';

/**
 * Whether any query is fetching or any mutation running, as react-admin's useLoading tells, but kept from
 * each cache event's own query. useLoading counts the fetching queries over the whole cache on every
 * event; with live patches and the readings log refetching every 2 s, that walk was a fifth of the page's
 * main thread in a profile at 2,000 chambers (docs/scaling.md).
 */
const useFetching = (): boolean => {
  const client = useQueryClient();
  const [busy, setBusy] = useState(() => client.isFetching() > 0 || client.isMutating() > 0);
  useEffect(() => {
    const queries = client.getQueryCache();
    const fetching = new Set(queries.findAll({ fetchStatus: 'fetching' }).map((query) => query.queryHash));
    let mutating = client.isMutating();
    // Told after the cache's event is over, as react-query tells its own observers.
    const tell = notifyManager.batchCalls(() => setBusy(fetching.size > 0 || mutating > 0));
    const offQueries = queries.subscribe((event) => {
      if (event.type !== 'removed' && event.query.state.fetchStatus === 'fetching') fetching.add(event.query.queryHash);
      else fetching.delete(event.query.queryHash);
      tell();
    });
    const offMutations = client.getMutationCache().subscribe(() => {
      mutating = client.isMutating();
      tell();
    });
    tell();
    return () => {
      offQueries();
      offMutations();
    };
  }, [client]);
  return busy;
};

/** The app bar's refresh button, a spinner over it while anything loads (react-admin's LoadingIndicator, drawn the same). */
export const FetchingIndicator = () => {
  const busy = useFetching();
  return (
    <Box sx={{ position: 'relative' }}>
      <RefreshIconButton sx={busy ? { opacity: 0 } : undefined} />
      {busy && (
        <CircularProgress color="inherit" size={16} thickness={6} sx={{ position: 'absolute', top: '30%', left: '30%' }} aria-hidden />
      )}
    </Box>
  );
};
