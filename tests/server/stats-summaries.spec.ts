import { beforeEach, describe, expect, it } from 'vitest';
import { sql, type Insertable } from 'kysely';
import { ALARM_KINDS } from '../../src/domain/alarms/rules';
import { PIVOT_MEASURES, type StatsRange } from '../../src/domain/stats';
import type { AppContext } from '../../server/context';
import { createMigrator, migrateToLatest } from '../../server/db/migrations';
import { ROLLUP_COLUMNS, type DB } from '../../server/db/schema';
import { sweepRetention } from '../../server/history/retention';
import type { Viewer } from '../../server/scope/service';
import { statsOverview } from '../../server/stats/overview';
import { statsPivot } from '../../server/stats/pivot';
import { statsReadings } from '../../server/stats/readings';
import { ALL_DEVICES, seedFleet } from './fleet';
import { HOUR, MINUTE, STORE_KINDS, useStore } from './stores';

/**
 * The analysis' summaries (server/db/statsSummaries.ts, docs/analysis.md "Speed"): the super administrator's
 * answers, whose whole days and hours come from the summaries, equal the answers a viewer given every
 * chamber reads from the rows alone, over ranges whose ends fall off UTC midnights, at offsets of +8 h, -5 h
 * and +5:30 (read from the rows), before and after updates and deletes; and the summaries the triggers keep
 * equal the ones the migration fills from the rows.
 */

const DAY = 24 * HOUR;
/** Now: 2026-03-10 10:20 UTC; the fleet's history runs from 20 days before to a day after. */
const NOW = Date.UTC(2026, 2, 10, 10, 20);
const FIRST = NOW - 20 * DAY;

/** One of a list, by a number from the sequence. */
const oneOf = <T>(list: readonly T[], i: number): T => {
  const item = list[i % list.length];
  if (item === undefined) throw new Error('an empty list');
  return item;
};

/** A small deterministic sequence (no Math.random: a failure must repeat). */
const sequence = (seed: number) => {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    // The high bits: an LCG's low bits repeat with short periods.
    return Math.floor(state / 65_536) % below;
  };
};

const CHINA = -480;
const NEW_YORK = 300;
const INDIA = -330;
/** Starts off midnight, ends before now off midnight. */
const OFF_MIDNIGHTS = { name: 'nine days off midnights', from: FIRST + 2 * DAY + 5 * HOUR + 13 * MINUTE, to: NOW - 37 * MINUTE };
const RANGES: readonly { name: string; from: number; to: number }[] = [
  OFF_MIDNIGHTS,
  // China's local days: from its midnight to a midnight after now.
  { name: "China's days past now", from: Date.UTC(2026, 1, 27, 16), to: Date.UTC(2026, 2, 11, 16) },
  // Whole UTC days, among them a whole week (Thursday to Wednesday) of the per-chamber summary.
  { name: 'whole UTC days', from: Date.UTC(2026, 1, 20), to: Date.UTC(2026, 2, 9) },
  { name: 'within a day', from: NOW - 9 * HOUR - 7 * MINUTE, to: NOW - HOUR },
];

describe.each(STORE_KINDS)('the analysis summaries (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;
  let admin: Viewer;
  /** A lower administrator given every chamber: its scope is not the whole fleet, so it reads the rows. */
  let everyChamber: Viewer;

  const answers = async (viewer: Viewer, range: StatsRange) => ({
    overview: await statsOverview(ctx, viewer, range),
    readings: await statsReadings(ctx, viewer, range),
    pivots: await Promise.all(
      PIVOT_MEASURES.flatMap((measure) => (['site', 'chamber', 'day', 'month'] as const).map((by) => statsPivot(ctx, viewer, { ...range, measure, by }))),
    ),
  });
  const expectSameAnswers = async () => {
    for (const { name, from, to } of RANGES) {
      for (const tz of [CHINA, NEW_YORK, INDIA, 0]) {
        const range = { from, to, tz };
        expect(await answers(admin, range), `${name}, tz ${tz}`).toEqual(await answers(everyChamber, range));
      }
    }
  };

  /** Every summary row that holds something, in key order. */
  const counted = ['sessions', 'session_ms', 'bookings', 'expired', 'commands', 'commands_failed', 'alarms'];
  const summaries = async () => ({
    days: await ctx.db.selectFrom('stats_chamber_days').selectAll()
      .where((eb) => eb.or(counted.map((column) => eb(sql.ref(column), '<>', 0))))
      .orderBy('device_id').orderBy('day').execute(),
    weeks: await ctx.db.selectFrom('stats_chamber_weeks').selectAll()
      .where((eb) => eb.or(counted.map((column) => eb(sql.ref(column), '<>', 0))))
      .orderBy('device_id').orderBy('week').execute(),
    fleet: (await ctx.db.selectFrom('stats_fleet').selectAll().where((eb) => eb.or([eb('n', '<>', 0), eb('total', '<>', 0)]))
      .orderBy('grain').orderBy('measure').orderBy('start').execute()).map((row) => ({ ...row, n: Number(row.n), total: Number(row.total), peak: row.peak === null ? null : Number(row.peak) })),
  });

  beforeEach(async () => {
    await store.wipe();
    ctx = store.context({}, () => NOW);
    await seedFleet(ctx);
    await ctx.db.deleteFrom('orders').execute();
    const ids = await ctx.db.selectFrom('accounts').select(['id', 'account', 'level']).execute();
    const account = (name: string) => ids.find((row) => row.account === name) ?? { id: -1, level: 0 };
    admin = { id: account('admin').id, level: 0 };
    const second = account('second');
    everyChamber = { id: second.id, level: second.level as Viewer['level'] };
    await ctx.db.insertInto('account_devices').values(ALL_DEVICES.map((device_id) => ({ account_id: second.id, device_id, created_at: NOW }))).onConflict((conflict) => conflict.columns(['account_id', 'device_id']).doNothing()).execute();

    const next = sequence(kind === 'sqlite' ? 7 : 11);
    const orders: Insertable<DB['orders']>[] = [];
    const order = (device_id: string, set_t: number | null, used_at: number | null, finished_at: number | null, state: { is_pass?: number; cancelled_at?: number } = {}) =>
      orders.push({
        order_num: `S-${orders.length}`, device_id, time: (set_t ?? used_at ?? NOW) - HOUR, set_t, oc: '000000', open_id: 'oTest',
        is_used: used_at === null ? 0 : 1, is_pass: state.is_pass ?? 0, finished_at, used_at, cancelled_at: state.cancelled_at ?? null,
      });
    for (const [d, device] of ALL_DEVICES.entries()) {
      for (let at = FIRST + d * 37 * MINUTE; at < NOW - 3 * HOUR; at += (5 + next(9)) * HOUR + next(60) * MINUTE) {
        const kindOf = next(10);
        // Most are sessions of half an hour to five hours (some cross a UTC midnight); some bookings expire, are cancelled or stay open.
        if (kindOf < 7) order(device, at, at + next(10) * MINUTE, at + (30 + next(270)) * MINUTE);
        else if (kindOf === 7) order(device, at, null, null, { is_pass: 1 });
        else if (kindOf === 8) order(device, at, null, null, { cancelled_at: at - HOUR });
        else order(device, at + 2 * DAY, null, null);
      }
    }
    // Sessions across the first range's start, a 30-hour one, one that ended before it started, a lost one (no end, not its chamber's),
    // one finished after now (a clock ahead) and one its chamber still runs.
    order('OC-A1', null, OFF_MIDNIGHTS.from - 2 * HOUR, OFF_MIDNIGHTS.from + HOUR);
    order('OC-A2', null, FIRST + 3 * DAY + 2 * HOUR, FIRST + 4 * DAY + 8 * HOUR);
    order('OC-B1', null, FIRST + 5 * DAY + HOUR, FIRST + 5 * DAY);
    order('OC-B2', null, FIRST + 6 * DAY, null);
    order('OC-C1', null, NOW - 2 * HOUR, NOW + HOUR);
    order('OC-C2', null, NOW - 90 * MINUTE, null);
    await ctx.db.insertInto('orders').values(orders).execute();
    await ctx.db.updateTable('devices').set({ order_num: `S-${orders.length - 1}` }).where('id', '=', 'OC-C2').execute();

    const statuses = ['sent', 'acked', 'refused', 'timeout'];
    const types = ['permission', 'state', 'settings'];
    await ctx.db.insertInto('device_commands').values(Array.from({ length: 300 }, (_, i) => ({
      cmd_id: `k${i}`, device_id: oneOf(ALL_DEVICES, next(6)), type: oneOf(types, next(3)), status: oneOf(statuses, next(4)), payload: '{}', error: null, issued_by: null,
      issued_at: FIRST + next(21 * 24 * 60) * MINUTE, answered_at: null,
    }))).execute();
    await ctx.db.insertInto('alarms').values(Array.from({ length: 200 }, () => {
      const raised = FIRST + next(21 * 24 * 60) * MINUTE;
      return {
        device_id: oneOf(ALL_DEVICES, next(6)), kind: oneOf(ALARM_KINDS, next(4)), priority: oneOf(['high', 'medium', 'low'], next(3)), state: 'closed', condition: 0, value: null, threshold: null,
        raised_at: raised, acked_at: next(3) === 0 ? null : raised + next(600) * 1000, acked_by: null, closed_at: null, shelved_until: null, comment: null,
      };
    })).execute();
    const rollups: Insertable<DB['reading_rollups']>[] = [];
    for (const device of ALL_DEVICES) {
      for (let start = FIRST; start < NOW; start += (1 + next(3)) * HOUR) {
        const means = { rcp: 0.9 + next(13) / 10, rcpi02: 18 + next(14), rct: 15 + next(19) };
        const n = next(5) === 0 ? 0 : 60;
        rollups.push({
          device_id: device, bucket_ms: next(8) === 0 ? MINUTE : HOUR, start,
          ...Object.fromEntries(Object.values(ROLLUP_COLUMNS).flatMap((column) => [[`${column}_sum`, 0], [`${column}_n`, 0]])),
          ...Object.fromEntries(Object.entries(means).flatMap(([column, mean]) => [[`${column}_sum`, mean * n], [`${column}_n`, n]])),
        } as Insertable<DB['reading_rollups']>);
      }
    }
    for (let i = 0; i < rollups.length; i += 200) await ctx.db.insertInto('reading_rollups').values(rollups.slice(i, i + 200)).execute();
  });

  it("answers the whole fleet from the summaries as a viewer of every chamber from the rows, and a scoped viewer from the rows", async () => {
    expect((await summaries()).fleet.length).toBeGreaterThan(100);
    await expectSameAnswers();
    // The super administrator's answer does come from the summaries, a scoped viewer's from the rows.
    const range = { ...OFF_MIDNIGHTS, tz: CHINA };
    const sessionsOfA1 = async (viewer: Viewer) => (await statsPivot(ctx, viewer, { ...range, measure: 'sessions', by: 'chamber' })).rows.find((row) => row.key === 'OC-A1')?.value;
    const before = await sessionsOfA1(admin);
    for (const table of ['stats_chamber_days', 'stats_chamber_weeks'] as const) await ctx.db.updateTable(table).set({ sessions: sql`sessions + 1000` }).where('device_id', '=', 'OC-A1').execute();
    expect(await sessionsOfA1(admin)).toBeGreaterThanOrEqual((before ?? 0) + 1000);
    expect(await sessionsOfA1(everyChamber)).toBe(before);
  });

  it('keeps the summaries equal to the rows through updates and deletes', async () => {
    const { db } = ctx;
    // An acknowledgement, one changed to a shorter wait (the day's longest wait is read again), a booking used, a session ended, a command answered.
    const unacked = await db.selectFrom('alarms').select('id').where('acked_at', 'is', null).orderBy('id').executeTakeFirstOrThrow();
    await db.updateTable('alarms').set({ acked_at: sql`raised_at + 42000` }).where('id', '=', unacked.id).execute();
    const longest = await db.selectFrom('alarms').select('id').where('acked_at', 'is not', null).orderBy(sql`acked_at - raised_at`, 'desc').executeTakeFirstOrThrow();
    await db.updateTable('alarms').set({ acked_at: sql`raised_at + 1000` }).where('id', '=', longest.id).execute();
    const open = await db.selectFrom('orders').select(['order_num', 'set_t']).where('is_used', '=', 0).where('is_pass', '=', 0).where('cancelled_at', 'is', null).where('set_t', '<', NOW).orderBy('order_num').executeTakeFirstOrThrow();
    await db.updateTable('orders').set({ is_used: 1, used_at: open.set_t, finished_at: (open.set_t ?? 0) + 2 * HOUR }).where('order_num', '=', open.order_num).execute();
    await db.updateTable('orders').set({ finished_at: NOW - 10 * MINUTE }).where('device_id', '=', 'OC-C2').where('finished_at', 'is', null).execute();
    await db.updateTable('device_commands').set({ status: 'acked', answered_at: NOW }).where('status', '=', 'sent').execute();
    // A rollup's hour moves to another bin, the oldest go by retention, and some orders, commands and alarms are deleted.
    await db.updateTable('reading_rollups').set({ rcp_sum: sql`rcp_sum + 0.3 * rcp_n` }).where('bucket_ms', '=', HOUR).where('device_id', '=', 'OC-B1').execute();
    // Retention with rollups kept a day, swept as if it were 5 days after the history's start.
    expect((await sweepRetention(store.context({ ROLLUP_RETENTION_DAYS: '1' }, () => NOW), FIRST + 5 * DAY)).rollups).toBeGreaterThan(100);
    await db.deleteFrom('orders').where('device_id', '=', 'OC-A2').where('used_at', '<', FIRST + 6 * DAY).execute();
    await db.deleteFrom('device_commands').where('device_id', '=', 'OC-B2').execute();
    await db.deleteFrom('alarms').where('id', '=', longest.id - 1).execute();
    await expectSameAnswers();

    // The summaries the triggers kept are the ones the migration fills from the rows.
    const kept = await summaries();
    expect((await createMigrator(store.database).migrateTo('0027_messages_certificate_id')).error).toBeUndefined();
    await migrateToLatest(store.database);
    expect(await summaries()).toEqual(kept);
    await expectSameAnswers();
  });
});
