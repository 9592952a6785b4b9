import { HttpError } from 'react-admin';
import type { CommandOutcome } from '../../domain/live';
import { isFinalStatus, type DeviceCommandRecord, type FinalCommandStatus } from './requests';

/** What became of a command in the end. */
export interface FinalOutcome {
  status: FinalCommandStatus;
  /** The chamber's reason when it refused. */
  error: string | null;
}

export interface FollowOptions {
  /** Reads the command as it stands (the data provider's commandOutcome). */
  read: () => Promise<Pick<DeviceCommandRecord, 'status' | 'error'>>;
  /** Hears the command's live events (the live stream's `command` events); answers the unsubscribe. */
  watch?: (listener: (outcome: Pick<CommandOutcome, 'status' | 'error'>) => void) => () => void;
  /** Between two reads, ms. */
  intervalMs?: number;
  /** Reads before giving up; the server settles every command within its timeout, so this is a safety net. */
  maxReads?: number;
}

/** Once a second, as the live stream's fallback. */
export const FOLLOW_INTERVAL_MS = 1000;
/** Two minutes: far past the server's command timeout (10 s by default). */
const FOLLOW_MAX_READS = 120;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows a command until its outcome is final: from the live stream when `watch` hears it, and by
 * reading it every `intervalMs` in any case (the stream may be down), whichever comes first. A failed read
 * is tried again at the next tick (a network blip, a restarting server), except a refusal of the request
 * itself (4xx: signed out, the device no longer visible), which ends the following with no outcome
 * (undefined). After `maxReads` reads without a final status the chamber is taken as not having answered.
 */
export const followCommand = async ({ read, watch, intervalMs = FOLLOW_INTERVAL_MS, maxReads = FOLLOW_MAX_READS }: FollowOptions): Promise<FinalOutcome | undefined> => {
  let done = false;
  let settle: (outcome: FinalOutcome | undefined) => void = () => undefined;
  const outcome = new Promise<FinalOutcome | undefined>((resolve) => {
    settle = (value) => {
      if (done) return;
      done = true;
      resolve(value);
    };
  });
  const unwatch = watch?.(({ status, error }) => {
    if (isFinalStatus(status)) settle({ status, error: error ?? null });
  });
  const poll = async () => {
    for (let reads = 0; reads < maxReads; reads += 1) {
      await pause(intervalMs);
      if (done) return;
      try {
        const { status, error } = await read();
        if (isFinalStatus(status)) return settle({ status, error });
      } catch (failure) {
        if (failure instanceof HttpError && failure.status >= 400 && failure.status < 500) return settle(undefined);
      }
    }
    settle({ status: 'timeout', error: null });
  };
  void poll();
  try {
    return await outcome;
  } finally {
    unwatch?.();
  }
};
