import { beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/context';
import { HOUR_MS, MINUTE_MS } from '../../server/telemetry/rollups';
import { seedFleet, T0 } from './fleet';
import { everySecond, readingAt, writeReadings } from './readings';
import { HOUR, STORE_KINDS, useStore } from './stores';

/**
 * Rollups (docs/ingest.md, "Rollups") on both stores: kept by the batch writer in the readings'
 * transaction, they always sum exactly the raw rows stored, redeliveries included.
 */

const START = T0 + 2 * HOUR;

/** Per bucket of `width` from the raw rows: RCP and RCPi02 min/max/sum/n, HmBP's parts' n. */
const fromRawRows = async (ctx: AppContext, deviceId: string, width: number) => {
  const rows = await ctx.db.selectFrom('state_records').select(['time', 'rcp', 'rcpi02', 'hm_bp']).where('device_id', '=', deviceId).where('time', '>=', START).execute();
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

const rollups = async (ctx: AppContext, deviceId: string, width: number) =>
  (
    await ctx.db
      .selectFrom('reading_rollups')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('bucket_ms', '=', width)
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

describe.each(STORE_KINDS)('rollups (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;

  beforeEach(async () => {
    await store.wipe();
    ctx = store.context();
    await seedFleet(ctx);
  });

  it('keeps per-minute and per-hour min, max, sum and count of every numeric reading, equal to the raw rows', async () => {
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
});
