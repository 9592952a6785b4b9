import { useSyncExternalStore } from 'react';

/**
 * One clock a second for every alarm that shows how long it has stood: one timer however many marks are
 * on the page, running only while one is shown.
 */
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((each) => each());
    }, 1_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};

/** The time now (epoch ms), moving once a second while the caller is mounted. */
export const useNow = (): number => useSyncExternalStore(subscribe, () => now);
