import { useCallback, useContext, useSyncExternalStore } from 'react';
import { LIVE_TIMING, type LiveStatus } from './connection';
import { LiveContext } from './LiveContext';

export interface LiveState {
  /** off, connecting, live, reconnecting or polling ('off' outside a LiveProvider). */
  status: LiveStatus;
  /** How often lists refresh while polling. */
  pollMs: number;
}

/** The live connection's state, re-rendering when it changes. */
export const useLiveStatus = (): LiveState => {
  const connection = useContext(LiveContext);
  const subscribe = useCallback((changed: () => void) => connection?.on('status', changed) ?? (() => undefined), [connection]);
  const status = useSyncExternalStore(subscribe, () => connection?.status() ?? 'off');
  return { status, pollMs: connection?.timing.pollMs ?? LIVE_TIMING.pollMs };
};
