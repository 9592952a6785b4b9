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

/** One per-chamber measure summed over UTC days [first, last), per chamber. */
export const chamberDayTotals = async (db: Kysely<DB>, column: ChamberDayColumn, first: number, last: number): Promise<Map<string, number>> => {
  const rows = await db
    .selectFrom('stats_chamber_days')
    .where('day', '>=', first)
    .where('day', '<', last)
    .select(['device_id', sql<number>`sum(${sql.ref(column)})`.as('value')])
    .groupBy('device_id')
    .execute();
  return new Map(rows.map((row) => [row.device_id, Number(row.value)]));
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
