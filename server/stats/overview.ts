import { sql, type Kysely } from 'kysely';
import type { AlarmKind, AlarmPriority } from '../../src/domain/alarms/rules';
import { COMMAND_TYPES, type CommandStatus } from '../../src/domain/commands';
import { dayLabel, daysOf, toHours, type StatsOverview, type StatsRange } from '../../src/domain/stats';
import { alarmScope } from '../alarms/list';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import type { Viewer } from '../scope/service';
import { dayOf, overlappingSessions, scopedChambers, scopedCommands, scopedOrders, sessionMsWithin } from './scope';

/**
 * `GET /api/v1/stats/overview` (src/domain/stats.ts, docs/analysis.md): a handful of grouped reads over the
 * orders, commands and alarms of the viewer's chambers; only the sums leave the store.
 */

const countWhen = (condition: ReturnType<typeof sql>) => sql<number>`count(case when ${condition} then 1 end)`;

const sessionsPerDay = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<StatsOverview['sessionsPerDay']> => {
  const day = dayOf('o.used_at', range.tz);
  const rows = await scopedOrders(db, viewer)
    .where('o.used_at', '>=', range.from)
    .where('o.used_at', '<', range.to)
    .select([day.as('day'), sql<number>`count(*)`.as('n')])
    .groupBy(day)
    .execute();
  const counts = new Map(rows.map((row) => [Number(row.day), Number(row.n)]));
  return daysOf(range, range.tz).map((each) => ({ day: dayLabel(each), sessions: counts.get(each) ?? 0 }));
};

/** Session time per chamber within [from, end), ms. */
const busyByChamber = async (db: Kysely<DB>, viewer: Viewer, from: number, end: number): Promise<Map<string, number>> => {
  if (end <= from) return new Map();
  const rows = await overlappingSessions(db, viewer, from, end)
    .select(['o.device_id as id', sql<number>`sum(${sessionMsWithin(from, end)})`.as('ms')])
    .groupBy('o.device_id')
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.ms)]));
};

const bookings = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<StatsOverview['bookings']> => {
  const row = await scopedOrders(db, viewer)
    .where('o.set_t', '>=', range.from)
    .where('o.set_t', '<', range.to)
    .select([
      sql<number>`count(*)`.as('total'),
      countWhen(sql`o.is_used = 1`).as('used'),
      countWhen(sql`o.is_pass = 1`).as('expired'),
      countWhen(sql`o.cancelled_at is not null`).as('cancelled'),
      countWhen(sql`o.is_used = 0 and o.is_pass = 0 and o.cancelled_at is null`).as('open'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), used: Number(row.used), expired: Number(row.expired), cancelled: Number(row.cancelled), open: Number(row.open) };
};

const commands = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<StatsOverview['commands']> => {
  const rows = await scopedCommands(db, viewer)
    .where('c.issued_at', '>=', range.from)
    .where('c.issued_at', '<', range.to)
    .select(['c.type as type', 'c.status as status', sql<number>`count(*)`.as('n')])
    .groupBy(['c.type', 'c.status'])
    .execute();
  return COMMAND_TYPES.map((type) => {
    const of = (status: CommandStatus) => Number(rows.find((row) => row.type === type && row.status === status)?.n ?? 0);
    return { type, sent: of('sent'), acked: of('acked'), refused: of('refused'), timeout: of('timeout') };
  });
};

const alarms = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<StatsOverview['alarms']> => {
  const wait = sql<number>`a.acked_at - a.raised_at`;
  const rows = await alarmScope(db, viewer)
    .where('a.raised_at', '>=', range.from)
    .where('a.raised_at', '<', range.to)
    .select([
      'a.kind as kind',
      'a.priority as priority',
      sql<number>`count(*)`.as('raised'),
      sql<number>`count(a.acked_at)`.as('acknowledged'),
      sql<number | null>`sum(${wait})`.as('waitMs'),
      sql<number | null>`max(${wait})`.as('maxMs'),
    ])
    .groupBy(['a.kind', 'a.priority'])
    .orderBy('a.kind')
    .orderBy('a.priority')
    .execute();
  return rows.map((row) => {
    const acknowledged = Number(row.acknowledged);
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    return {
      kind: row.kind as AlarmKind,
      priority: row.priority as AlarmPriority,
      raised: Number(row.raised),
      acknowledged,
      meanAckSeconds: acknowledged === 0 || row.waitMs === null ? null : seconds(Number(row.waitMs) / acknowledged),
      maxAckSeconds: acknowledged === 0 || row.maxMs === null ? null : seconds(Number(row.maxMs)),
    };
  });
};

/** The overview of `viewer`'s chambers over the range; time not yet come counts neither as busy nor as available. */
export const statsOverview = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, range: StatsRange): Promise<StatsOverview> => {
  const end = Math.min(range.to, ctx.now());
  const [chambers, perDay, busy, booked, commanded, alarmed] = await Promise.all([
    scopedChambers(ctx.db, viewer),
    sessionsPerDay(ctx.db, viewer, range),
    busyByChamber(ctx.db, viewer, range.from, end),
    bookings(ctx.db, viewer, range),
    commands(ctx.db, viewer, range),
    alarms(ctx.db, viewer, range),
  ]);
  const available = Math.max(0, end - range.from);
  const shareOf = (ms: number, count: number) => (available === 0 || count === 0 ? 0 : Math.min(1, ms / (available * count)));
  const utilisationByChamber = chambers.map(({ id, name, site }) => {
    const ms = busy.get(id) ?? 0;
    return { id, name, site, hours: toHours(ms), share: shareOf(ms, 1) };
  });
  const sites = new Map<string, { chambers: number; ms: number }>();
  for (const { id, site } of chambers) {
    const entry = sites.get(site) ?? { chambers: 0, ms: 0 };
    entry.chambers += 1;
    entry.ms += busy.get(id) ?? 0;
    sites.set(site, entry);
  }
  const utilisationBySite = [...sites]
    .map(([site, { chambers: count, ms }]) => ({ site, chambers: count, hours: toHours(ms), share: shareOf(ms, count) }))
    .sort((a, b) => a.site.localeCompare(b.site));
  return {
    from: range.from,
    to: range.to,
    chambers: chambers.length,
    sessionsPerDay: perDay,
    utilisationBySite,
    utilisationByChamber,
    bookings: booked,
    commands: commanded,
    alarms: alarmed,
  };
};
