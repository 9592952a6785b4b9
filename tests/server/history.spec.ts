import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { historyAnswerSchema, type HistoryAnswer, type HistoryBucket } from '../../src/domain/history';
import type { Telemetry } from '../../src/domain/mqtt/payloads';
import { demoTokens, seedFleet, T0, type DemoName } from './fleet';
import { everySecond, writeReadings } from './readings';
import { fakeClock, HOUR, MINUTE, STORE_KINDS, useStore } from './stores';

/**
 * `GET /api/v1/devices/:Id/history` (docs/monitoring.md, "History") on both stores: buckets from raw rows
 * or rollups as the range needs, equal to what the readings make, scoped, and bad input named.
 */

const START = T0 + 2 * HOUR;
/** Two hours once a second. */
const READINGS = everySecond(START, 7200);
const DAY = 24 * HOUR;

/** The bucket the readings of [from, from + width) make of RCP, as the answer must give it. */
const expected = (from: number, width: number, readings: readonly Telemetry[] = READINGS): HistoryBucket => {
  const values = readings.filter((reading) => reading.Time >= from && reading.Time < from + width).flatMap((reading: Telemetry) => reading.RCP ?? []);
  return { t: from, min: Math.min(...values), mean: values.reduce((a, b) => a + b, 0) / values.length, max: Math.max(...values), n: values.length };
};

const rounded = (buckets: readonly HistoryBucket[] | undefined) => buckets?.map((bucket) => ({ ...bucket, mean: Math.round(bucket.mean * 1e9) / 1e9 }));

describe.each(STORE_KINDS)('device history (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(START + 3 * HOUR);
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;

  const history = (id: string, query: string, as: DemoName | 'nobody' = 'admin', language = 'en-US') =>
    app.inject({
      method: 'GET',
      url: `/api/v1/devices/${id}/history?${query}`,
      headers: { 'accept-language': language, ...(as === 'nobody' ? {} : { authorization: `Bearer ${tokens[as]}` }) },
    });
  const answer = async (id: string, query: string, as: DemoName = 'admin'): Promise<HistoryAnswer> => {
    const response = await history(id, query, as);
    expect(response.statusCode, response.body).toBe(200);
    return historyAnswerSchema.parse(response.json());
  };

  const startApp = async (env: Record<string, string> = {}) => {
    app = await store.app({ now: clock.now, env });
    tokens = await demoTokens(app);
  };

  beforeEach(async () => {
    clock.set(START + 3 * HOUR);
    await store.wipe();
    const ctx = store.context();
    await seedFleet(ctx);
    await writeReadings(ctx, 'OC-A1', READINGS);
    await startApp();
  });

  it('answers a short range from raw rows: at most `points` buckets, each min, mean, max and count of the readings in it', async () => {
    const body = await answer('OC-A1', `from=${START + 5000}&to=${START + 5000 + 10 * MINUTE}&points=60`);
    expect(body).toMatchObject({ Id: 'OC-A1', source: 'raw', bucketMs: 10_000, from: START + 5000, to: START + 5000 + 10 * MINUTE });
    expect(body.series.RCP).toHaveLength(60);
    expect(rounded(body.series.RCP)).toEqual(rounded(Array.from({ length: 60 }, (_, i) => expected(START + 5000 + i * 10_000, 10_000))));
    // Blood pressure is charted as its two parts; a reading with none is not counted.
    expect(body.series.HmBPSys?.[0]).toMatchObject({ t: START + 5000, n: 8 });
    expect(body.series.HmBPDia?.[0]?.min).toBeGreaterThanOrEqual(70);
    expect(body.series.RRD).toEqual([]);
  });

  it('answers a longer range from the per-minute rollups, a very long one from the per-hour rollups, and years from the per-day ones, with the same values', async () => {
    const minutes = await answer('OC-A1', `from=${START}&to=${START + 2 * HOUR}&points=60`);
    expect(minutes).toMatchObject({ source: 'rollup', bucketMs: 2 * MINUTE });
    expect(rounded(minutes.series.RCP)).toEqual(rounded(Array.from({ length: 60 }, (_, i) => expected(START + i * 2 * MINUTE, 2 * MINUTE))));

    const hours = await answer('OC-A1', `from=${START - 48 * HOUR}&to=${START + 52 * HOUR}&points=50`);
    expect(hours).toMatchObject({ source: 'rollup', bucketMs: 2 * HOUR });
    expect(rounded(hours.series.RCP)).toEqual(rounded([expected(START, 2 * HOUR)]));
    expect(hours.series.RCP?.[0]?.n).toBe(7200);

    // Once the range ended over an hour ago, its days alone: the readings' day in one 8-day bucket.
    clock.set(START + 3 * DAY);
    await startApp();
    const years = await answer('OC-A1', `from=${START - 730 * DAY}&to=${START + DAY}&points=100`);
    expect(years).toMatchObject({ source: 'rollup', bucketMs: 8 * DAY });
    const bucket = years.series.RCP?.[0]?.t ?? 0;
    expect(START - bucket).toBeGreaterThanOrEqual(0);
    expect(START - bucket).toBeLessThan(8 * DAY);
    expect(rounded(years.series.RCP)).toEqual(rounded([expected(bucket, 8 * DAY)]));
  });

  it('answers the newest minutes, not rolled up yet, from raw rows joined into the same buckets, over a day and over months', async () => {
    // Ten more minutes rolled up, then 87 s that ingestion has noted but not flushed: the newest 4 s old.
    const now = START + 3 * HOUR;
    const settled = everySecond(now - 15 * MINUTE, 600);
    const fresh = everySecond(now - 90_000, 87);
    const ctx = store.context();
    await writeReadings(ctx, 'OC-A1', settled);
    await writeReadings(ctx, 'OC-A1', fresh, 500, { touch: () => undefined });
    const all = [...READINGS, ...settled, ...fresh];

    const day = await answer('OC-A1', `from=${now - DAY}&to=${now}&points=100`);
    expect(day).toMatchObject({ source: 'rollup', bucketMs: 15 * MINUTE });
    const newest = day.series.RCP?.at(-1);
    expect(newest?.t).toBe(now - 15 * MINUTE);
    expect(rounded(day.series.RCP?.slice(-1))).toEqual(rounded([expected(now - 15 * MINUTE, 15 * MINUTE, all)]));
    expect(day.series.RCP?.reduce((n, bucket) => n + bucket.n, 0)).toBe(all.length);

    // Days, then the newest day's hours, its newest hour's minutes, and the raw rows after them.
    const months = await answer('OC-A1', `from=${now - 100 * DAY}&to=${now}&points=100`);
    expect(months).toMatchObject({ source: 'rollup', bucketMs: 2 * DAY });
    expect(months.series.RCP?.reduce((n, bucket) => n + bucket.n, 0)).toBe(all.length);
    const last = months.series.RCP?.at(-1);
    expect(last?.max).toBe(Math.max(...all.filter((reading) => reading.Time >= (last?.t ?? 0)).flatMap((reading) => reading.RCP ?? [])));
  });

  it('draws a range older than RAW_RETENTION_DAYS from the rollups, however short', async () => {
    clock.set(START + 2 * DAY);
    await startApp({ RAW_RETENTION_DAYS: '1' });
    const body = await answer('OC-A1', `from=${START}&to=${START + 10 * MINUTE}`);
    expect(body).toMatchObject({ source: 'rollup', bucketMs: MINUTE });
    expect(rounded(body.series.RCP)).toEqual(rounded(Array.from({ length: 10 }, (_, i) => expected(START + i * MINUTE, MINUTE))));
  });

  it('is read by whoever sees the device; a device out of scope is not found, like one that does not exist', async () => {
    const range = `from=${START}&to=${START + HOUR}`;
    expect((await answer('OC-A1', range, 'client')).series.RCP?.length).toBeGreaterThan(0);
    for (const [id, as] of [['OC-B1', 'client'], ['OC-C1', 'first'], ['OC-NOPE', 'admin']] as const) {
      const response = await history(id, range, as);
      expect(response.statusCode, `${id} as ${as}`).toBe(404);
    }
    expect((await history('OC-A1', range, 'nobody')).statusCode).toBe(401);
  });

  it('refuses bad ranges and point counts with a message naming the field, in the caller language', async () => {
    const cases = [
      [`from=${START}&to=${START}`, 'to'],
      [`from=${START}&to=${START + HOUR}&points=0`, 'points'],
      [`from=${START}&to=${START + HOUR}&points=5001`, 'points'],
      [`from=yesterday&to=${START}`, 'from'],
      [`to=${START}`, 'from'],
      [`from=&to=${START}`, 'from'],
      [`from=${START}&to=${START + HOUR}&step=5`, 'step'],
    ] as const;
    for (const [query, field] of cases) {
      for (const language of ['en-US', 'zh-CN']) {
        const response = await history('OC-A1', query, 'admin', language);
        expect(response.statusCode, query).toBe(400);
        expect(response.json<{ message: string }>().message, `${query} ${language}`).toContain(field);
      }
    }
    expect((await history('OC-A1', `from=${START}&to=${START}`, 'admin', 'en-US')).json()).toMatchObject({ message: 'to must be after from' });
    expect((await history('OC-A1', `from=${START}&to=${START}`, 'admin', 'zh-CN')).json()).toMatchObject({ message: 'to 必须晚于 from' });
  });
});
