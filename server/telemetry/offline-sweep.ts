import type { DevicePatch } from '../../src/domain/live';
import type { AlarmEngine } from '../alarms/engine';
import type { AppContext } from '../context';
import type { LimitedLog } from './log';
import { markSilentDevicesOffline, presencePatch } from './presence';

interface OfflineSweepParts {
  ctx: Pick<AppContext, 'db' | 'now'>;
  log: LimitedLog;
  publish: (patch: DevicePatch) => void;
  alarms: Pick<AlarmEngine, 'eventReported'>;
  /** The offline rule's silence (presence.ts). */
  offlineAfterMs: number;
  /** 0: only when `sweep()` is called. */
  intervalMs: number;
}

export interface OfflineSweep {
  /** Applies the offline rule now; answers the devices marked offline. */
  sweep(): Promise<string[]>;
  /** Stops the timer at once, then waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** The offline rule applied every `intervalMs` (one sweep at a time; a failed sweep is logged and the next one tried). */
export const startOfflineSweep = ({ ctx, log, publish, alarms, offlineAfterMs, intervalMs }: OfflineSweepParts): OfflineSweep => {
  const sweep = async (): Promise<string[]> => {
    const silent = await markSilentDevicesOffline(ctx.db, ctx.now(), offlineAfterMs);
    for (const row of silent) {
      alarms.eventReported(row.id, 'offline', true);
      log('warn', 'offline:silent', { deviceId: row.id, lastSeen: row.last_seen_at, offlineAfterMs }, 'device offline: silent during a session');
      publish(presencePatch(row));
    }
    return silent.map((row) => row.id);
  };

  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  let stopped = false;
  const schedule = (): void => {
    if (intervalMs <= 0 || stopped) return;
    timer = setTimeout(() => {
      sweeping = sweep()
        .then(
          () => undefined,
          (error: unknown) => log('error', 'sweep', { err: error }, 'ingest: offline sweep failed'),
        )
        .finally(() => {
          sweeping = undefined;
          schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    sweep,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await sweeping;
    },
  };
};
