import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/context';
import { createDatabase } from '../../server/db/database';
import { createMigrator, migrateToLatest } from '../../server/db/migrations';
import type { Telemetry } from '../../src/domain/mqtt/payloads';
import { createRollupFlusher, rollUpEverything } from '../../server/telemetry/rollups';
import { HOUR_MS, MINUTE_MS } from '../../src/domain/time';
import { seedFleet, T0 } from './fleet';
import { everySecond, readingAt, writeReadings } from './readings';
import { HOUR, STORE_KINDS, useStore } from './stores';

/**
 * Rollups (docs/ingest.md, "Rollups") on both stores: recomputed from the raw rows of the buckets the
 * batch writer stored readings in, at each flush, they equal exactly the raw rows stored, redeliveries,
 * late readings, restarts and a second server instance included.
 */

const START = T0 + 2 * HOUR;
const DAY = 24 * HOUR;

/** Per bucket of `width` from the raw rows since `since`: RCP and RCPi02 min/max/sum/n, HmBP's systolic part's. */
const fromRawRows = async (ctx: AppContext, deviceId: string, width: number, since = START) => {
  const rows = await ctx.db.selectFrom('state_records').select(['time', 'rcp', 'rcpi02', 'hm_bp']).where('device_id', '=', deviceId).where('time', '>=', since).execute();
  const buckets = new Map<number, { rcp: number[]; rcpi02: number[]; sys: number[] }>();
  for (const row of rows) {
    const start = row.time - (row.time % width);
    const bucket = buckets.get(start) ?? { rcp: [], rcpi02: [], sys: [] };
    buckets.set(start, bucket);
    if (row.rcp !== null) bucket.rcp.push(row.rcp);
    if (row.rcpi02 !== null) bucket.rcpi02.push(row.rcpi02);
    if (row.hm_bp !== null) bucket.sys.push(Number(row.hm_bp.split('/')[0]));
  }
  const stats = (values: number[]) =>
    values.length === 0
      ? { min: null, max: null, sum: 0, n: 0 }
      : { min: Math.min(...values), max: Math.max(...values), sum: values.reduce((a, b) => a + b, 0), n: values.length };
  return [...buckets]
    .sort(([a], [b]) => a - b)
    .map(([start, bucket]) => ({ start, rcp: stats(bucket.rcp), rcpi02: stats(bucket.rcpi02), sys: stats(bucket.sys) }));
};

const rollups = async (ctx: AppContext, deviceId: string, width: number, since = START) =>
  (
    await ctx.db
      .selectFrom('reading_rollups')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('bucket_ms', '=', width)
      .where('start', '>=', since - (since % width))
      .orderBy('start')
      .execute()
  ).map((row) => ({
    start: row.start,
    rcp: { min: row.rcp_min, max: row.rcp_max, sum: row.rcp_sum, n: row.rcp_n },
    rcpi02: { min: row.rcpi02_min, max: row.rcpi02_max, sum: row.rcpi02_sum, n: row.rcpi02_n },
    sys: { min: row.hm_bp_sys_min, max: row.hm_bp_sys_max, sum: row.hm_bp_sys_sum, n: row.hm_bp_sys_n },
  }));

/** Sums compared to 1e-9: the store and this test add the same values in different orders. */
const close = (rows: Awaited<ReturnType<typeof rollups>>) =>
  rows.map(({ start, ...readings }) => ({
    start,
    ...Object.fromEntries(Object.entries(readings).map(([name, { sum, ...rest }]) => [name, { ...rest, sum: Math.round(sum * 1e6) / 1e6 }])),
  }));

/** A seeded generator (mulberry32): the same "random" readings every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

type Rollup = Awaited<ReturnType<typeof rollups>>[number];

/** `pick` of two values where both are there, else the one that is. */
const either = (x: number | null, y: number | null, pick: (...values: number[]) => number) => (x === null ? y : y === null ? x : pick(x, y));

/** Per day from the hour rollups of `deviceId` (of the whole days from `since`'s): each reading's least min, greatest max, sums. */
const daysFromHours = async (ctx: AppContext, deviceId: string, since: number): Promise<Rollup[]> => {
  const days = new Map<number, Rollup>();
  for (const hour of await rollups(ctx, deviceId, HOUR_MS, since - (since % DAY))) {
    const start = hour.start - (hour.start % DAY);
    const day = days.get(start);
    if (day === undefined) {
      days.set(start, { ...hour, start });
      continue;
    }
    for (const name of ['rcp', 'rcpi02', 'sys'] as const) {
      const [a, b] = [day[name], hour[name]];
      day[name] = { min: either(a.min, b.min, Math.min), max: either(a.max, b.max, Math.max), sum: a.sum + b.sum, n: a.n + b.n };
    }
  }
  return [...days.values()].sort((a, b) => a.start - b.start);
};

/**
 * The minutes and hours of `deviceId` equal to its raw rows since `since`, and its days to the sums of
 * their hours (the fleet's own readings, before `since` in the same day, are rolled up only by some tests).
 */
const expectExact = async (ctx: AppContext, deviceId: string, since = START) => {
  for (const width of [MINUTE_MS, HOUR_MS]) {
    const raw = await fromRawRows(ctx, deviceId, width, since);
    expect(raw.length).toBeGreaterThan(0);
    expect(close(await rollups(ctx, deviceId, width, since))).toEqual(close(raw));
  }
  const days = await daysFromHours(ctx, deviceId, since);
  expect(days.length).toBeGreaterThan(0);
  expect(close(await rollups(ctx, deviceId, DAY, since))).toEqual(close(days));
};

describe.each(STORE_KINDS)('rollups (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;

  beforeEach(async () => {
    await store.wipe();
    ctx = store.context();
    await seedFleet(ctx);
  });

  it('keeps per-minute, per-hour and per-day min, max, sum and count of every numeric reading, equal to the raw rows', async () => {
    // 70 minutes and a half once a second, in batches that cut minutes in the middle.
    await writeReadings(ctx, 'OC-A1', everySecond(START, 4230), 170);
    const minutes = await rollups(ctx, 'OC-A1', MINUTE_MS);
    expect(minutes).toHaveLength(71);
    expect(close(minutes)).toEqual(close(await fromRawRows(ctx, 'OC-A1', MINUTE_MS)));
    expect(minutes[0]?.rcp).toMatchObject({ n: 60, min: 1, max: 1.36 });
    // Every seventh reading has no oxygen value: not counted.
    expect(minutes[0]?.rcpi02.n).toBe(60 - 9);
    const hours = await rollups(ctx, 'OC-A1', HOUR_MS);
    expect(hours.map((hour) => hour.rcp.n)).toEqual([3600, 630]);
    expect(close(hours)).toEqual(close(await fromRawRows(ctx, 'OC-A1', HOUR_MS)));
    // The fleet's own readings of that day were stored without a flusher: only this test's are in its day.
    const days = await rollups(ctx, 'OC-A1', DAY);
    expect(days.map((day) => day.rcp.n)).toEqual([4230]);
    expect(close(days)).toEqual(close(await fromRawRows(ctx, 'OC-A1', DAY)));
  });

  it('counts a redelivered reading once, whether it comes again in a later batch or twice in the same one', async () => {
    const first = everySecond(START, 90);
    await writeReadings(ctx, 'OC-A1', first);
    const before = await rollups(ctx, 'OC-A1', MINUTE_MS);
    // Redeliveries of 30 stored readings, a reading twice in the batch, and five new ones.
    const again = [...first.slice(30, 60), readingAt(START, 90), readingAt(START, 90), ...everySecond(START, 4, 91)];
    // Arriving newest first, the five new ones are also what the safety alarms evaluate, oldest first.
    const [result] = await writeReadings(ctx, 'OC-A1', again.toReversed());
    expect(result).toMatchObject({ stored: 5, duplicates: 31 });
    expect(result?.readings).toEqual(everySecond(START, 5, 90).map((reading) => ({ ...reading, Id: 'OC-A1' })));
    const after = await rollups(ctx, 'OC-A1', MINUTE_MS);
    expect(after[0]).toEqual(before[0]);
    expect(after[1]?.rcp.n).toBe((before[1]?.rcp.n ?? 0) + 5);
    expect(close(after)).toEqual(close(await fromRawRows(ctx, 'OC-A1', MINUTE_MS)));
    expect(close(await rollups(ctx, 'OC-A1', HOUR_MS))).toEqual(close(await fromRawRows(ctx, 'OC-A1', HOUR_MS)));
  });

  it('keeps each device its own rollups and writes none for readings of an unknown device', async () => {
    await writeReadings(ctx, 'OC-A1', everySecond(START, 60));
    await writeReadings(ctx, 'OC-B1', everySecond(START, 30));
    const [unknown] = await writeReadings(ctx, 'OC-NOPE', everySecond(START, 30));
    expect(unknown?.unknown.has('OC-NOPE')).toBe(true);
    expect((await rollups(ctx, 'OC-A1', MINUTE_MS)).map((row) => row.rcp.n)).toEqual([60]);
    expect((await rollups(ctx, 'OC-B1', MINUTE_MS)).map((row) => row.rcp.n)).toEqual([30]);
    expect(await rollups(ctx, 'OC-NOPE', MINUTE_MS)).toEqual([]);
  });

  it('equal the raw rows after a flush, whatever the order: random readings over three hours, late ones and redeliveries, flushed at random', async () => {
    const random = seeded(kind === 'sqlite' ? 11 : 29);
    const flusher = createRollupFlusher(ctx.db, ctx.kind);
    const sent: Telemetry[] = [];
    for (let batch = 0; batch < 40; batch += 1) {
      const readings = Array.from({ length: 1 + Math.floor(random() * 120) }, () =>
        // One in five a redelivery of a reading sent before; the rest anywhere in three hours, so most are late.
        sent.length > 0 && random() < 0.2 ? (sent[Math.floor(random() * sent.length)] as Telemetry) : readingAt(START, Math.floor(random() * 3 * 3600)),
      );
      sent.push(...readings);
      await writeReadings(ctx, batch % 3 === 0 ? 'OC-B1' : 'OC-A1', readings, readings.length, flusher);
      if (random() < 0.3) await (random() < 0.5 ? flusher.flush() : flusher.flushSettled());
    }
    await flusher.flush();
    await expectExact(ctx, 'OC-A1');
    await expectExact(ctx, 'OC-B1');
  });

  it('lag the readings stored since the last flush, and count nothing twice when a bucket is flushed again', async () => {
    const flusher = createRollupFlusher(ctx.db, ctx.kind);
    await writeReadings(ctx, 'OC-A1', everySecond(START, 90), 500, flusher);
    await flusher.flush();
    await writeReadings(ctx, 'OC-A1', everySecond(START, 60, 90), 500, flusher);
    expect((await rollups(ctx, 'OC-A1', MINUTE_MS)).map((row) => row.rcp.n)).toEqual([60, 30]);
    await flusher.flush();
    await flusher.flush();
    await flusher.flush();
    expect((await rollups(ctx, 'OC-A1', MINUTE_MS)).map((row) => row.rcp.n)).toEqual([60, 60, 30]);
    await expectExact(ctx, 'OC-A1');
  });

  it('recompute an open minute once its device has readings in a later one, or after a quiet minute; the minute of a late reading at once', async () => {
    let clock = START;
    const flusher = createRollupFlusher(ctx.db, ctx.kind, { now: () => clock });
    const counts = async (deviceId: string) => (await rollups(ctx, deviceId, MINUTE_MS)).map((row) => row.rcp.n);
    await writeReadings(ctx, 'OC-A1', everySecond(START, 30), 500, flusher);
    await writeReadings(ctx, 'OC-B1', everySecond(START, 30), 500, flusher);
    await flusher.flushSettled();
    expect(await counts('OC-A1')).toEqual([]);
    // OC-A1 moves on to its next minute; OC-B1 goes quiet.
    await writeReadings(ctx, 'OC-A1', everySecond(START, 40, 30), 500, flusher);
    clock += 40_000;
    await flusher.flushSettled();
    expect(await counts('OC-A1')).toEqual([60]);
    expect(await counts('OC-B1')).toEqual([]);
    // A late reading of OC-A1's first minute.
    await writeReadings(ctx, 'OC-A1', [readingAt(START - MINUTE_MS, 59)], 500, flusher);
    await flusher.flushSettled();
    expect((await rollups(ctx, 'OC-A1', MINUTE_MS, START - MINUTE_MS)).map((row) => row.rcp.n)).toEqual([1, 60]);
    clock += MINUTE_MS;
    await flusher.flushSettled();
    expect(await counts('OC-A1')).toEqual([60, 10]);
    expect(await counts('OC-B1')).toEqual([30]);
    await expectExact(ctx, 'OC-A1', START - MINUTE_MS);
    await expectExact(ctx, 'OC-B1');
  });

  it('after a restart, are repaired for what the stopped process stored but never flushed, a backlog of old readings included', async () => {
    const stopped = createRollupFlusher(ctx.db, ctx.kind);
    await writeReadings(ctx, 'OC-A1', everySecond(START, 600), 100, stopped);
    await stopped.flush();
    // Stored, then the process stops before its next flush: its touches are lost with it.
    await writeReadings(ctx, 'OC-A1', everySecond(START, 300, 600), 100, stopped);
    // A chamber's backlog of two days ago, stored in the same last seconds: outside the last hour of readings.
    await writeReadings(ctx, 'OC-B1', everySecond(START - 2 * DAY, 150), 100, stopped);
    expect(await rollups(ctx, 'OC-A1', MINUTE_MS)).toHaveLength(10);
    expect(await rollups(ctx, 'OC-B1', MINUTE_MS, START - 2 * DAY)).toEqual([]);

    await createRollupFlusher(ctx.db, ctx.kind).repair();
    expect(await rollups(ctx, 'OC-A1', MINUTE_MS)).toHaveLength(15);
    await expectExact(ctx, 'OC-A1');
    await expectExact(ctx, 'OC-B1', START - 2 * DAY);
  });

  it('after a restart, are repaired across more minutes than one checking statement reads: several chambers, each with rolled-up, stale and missing minutes, one with a backlog far behind', async () => {
    // A reading every 20 s for 100 minutes: 400 candidate minutes over four chambers, more than one statement's 256.
    const everyTwentySeconds = (start: number, count: number, first = 0) => everySecond(start, count * 20, first * 20).filter((_, i) => i % 20 === 0);
    const stopped = createRollupFlusher(ctx.db, ctx.kind);
    for (const deviceId of ['OC-A1', 'OC-A2', 'OC-B1', 'OC-B2']) {
      await writeReadings(ctx, deviceId, everyTwentySeconds(START, 180), 100, stopped);
      await stopped.flush();
      // Then the process stops before its next flush.
      await writeReadings(ctx, deviceId, everyTwentySeconds(START, 120, 180), 100, stopped);
    }
    await writeReadings(ctx, 'OC-A1', everySecond(START - 2 * DAY, 150), 100, stopped);
    // A minute of OC-A2 wrongly rolled up, among its good ones.
    await ctx.db.updateTable('reading_rollups').set((eb) => ({ rcp_n: eb('rcp_n', '+', 1) })).where('device_id', '=', 'OC-A2').where('bucket_ms', '=', MINUTE_MS).where('start', '=', START + 10 * MINUTE_MS).execute();
    await createRollupFlusher(ctx.db, ctx.kind).repair();
    for (const deviceId of ['OC-A1', 'OC-A2', 'OC-B1', 'OC-B2']) {
      expect(await rollups(ctx, deviceId, MINUTE_MS)).toHaveLength(100);
      await expectExact(ctx, deviceId);
    }
    await expectExact(ctx, 'OC-A1', START - 2 * DAY);
  });

  it('after a clean close, are repaired without a write: the repair runs while another connection holds the write lock', async () => {
    const closing = createRollupFlusher(ctx.db, ctx.kind);
    // The fleet's own readings were stored without a flusher: rolled up by a first repair.
    await closing.repair();
    await writeReadings(ctx, 'OC-A1', everySecond(START, 900), 100, closing);
    await closing.close();
    const other = createDatabase(store.config());
    try {
      await other.db.transaction().execute(async (trx) => {
        if (kind === 'postgres') await sql`lock table state_records, reading_rollups in exclusive mode`.execute(trx);
        else await trx.updateTable('devices').set({ online: 0 }).where('id', '=', 'OC-A1').execute();
        await createRollupFlusher(ctx.db, ctx.kind).repair();
      });
    } finally {
      await other.db.destroy();
    }
    await expectExact(ctx, 'OC-A1');
  });

  it('after a stop between a flush\'s minutes and its hours or days, or with a minute lost, are repaired', async () => {
    const stopped = createRollupFlusher(ctx.db, ctx.kind);
    await writeReadings(ctx, 'OC-A1', everySecond(START + HOUR - 300_000, 600), 100, stopped);
    await stopped.flush();
    // The first hour as if its last minutes' recomputation had not reached it; the second hour gone; a minute gone.
    await ctx.db.updateTable('reading_rollups').set((eb) => ({ rcp_n: eb('rcp_n', '-', 60) })).where('device_id', '=', 'OC-A1').where('bucket_ms', '=', HOUR_MS).where('start', '=', START).execute();
    await ctx.db.deleteFrom('reading_rollups').where('device_id', '=', 'OC-A1').where('bucket_ms', '=', HOUR_MS).where('start', '=', START + HOUR).execute();
    await ctx.db.deleteFrom('reading_rollups').where('device_id', '=', 'OC-A1').where('bucket_ms', '=', MINUTE_MS).where('start', '=', START + HOUR + MINUTE_MS).execute();
    // ...and the day as if the flush had stopped before its days.
    await ctx.db.updateTable('reading_rollups').set((eb) => ({ rcp_n: eb('rcp_n', '-', 7) })).where('device_id', '=', 'OC-A1').where('bucket_ms', '=', DAY).execute();
    await createRollupFlusher(ctx.db, ctx.kind).repair();
    await expectExact(ctx, 'OC-A1', START + HOUR - 300_000);
    expect((await rollups(ctx, 'OC-A1', HOUR_MS, START)).map((row) => row.rcp.n)).toEqual([300, 300]);
  });

  it('of a store written without a flusher, rolled up all at once, equal the raw rows', async () => {
    const unflushed = createRollupFlusher(ctx.db, ctx.kind);
    await writeReadings(ctx, 'OC-A1', everySecond(START, 4000), 400, unflushed);
    await writeReadings(ctx, 'OC-B1', everySecond(START - DAY, 300), 100, unflushed);
    expect(await rollups(ctx, 'OC-A1', MINUTE_MS)).toEqual([]);
    await rollUpEverything(ctx.db, ctx.kind);
    await expectExact(ctx, 'OC-A1');
    await expectExact(ctx, 'OC-B1', START - DAY);
  });

  it('of a store from before day rollups, are summed into days from its hours by the migration that adds them', async () => {
    const flusher = createRollupFlusher(ctx.db, ctx.kind);
    await writeReadings(ctx, 'OC-A1', everySecond(START, 900), 300, flusher);
    await writeReadings(ctx, 'OC-B1', everySecond(START - 2 * DAY, 300), 300, flusher);
    await flusher.flush();
    expect((await rollups(ctx, 'OC-A1', DAY)).map((row) => row.rcp.n)).toEqual([900]);
    expect((await createMigrator(store.database).migrateTo('0029_rollups_statistics')).error).toBeUndefined();
    expect(await rollups(ctx, 'OC-A1', DAY)).toEqual([]);
    await migrateToLatest(store.database);
    expect((await rollups(ctx, 'OC-A1', DAY)).map((row) => row.rcp.n)).toEqual([900]);
    await expectExact(ctx, 'OC-A1');
    expect((await rollups(ctx, 'OC-B1', DAY, START - 2 * DAY)).map((row) => row.rcp.n)).toEqual([300]);
  });

  it('with two server instances storing readings of the same minutes and flushing them at once, equal the raw rows', async () => {
    // The other instance: its own connection (pool), batch writer and flusher.
    const other = createDatabase(store.config());
    try {
      const here = createRollupFlusher(ctx.db, ctx.kind);
      const there = createRollupFlusher(other.db, other.kind);
      const readings = everySecond(START, 240);
      for (let at = 0; at < readings.length; at += 40) {
        // Shared subscriptions split one device's messages: odd seconds here, even ones there.
        const part = readings.slice(at, at + 40);
        const writes = [
          () => writeReadings(ctx, 'OC-A1', part.filter((_, i) => i % 2 === 1), 20, here),
          () => writeReadings({ db: other.db, kind: other.kind }, 'OC-A1', part.filter((_, i) => i % 2 === 0), 20, there),
        ];
        // SQLite has one writer at a time, and both connections share this thread: there they write in turn.
        if (kind === 'sqlite') for (const write of writes) await write();
        else await Promise.all(writes.map((write) => write()));
        await Promise.all([here.flush(), there.flush()]);
      }
      await Promise.all([here.flush(), there.flush()]);
      await expectExact(ctx, 'OC-A1');
      expect((await rollups(ctx, 'OC-A1', MINUTE_MS)).map((row) => row.rcp.n)).toEqual([60, 60, 60, 60]);
    } finally {
      await other.db.destroy();
    }
  });
});
