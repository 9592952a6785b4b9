import { sql, type Kysely } from 'kysely';
import { STANDING_ALARM_STATES } from '../../src/domain/alarms/open';
import { localDay, utilisationByHour, type FleetSummary, type SessionSpan } from '../../src/domain/fleetSummary';
import { alarmScope } from '../alarms/list';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { deviceScope, type Viewer } from '../scope/service';
import { DAY_MS } from '../../src/domain/time';

/**
 * The workplace's figures for one account (src/domain/fleetSummary.ts, docs/monitoring.md): five
 * aggregate reads over the chambers, orders, sessions and standing alarms of its scope. Each condition is
 * the one of the list filter its figure links to (CHAMBER_FIGURE_FILTERS, orderFigureFilters,
 * ALARM_FIGURE_FILTERS), written in SQL.
 */

/** `count(case when … then 1 end)`: a count on both stores (PostgreSQL's bigint counts arrive as numbers). */
const countWhen = (condition: ReturnType<typeof sql>) => sql<number>`count(case when ${condition} then 1 end)`;

const chamberCounts = async (db: Kysely<DB>, viewer: Viewer): Promise<FleetSummary['chambers']> => {
  const scope = deviceScope(db, viewer);
  // A removed device kept for its history is no longer a chamber of the fleet.
  const base = db.selectFrom('devices as d').where('d.removed_at', 'is', null);
  const row = await (scope === undefined ? base : base.where('d.id', 'in', scope))
    .select([
      sql<number>`count(*)`.as('total'),
      countWhen(sql`d.online = 1`).as('online'),
      countWhen(sql`d.state in ('Work', 'Stop') and d.in_session = 1`).as('inSession'),
      countWhen(sql`d.state in ('Work', 'Stop') and d.in_session = 0`).as('idle'),
      countWhen(sql`d.state = 'Repair'`).as('repair'),
    ])
    .executeTakeFirstOrThrow();
  const counts = { total: Number(row.total), online: Number(row.online), inSession: Number(row.inSession), idle: Number(row.idle), repair: Number(row.repair) };
  return { ...counts, offline: counts.total - counts.online };
};

/** The orders of the viewer's chambers. */
const scopedOrders = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = db.selectFrom('orders as o');
  return scope === undefined ? base : base.where('o.device_id', 'in', scope);
};

const bookingCounts = async (db: Kysely<DB>, viewer: Viewer, day: { from: number; to: number }) => {
  const row = await scopedOrders(db, viewer)
    .where('o.set_t', '>=', day.from)
    .where('o.set_t', '<=', day.to)
    .select([sql<number>`count(*)`.as('bookings'), countWhen(sql`o.is_used = 1`).as('used'), countWhen(sql`o.is_pass = 1`).as('expired')])
    .executeTakeFirstOrThrow();
  return { bookings: Number(row.bookings), used: Number(row.used), expired: Number(row.expired) };
};

/** The bookings of the viewer's chambers used in [from, to]: each is a session's start (UseTime). */
const sessionStarts = (db: Kysely<DB>, viewer: Viewer, from: number, to: number) =>
  scopedOrders(db, viewer).where('o.used_at', '>=', from).where('o.used_at', '<=', to);

/** The viewer's standing alarms by priority. */
const standingAlarms = async (db: Kysely<DB>, viewer: Viewer): Promise<FleetSummary['alarms']> => {
  const rows = await alarmScope(db, viewer)
    .where('a.state', 'in', STANDING_ALARM_STATES)
    .select(['a.priority', sql<number>`count(*)`.as('n')])
    .groupBy('a.priority')
    .execute();
  const count = (priority: string) => Number(rows.find((row) => row.priority === priority)?.n ?? 0);
  return { high: count('high'), medium: count('medium'), low: count('low') };
};

/**
 * The sessions that touch the day up to now: started at most a day before it (a longer session is
 * left out), finished today or still running. An order used but never finished counts as running only
 * while its chamber still names it (a lost session end is not busy time for ever).
 */
const sessionsOfDay = async (db: Kysely<DB>, viewer: Viewer, day: { from: number }, now: number): Promise<SessionSpan[]> => {
  const rows = await sessionStarts(db, viewer, day.from - DAY_MS, now)
    .innerJoin('devices as d', 'd.id', 'o.device_id')
    .where((eb) => eb.or([eb('o.finished_at', '>=', day.from), eb.and([eb('o.finished_at', 'is', null), eb('d.order_num', '=', eb.ref('o.order_num'))])]))
    .select(['o.used_at as start', 'o.finished_at as end'])
    .execute();
  return rows.map((row) => ({ start: Number(row.start), end: row.end === null ? undefined : Number(row.end) }));
};

/** The figures of `viewer`'s chambers for the local day of a browser at offset `tz` (minutes, getTimezoneOffset). */
export const fleetSummary = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, tz: number): Promise<FleetSummary> => {
  const now = ctx.now();
  const day = localDay(now, tz);
  const [chambers, bookings, sessions, spans, alarms] = await Promise.all([
    chamberCounts(ctx.db, viewer),
    bookingCounts(ctx.db, viewer, day),
    sessionStarts(ctx.db, viewer, day.from, day.to).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    sessionsOfDay(ctx.db, viewer, day, now),
    standingAlarms(ctx.db, viewer),
  ]);
  return {
    ...day,
    at: now,
    chambers,
    orders: { ...bookings, sessions: Number(sessions.n) },
    alarms,
    utilisation: utilisationByHour(spans, day, now, chambers.total),
  };
};
