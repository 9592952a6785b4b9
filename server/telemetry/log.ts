import type { FastifyBaseLogger } from 'fastify';

/**
 * Ingestion's logging: pino-like, and rate-limited per kind of line, so that a device flooding the
 * server with bad messages (or a database that keeps failing) cannot flood the log. The counters
 * (docs/ingest.md) count everything; the log shows the first few lines of each kind per window and, on
 * the first line of that kind in a later window, how many it left out (`suppressed`).
 */

/** What ingestion logs with: a Fastify (pino) logger fits. */
export type IngestLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export type LogLevel = 'info' | 'warn' | 'error';

/** Logs unless lines of `key` have been logged `burst` times in the current window. */
export type LimitedLog = (level: LogLevel, key: string, fields: object, message: string) => void;

export interface LogLimits {
  /** Lines per key per window. */
  burst: number;
  windowMs: number;
  now: () => number;
}

export const LOG_BURST = 5;
export const LOG_WINDOW_MS = 10_000;

export const rateLimitedLog = (log: IngestLog, limits: LogLimits): LimitedLog => {
  // Keys come from closed sets (parse reasons, outcomes, event kinds), so this map stays small.
  const windows = new Map<string, { start: number; logged: number; suppressed: number }>();
  return (level, key, fields, message) => {
    const now = limits.now();
    let window = windows.get(key);
    let shown = fields;
    if (window === undefined || now - window.start >= limits.windowMs || now < window.start) {
      if (window !== undefined && window.suppressed > 0) shown = { ...fields, suppressed: window.suppressed };
      window = { start: now, logged: 0, suppressed: 0 };
      windows.set(key, window);
    }
    if (window.logged >= limits.burst) {
      window.suppressed += 1;
      return;
    }
    window.logged += 1;
    log[level](shown, message);
  };
};

/** A string from a device (a topic) made safe for a log line: printable ASCII, at most 80 characters. */
export const printable = (value: unknown): string =>
  typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, '?').slice(0, 80) : `(${typeof value})`;
