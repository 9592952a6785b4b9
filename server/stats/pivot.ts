import { sql, type RawBuilder } from 'kysely';
import { cellsFor, pivot, type PivotAnswer, type PivotCells, type PivotMeasure, type PivotQuery } from '../../src/domain/stats';
import { alarmScope } from '../alarms/list';
import type { AppContext } from '../context';
import type { Viewer } from '../scope/service';
import { dayOf, overlappingSessions, scopedChambers, scopedCommands, scopedOrders, sessionMsWithin } from './scope';

/**
 * `GET /api/v1/stats/pivot`: one measure summed in the store by chamber or by local day (one grouped
 * read), then grouped by site, type, chamber, day or month by the shared pivot (src/domain/stats.ts).
 * A session's hours count on the day it started.
 */

type Row = { key: string | number; value: number | string | null };

const cellsOf = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, query: PivotQuery): Promise<Row[]> => {
  const { db } = ctx;
  const { from, to, tz, measure } = query;
  const byChamber = cellsFor(query.by) === 'chamber';
  const key = (device: string, time: string): RawBuilder<string | number> => (byChamber ? sql<string>`${sql.ref(device)}` : dayOf(time, tz));
  const countAll = sql<number>`count(*)`;
  const counted: Record<Exclude<PivotMeasure, 'sessionHours'>, () => Promise<Row[]>> = {
    sessions: () =>
      scopedOrders(db, viewer).where('o.used_at', '>=', from).where('o.used_at', '<', to)
        .select([key('o.device_id', 'o.used_at').as('key'), countAll.as('value')]).groupBy(key('o.device_id', 'o.used_at')).execute(),
    bookings: () =>
      scopedOrders(db, viewer).where('o.set_t', '>=', from).where('o.set_t', '<', to)
        .select([key('o.device_id', 'o.set_t').as('key'), countAll.as('value')]).groupBy(key('o.device_id', 'o.set_t')).execute(),
    expired: () =>
      scopedOrders(db, viewer).where('o.set_t', '>=', from).where('o.set_t', '<', to).where('o.is_pass', '=', 1)
        .select([key('o.device_id', 'o.set_t').as('key'), countAll.as('value')]).groupBy(key('o.device_id', 'o.set_t')).execute(),
    commands: () =>
      scopedCommands(db, viewer).where('c.issued_at', '>=', from).where('c.issued_at', '<', to)
        .select([key('c.device_id', 'c.issued_at').as('key'), countAll.as('value')]).groupBy(key('c.device_id', 'c.issued_at')).execute(),
    commandsFailed: () =>
      scopedCommands(db, viewer).where('c.issued_at', '>=', from).where('c.issued_at', '<', to).where('c.status', 'in', ['refused', 'timeout'])
        .select([key('c.device_id', 'c.issued_at').as('key'), countAll.as('value')]).groupBy(key('c.device_id', 'c.issued_at')).execute(),
    alarms: () =>
      alarmScope(db, viewer).where('a.raised_at', '>=', from).where('a.raised_at', '<', to)
        .select([key('a.device_id', 'a.raised_at').as('key'), countAll.as('value')]).groupBy(key('a.device_id', 'a.raised_at')).execute(),
  };
  if (measure !== 'sessionHours') return counted[measure]();
  const end = Math.min(to, ctx.now());
  if (end <= from) return [];
  const rows = await overlappingSessions(db, viewer, from, end)
    .select([key('o.device_id', 'o.used_at').as('key'), sql<number>`sum(${sessionMsWithin(from, end)})`.as('value')])
    .groupBy(key('o.device_id', 'o.used_at'))
    .execute();
  return rows.map((row) => ({ key: row.key, value: Math.round((Number(row.value) / 3_600_000) * 100) / 100 }));
};

export const statsPivot = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, query: PivotQuery): Promise<PivotAnswer> => {
  const [chambers, rows] = await Promise.all([scopedChambers(ctx.db, viewer), cellsOf(ctx, viewer, query)]);
  const cells: PivotCells =
    cellsFor(query.by) === 'chamber'
      ? { of: 'chamber', cells: new Map(rows.map((row) => [String(row.key), Number(row.value)])) }
      : { of: 'day', cells: new Map(rows.map((row) => [Number(row.key), Number(row.value)])) };
  return { from: query.from, to: query.to, measure: query.measure, by: query.by, rows: pivot(query.by, cells, chambers, query, query.tz) };
};
