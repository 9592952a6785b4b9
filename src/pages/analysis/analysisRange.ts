import type { StatsRange } from '../../domain/stats';

/** The ranges the analysis pages offer, in days, each ending with today (the browser's day). */
export const RANGE_DAYS = [7, 30, 90, 365] as const;
export type RangeDays = (typeof RANGE_DAYS)[number];

/** The last `days` local days up to the end of today, in the browser's zone. */
export const rangeOf = (days: RangeDays, now = new Date()): StatsRange => {
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1 - days);
  return { from: start.getTime(), to: end.getTime(), tz: now.getTimezoneOffset() };
};
