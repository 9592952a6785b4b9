import { sql, type Kysely } from 'kysely';
import type { AlarmKind, AlarmPriority } from '../../src/domain/alarms/rules';
import { COMMAND_TYPES, type CommandStatus } from '../../src/domain/commands';
import { dayLabel, daysOf, toHours, type StatsOverview, type StatsRange } from '../../src/domain/stats';
import { alarmScope } from '../alarms/list';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import type { Viewer } from '../scope/service';
import { addTo, wholeHourOffset, type Piece } from './ranges';
import { DAY_MS, HOUR_MS } from '../../src/domain/time';
import { dayOf, scopedChambers, scopedCommands, scopedOrders } from './scope';
import { sessionTime } from './sessionTime';
import { fleetDayTotals, fleetHoursByLocalDay, readSplit } from './summaries';

/**
 * `GET /api/v1/stats/overview` (src/domain/stats.ts, docs/analysis.md): a handful of grouped reads over the
 * orders, commands and alarms of the viewer's chambers, the whole days or hours of the range from the
 * summaries when the viewer sees the whole fleet (server/stats/summaries.ts); only the sums leave the store.
 */

/** The stores' order of plain ASCII names (the rows were read ordered by kind and priority). */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const countWhen = (condition: ReturnType<typeof sql>) => sql<number>`count(case when ${condition} then 1 end)`;

const sessionsPerDay = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<StatsOverview['sessionsPerDay']> => {
  const day = dayOf('o.used_at', range.tz);
  const fromRows = async ([from, to]: Piece) => {
    const rows = await scopedOrders(db, viewer).where('o.used_at', '>=', from).where('o.used_at', '<', to)
      .select([day.as('day'), sql<number>`count(*)`.as('n')]).groupBy(day).execute();
    return new Map(rows.map((row) => [Number(row.day), Number(row.n)]));
  };
  const parts = await readSplit(db, viewer, [range.from, range.to], HOUR_MS, fromRows, (first, last) => fleetHoursByLocalDay(db, 'sessions', 'n', first, last, range.tz), wholeHourOffset(range.tz));
  const counts = new Map<number, number>();
  for (const part of parts) for (const [each, n] of part) addTo(counts, each, n);
  return daysOf(range, range.tz).map((each) => ({ day: dayLabel(each), sessions: counts.get(each) ?? 0 }));
};

type Bookings = StatsOverview['bookings'];
const BOOKING_STATES = ['total', 'used', 'expired', 'cancelled', 'open'] as const;

const bookings = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<Bookings> => {
  const fromRows = async ([from, to]: Piece): Promise<Bookings> => {
    const row = await scopedOrders(db, viewer).where('o.set_t', '>=', from).where('o.set_t', '<', to)
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
  const fromSummary = async (first: number, last: number): Promise<Bookings> => {
    const totals = await fleetDayTotals(db, 'bookings.', first, last);
    const of = (state: string) => totals.find((total) => total.measure === `bookings.${state}`)?.n ?? 0;
    return { total: of('total'), used: of('used'), expired: of('expired'), cancelled: of('cancelled'), open: of('open') };
  };
  const parts = await readSplit(db, viewer, [range.from, range.to], DAY_MS, fromRows, fromSummary);
  const sum = { total: 0, used: 0, expired: 0, cancelled: 0, open: 0 };
  for (const part of parts) for (const state of BOOKING_STATES) sum[state] += part[state];
  return sum;
};

const commands = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<StatsOverview['commands']> => {
  const counts = new Map<string, number>();
  const fromRows = async ([from, to]: Piece) => {
    const rows = await scopedCommands(db, viewer).where('c.issued_at', '>=', from).where('c.issued_at', '<', to)
      .select(['c.type as type', 'c.status as status', sql<number>`count(*)`.as('n')]).groupBy(['c.type', 'c.status']).execute();
    for (const row of rows) addTo(counts, `${row.type}.${row.status}`, Number(row.n));
  };
  const fromSummary = async (first: number, last: number) => {
    for (const total of await fleetDayTotals(db, 'commands.', first, last)) addTo(counts, total.measure.slice('commands.'.length), total.n);
  };
  await readSplit(db, viewer, [range.from, range.to], DAY_MS, fromRows, fromSummary);
  return COMMAND_TYPES.map((type) => {
    const of = (status: CommandStatus) => counts.get(`${type}.${status}`) ?? 0;
    return { type, sent: of('sent'), acked: of('acked'), refused: of('refused'), timeout: of('timeout') };
  });
};

/** An alarm group's sums: raised, acknowledged, the waits' sum and max (ms). */
interface AlarmSums {
  raised: number;
  acknowledged: number;
  waitMs: number;
  maxMs: number | null;
}

const alarms = async (db: Kysely<DB>, viewer: Viewer, range: StatsRange): Promise<StatsOverview['alarms']> => {
  const groups = new Map<string, AlarmSums>();
  const add = (group: string, sums: Partial<AlarmSums>) => {
    const entry = groups.get(group) ?? { raised: 0, acknowledged: 0, waitMs: 0, maxMs: null };
    entry.raised += sums.raised ?? 0;
    entry.acknowledged += sums.acknowledged ?? 0;
    entry.waitMs += sums.waitMs ?? 0;
    if (sums.maxMs !== undefined && sums.maxMs !== null && (entry.maxMs === null || sums.maxMs > entry.maxMs)) entry.maxMs = sums.maxMs;
    groups.set(group, entry);
  };
  const wait = sql<number>`a.acked_at - a.raised_at`;
  const fromRows = async ([from, to]: Piece) => {
    const rows = await alarmScope(db, viewer).where('a.raised_at', '>=', from).where('a.raised_at', '<', to)
      .select([
        'a.kind as kind',
        'a.priority as priority',
        sql<number>`count(*)`.as('raised'),
        sql<number>`count(a.acked_at)`.as('acknowledged'),
        sql<number | null>`sum(${wait})`.as('waitMs'),
        sql<number | null>`max(${wait})`.as('maxMs'),
      ])
      .groupBy(['a.kind', 'a.priority'])
      .execute();
    for (const row of rows) {
      add(`${row.kind}.${row.priority}`, { raised: Number(row.raised), acknowledged: Number(row.acknowledged), waitMs: Number(row.waitMs ?? 0), maxMs: row.maxMs === null ? null : Number(row.maxMs) });
    }
  };
  const fromSummary = async (first: number, last: number) => {
    for (const { measure, n, total, peak } of await fleetDayTotals(db, 'alarms.', first, last)) {
      const group = measure.slice('alarms.'.length);
      if (group.endsWith('.acked')) add(group.slice(0, -'.acked'.length), { acknowledged: n, waitMs: total, maxMs: peak });
      else add(group, { raised: n });
    }
  };
  await readSplit(db, viewer, [range.from, range.to], DAY_MS, fromRows, fromSummary);
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  return [...groups]
    .filter(([, sums]) => sums.raised > 0)
    .map(([group, sums]) => [...(group.split('.') as [AlarmKind, AlarmPriority]), sums] as const)
    .sort(([kindA, priorityA], [kindB, priorityB]) => byText(kindA, kindB) || byText(priorityA, priorityB))
    .map(([kind, priority, { raised, acknowledged, waitMs, maxMs }]) => {
      return {
        kind,
        priority,
        raised,
        acknowledged,
        meanAckSeconds: acknowledged === 0 ? null : seconds(waitMs / acknowledged),
        maxAckSeconds: acknowledged === 0 || maxMs === null ? null : seconds(maxMs),
      };
    });
};

/** The overview of `viewer`'s chambers over the range; time not yet come counts neither as busy nor as available. */
export const statsOverview = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, range: StatsRange): Promise<StatsOverview> => {
  const end = Math.min(range.to, ctx.now());
  const [chambers, perDay, busy, booked, commanded, alarmed] = await Promise.all([
    scopedChambers(ctx.db, viewer),
    sessionsPerDay(ctx.db, viewer, range),
    sessionTime(ctx.db, viewer, range.from, end, { by: 'chamber' }),
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
