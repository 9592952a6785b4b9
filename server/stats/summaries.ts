import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { deviceScope, type Viewer } from '../scope/service';
import { addTo, localDayOfHour, splitRange, type Piece } from './ranges';

/**
 * The interior of a range read from the summaries (server/db/statsSummaries.ts): fleet-wide, so only for a
 * viewer whose scope is the whole fleet (docs/analysis.md, "Speed").
 */

export interface FleetTotal {
  measure: string;
  n: number;
  total: number;
  peak: number | null;
}

/** The fleet's day measures starting with `prefix` over UTC days [first, last), summed per measure. */
export const fleetDayTotals = async (db: Kysely<DB>, prefix: string, first: number, last: number): Promise<FleetTotal[]> => {
  const rows = await db
    .selectFrom('stats_fleet')
    .where('grain', '=', 'day')
    .where('measure', 'like', `${prefix}%`)
    .where('start', '>=', first)
    .where('start', '<', last)
    .select(['measure', sql<number>`sum(n)`.as('n'), sql<number>`sum(total)`.as('total'), sql<number | null>`max(peak)`.as('peak')])
    .groupBy('measure')
    .execute();
  return rows.map((row) => ({ measure: row.measure, n: Number(row.n), total: Number(row.total), peak: row.peak === null ? null : Number(row.peak) }));
};

/** One hour measure of the fleet over UTC hours [first, last), its count or its sum, per local day at offset `tz`. */
export const fleetHoursByLocalDay = async (db: Kysely<DB>, measure: string, of: 'n' | 'total', first: number, last: number, tz: number): Promise<Map<number, number>> => {
  const rows = await db
    .selectFrom('stats_fleet')
    .where('grain', '=', 'hour')
    .where('measure', '=', measure)
    .where('start', '>=', first)
    .where('start', '<', last)
    .select(['start', of])
    .execute();
  const days = new Map<number, number>();
  for (const row of rows) addTo(days, localDayOfHour(Number(row.start), tz), Number(row[of]));
  return days;
};

export type ChamberDayColumn = 'sessions' | 'session_ms' | 'bookings' | 'expired' | 'commands' | 'commands_failed' | 'alarms';

/**
 * One per-chamber measure summed over UTC days [first, last), per chamber: the whole weeks inside from
 * stats_chamber_weeks, the days before and after them from stats_chamber_days.
 */
export const chamberDayTotals = async (db: Kysely<DB>, column: ChamberDayColumn, first: number, last: number): Promise<Map<string, number>> => {
  const sums = new Map<string, number>();
  const add = (rows: readonly { device_id: string; value: number | string }[]) => {
    for (const row of rows) addTo(sums, row.device_id, Number(row.value));
  };
  const value = sql<number>`sum(${sql.ref(column)})`.as('value');
  const days = ([a, b]: Piece) => db.selectFrom('stats_chamber_days').where('day', '>=', a).where('day', '<', b).select(['device_id', value]).groupBy('device_id').execute();
  const { interior, ends } = splitRange(first, last, 7);
  const parts = await Promise.all([
    ...ends.map(days),
    ...(interior === undefined
      ? []
      : [db.selectFrom('stats_chamber_weeks').where('week', '>=', interior.first).where('week', '<', interior.last).select(['device_id', value]).groupBy('device_id').execute()]),
  ]);
  for (const part of parts) add(part);
  return sums;
};

/**
 * Reads [from, to) in parts: the whole `unit`s inside it with `summary` when the viewer's scope is the whole
 * fleet and `usable` (a per-local-day series needs a whole-hour offset), the ends with `rows`; otherwise the
 * whole range with `rows`, as a scoped viewer always reads it. The caller adds the parts up.
 */
export const readSplit = async <T>(
  db: Kysely<DB>,
  viewer: Viewer,
  range: Piece,
  unit: number,
  rows: (piece: Piece) => Promise<T>,
  summary: (first: number, last: number) => Promise<T>,
  usable = true,
): Promise<T[]> => {
  const { interior, ends } = splitRange(range[0], range[1], unit);
  if (!usable || interior === undefined || deviceScope(db, viewer) !== undefined) return [await rows(range)];
  return Promise.all([...ends.map(rows), summary(interior.first, interior.last)]);
};
