import { DAY_MS, HOUR_MS } from '../../src/domain/time';

/**
 * How a range [from, to) is read (docs/analysis.md, "Speed"): its interior, the whole UTC days or hours
 * inside it, from the summaries that triggers keep (server/db/statsSummaries.ts); its ends, the partial
 * units before and after, from the rows as before (narrow index range scans).
 */

export type Piece = readonly [from: number, to: number];

export interface SplitRange {
  /** Unit numbers (floor(t / unit)) [first, last) wholly inside the range; absent when there is none. */
  interior?: { first: number; last: number };
  /** The rest of the range, read from the rows. */
  ends: Piece[];
}

export const splitRange = (from: number, to: number, unit: number): SplitRange => {
  const first = Math.ceil(from / unit);
  const last = Math.floor(to / unit);
  if (last <= first) return { ends: [[from, to]] };
  const ends = ([[from, first * unit], [last * unit, to]] as const).filter(([a, b]) => b > a);
  return { interior: { first, last }, ends };
};

/** Whether a browser's local days (offset `tz`, minutes) are made of whole UTC hours: then the hour summaries give its days. */
export const wholeHourOffset = (tz: number): boolean => tz % 60 === 0;

/** The local day number of the UTC hour `hour` (src/domain/stats.ts localDayNumber of its start). */
export const localDayOfHour = (hour: number, tz: number): number => Math.floor((hour * HOUR_MS - tz * 60_000) / DAY_MS);

/** Adds `value` to `key` of a map of sums. */
export const addTo = <K>(sums: Map<K, number>, key: K, value: number): void => {
  sums.set(key, (sums.get(key) ?? 0) + value);
};
