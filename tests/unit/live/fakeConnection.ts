import { LIVE_TIMING, type LiveConnection, type LiveSignals, type LiveStatus } from '../../../src/providers/live/connection';

/** A live connection the test drives: `emit` plays a signal, `starts`/`stops` count the calls. */
export const fakeConnection = () => {
  const listeners = new Map<keyof LiveSignals, Set<(value: never) => void>>();
  let status: LiveStatus = 'off';
  const calls = { starts: 0, stops: 0 };
  const emit = <K extends keyof LiveSignals>(signal: K, value: LiveSignals[K]): void => {
    if (signal === 'status') status = value as LiveStatus;
    for (const listener of listeners.get(signal) ?? []) (listener as (value: LiveSignals[K]) => void)(value);
  };
  const connection: LiveConnection = {
    start: () => void (calls.starts += 1),
    stop: () => void (calls.stops += 1),
    status: () => status,
    on(signal, listener) {
      const set = listeners.get(signal) ?? new Set();
      set.add(listener as (value: never) => void);
      listeners.set(signal, set);
      return () => {
        set.delete(listener as (value: never) => void);
      };
    },
    timing: LIVE_TIMING,
  };
  const listening = (signal: keyof LiveSignals): number => listeners.get(signal)?.size ?? 0;
  return { connection, emit, calls, listening };
};
