/**
 * What the console does when the server says it calls too often (HTTP 429, code 42900, docs/server-auth.md,
 * "Rate limits"): it waits the `Retry-After` the answer names before calling again, and says so once.
 */

/** When a 429 names no usable Retry-After. */
const FALLBACK_SECONDS = 5;
/** Longer than the server's window never helps; a broken header must not stop the console for hours. */
const MAX_SECONDS = 120;

/** The seconds a 429 answer asks to wait, within bounds. */
export const retryAfterSeconds = (response: Pick<Response, 'headers'>): number => {
  const told = Number(response.headers.get('retry-after'));
  return Number.isFinite(told) && told > 0 ? Math.min(MAX_SECONDS, Math.ceil(told)) : FALLBACK_SECONDS;
};

export interface BackOff {
  /** Resolves once no pause is running (at once when none is). */
  wait(): Promise<void>;
  /** Pauses calls for `seconds`; true when no pause was running, so the caller says so once per pause. */
  pause(seconds: number): boolean;
}

export const createBackOff = (now: () => number = Date.now): BackOff => {
  let until = 0;
  return {
    async wait() {
      for (let left = until - now(); left > 0; left = until - now()) await new Promise((resolve) => setTimeout(resolve, left));
    },
    pause(seconds) {
      const fresh = until <= now();
      until = Math.max(until, now() + seconds * 1000);
      return fresh;
    },
  };
};
