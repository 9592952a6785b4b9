import { useContext, useEffect } from 'react';
import { useEvent } from 'react-admin';
import { LiveContext } from './LiveContext';

/**
 * Calls `listener` whenever what the tab holds may be stale: the stream said reset, or a polling tick. For
 * data outside react-admin's resources (which the live cache refetches itself), e.g. the message box.
 */
export const useLiveResync = (listener: () => void): void => {
  const connection = useContext(LiveContext);
  const onResync = useEvent(listener);
  useEffect(() => {
    if (connection === undefined) return undefined;
    const off = [connection.on('reset', () => onResync()), connection.on('poll', () => onResync())];
    return () => off.forEach((unsubscribe) => unsubscribe());
  }, [connection, onResync]);
};
