import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { bindLiveCache } from './cache';
import type { LiveConnection } from './connection';
import { LiveContext } from './LiveContext';

/**
 * Gives the tree the tab's live connection and feeds react-admin's query cache from it. Inside
 * react-admin's context (its QueryClient); the stream itself opens where useLiveStream is mounted.
 */
export const LiveProvider = ({ connection, children }: { connection: LiveConnection; children: ReactNode }) => {
  const queryClient = useQueryClient();
  useEffect(() => bindLiveCache(connection, queryClient), [connection, queryClient]);
  return <LiveContext.Provider value={connection}>{children}</LiveContext.Provider>;
};
