import { useCallback, useRef } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { CommandOutcome } from '../../domain/live';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useLiveEvent } from '../../providers/live';
import type { IssuedCommand } from './requests';
import { followCommand } from './followCommand';

/**
 * What the operator is told once a command call succeeded: "sent, waiting for the chamber", then the
 * chamber's answer: confirmed, refused (with its reason) or no answer. The outcome comes from the live
 * stream's `command` event while this component is mounted, and is read back once a second
 * (`GET /api/v1/device-commands/:cmdId`) in any case, so it also arrives when the stream is down or the row
 * that started it is gone (a list refresh re-renders it). An upstream that answers no cmdId gets the
 * plain "sent".
 */
export const useCommandFeedback = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const waiting = useRef(new Map<string, (outcome: CommandOutcome) => void>());
  useLiveEvent('command', (outcome) => waiting.current.get(outcome.cmdId)?.(outcome));
  return useCallback(
    (device: string, { cmdId }: Partial<IssuedCommand>) => {
      if (cmdId === undefined) {
        notify('crud.commands.sent', { type: 'success' });
        return;
      }
      // Short, so the answer (a queued notification) follows soon after.
      notify('app.commands.waiting', { type: 'info', messageArgs: { device }, autoHideDuration: 2000 });
      const watch = (listener: (outcome: CommandOutcome) => void) => {
        waiting.current.set(cmdId, listener);
        return () => waiting.current.delete(cmdId);
      };
      void followCommand({ read: () => dataProvider.commandOutcome(cmdId), watch }).then((outcome) => {
        if (outcome === undefined) return;
        if (outcome.status === 'acked') notify('app.commands.acked', { type: 'success', messageArgs: { device } });
        else if (outcome.status === 'timeout') notify('app.commands.timeout', { type: 'warning', messageArgs: { device } });
        else if (outcome.error === null) notify('app.commands.refusedNoReason', { type: 'error', messageArgs: { device } });
        else notify('app.commands.refused', { type: 'error', messageArgs: { device, reason: outcome.error } });
      });
    },
    [dataProvider, notify],
  );
};
