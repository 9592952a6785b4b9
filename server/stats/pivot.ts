import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { cellsFor, pivot, type PivotAnswer, type PivotCells, type PivotMeasure, type PivotQuery } from '../../src/domain/stats';
import { alarmScope } from '../alarms/list';
import type { AppContext } from '../context';
import type { Viewer } from '../scope/service';
import { addTo, wholeHourOffset, type Piece } from './ranges';
import { DAY_MS, HOUR_MS } from '../../src/domain/time';
import { dayOf, scopedChambers, scopedCommands, scopedOrders } from './scope';
import { sessionTime } from './sessionTime';
import { chamberDayTotals, fleetHoursByLocalDay, readSplit, type ChamberDayColumn } from './summaries';

/**
 * `GET /api/v1/stats/pivot`: one measure summed in the store by chamber or by local day (grouped reads of
 * the range's ends, and for the whole fleet its whole UTC days per chamber or whole UTC hours per local day
 * from the summaries), then grouped by site, type, chamber, day or month by the shared pivot
 * (src/domain/stats.ts). A session's hours count on the day it started.
 */

type CountedMeasure = Exclude<PivotMeasure, 'sessionHours'>;

/** Where the summaries keep each counted measure: per chamber and day, and for the fleet per hour. */
const SUMMARISED: Record<CountedMeasure, { chamber: ChamberDayColumn; hour: string }> = {
  sessions: { chamber: 'sessions', hour: 'sessions' },
  bookings: { chamber: 'bookings', hour: 'bookings' },
  expired: { chamber: 'expired', hour: 'bookings.expired' },
  commands: { chamber: 'commands', hour: 'commands' },
  commandsFailed: { chamber: 'commands_failed', hour: 'commands.failed' },
  alarms: { chamber: 'alarms', hour: 'alarms' },
};

const cellsOf = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, query: PivotQuery): Promise<Map<string | number, number>> => {
  const { db } = ctx;
  const { from, to, tz, measure } = query;
  const byChamber = cellsFor(query.by) === 'chamber';
  if (measure === 'sessionHours') {
    const ms = await sessionTime(db, viewer, from, Math.min(to, ctx.now()), byChamber ? { by: 'chamber' } : { by: 'day', tz });
    return new Map([...ms].map(([key, value]) => [key, Math.round((value / HOUR_MS) * 100) / 100]));
  }
  const key = (device: string, time: string): RawBuilder<string | number> => (byChamber ? sql<string>`${sql.ref(device)}` : dayOf(time, tz));
  /** The rows of `query` whose `time` lies in the piece, counted per chamber or per local day. */
  const countIn = <D, TB extends keyof D>(query: SelectQueryBuilder<D, TB, object>, device: string, time: string) => ([a, b]: Piece) =>
    query
      .where(sql.ref(time), '>=', a)
      .where(sql.ref(time), '<', b)
      .select([key(device, time).as('key'), sql<number>`count(*)`.as('value')])
      .groupBy(key(device, time))
      .execute();
  const counted: Record<CountedMeasure, (piece: Piece) => Promise<{ key: string | number; value: number }[]>> = {
    sessions: countIn(scopedOrders(db, viewer), 'o.device_id', 'o.used_at'),
    bookings: countIn(scopedOrders(db, viewer), 'o.device_id', 'o.set_t'),
    expired: countIn(scopedOrders(db, viewer).where('o.is_pass', '=', 1), 'o.device_id', 'o.set_t'),
    commands: countIn(scopedCommands(db, viewer), 'c.device_id', 'c.issued_at'),
    commandsFailed: countIn(scopedCommands(db, viewer).where('c.status', 'in', ['refused', 'timeout']), 'c.device_id', 'c.issued_at'),
    alarms: countIn(alarmScope(db, viewer), 'a.device_id', 'a.raised_at'),
  };
  const cells = new Map<string | number, number>();
  const fromRows = async (piece: Piece) => {
    for (const row of await counted[measure](piece)) addTo(cells, byChamber ? String(row.key) : Number(row.key), Number(row.value));
  };
  const summarised = SUMMARISED[measure];
  const fromSummary = async (first: number, last: number) => {
    const sums = byChamber ? await chamberDayTotals(db, summarised.chamber, first, last) : await fleetHoursByLocalDay(db, summarised.hour, 'n', first, last, tz);
    for (const [at, value] of sums) addTo(cells, at, value);
  };
  await readSplit(db, viewer, [from, to], byChamber ? DAY_MS : HOUR_MS, fromRows, fromSummary, byChamber || wholeHourOffset(tz));
  return cells;
};

export const statsPivot = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, query: PivotQuery): Promise<PivotAnswer> => {
  const [chambers, sums] = await Promise.all([scopedChambers(ctx.db, viewer), cellsOf(ctx, viewer, query)]);
  const cells: PivotCells =
    cellsFor(query.by) === 'chamber'
      ? { of: 'chamber', cells: new Map([...sums].map(([key, value]) => [String(key), value])) }
      : { of: 'day', cells: new Map([...sums].map(([key, value]) => [Number(key), value])) };
  return { from: query.from, to: query.to, measure: query.measure, by: query.by, rows: pivot(query.by, cells, chambers, query, query.tz) };
};
