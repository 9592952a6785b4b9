import { useContext, useEffect } from 'react';
import { useEvent } from 'react-admin';
import type { LiveEvent } from '../../domain/live';
import { LiveContext } from './LiveContext';

export type LiveEventType = LiveEvent['type'];
/** What an event of that type carries: a DevicePatch for 'device', a CommandOutcome for 'command', a MessageNotice for 'message'. */
export type LiveEventData<T extends LiveEventType> = Extract<LiveEvent, { type: T }>['data'];

/**
 * Calls `listener` with every live event of `type` while the component is mounted, e.g.
 * `useLiveEvent('command', (outcome) => …)`. Only events of devices the user sees (and its own messages) arrive. The listener
 * may change from render to render; nothing is re-subscribed. Outside a LiveProvider it never fires.
 */
export const useLiveEvent = <T extends LiveEventType>(type: T, listener: (data: LiveEventData<T>) => void): void => {
  const connection = useContext(LiveContext);
  const onEvent = useEvent(listener);
  useEffect(
    () =>
      connection?.on('event', (event) => {
        if (event.type === type) onEvent(event.data as LiveEventData<T>);
      }),
    [connection, type, onEvent],
  );
};
