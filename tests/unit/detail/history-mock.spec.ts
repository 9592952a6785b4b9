import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import { createMockServer } from '../../../mocks/node';
import { MOCK_EPOCH, seedTables } from '../../../mocks/seed';
import { historyAnswerSchema } from '../../../src/domain/history';
import { RESOURCE_CONFIGS } from '../../../src/resources/configs';
import { createDataProvider } from '../../../src/providers/dataProvider';
import { mockSession, REST, UPSTREAM } from '../resources/fixtures';

/**
 * The msw mock of `GET /api/v1/devices/{Id}/history` through the console's data provider: the answer keeps
 * the shared contract, buckets the seeded readings faithfully, and refuses bad input naming the field.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const provider = async (account = 'admin', locale = 'zh-CN') => {
  const { http, tokens } = await mockSession(account, locale);
  return createDataProvider({ http, tokens, restBase: REST, resources: RESOURCE_CONFIGS });
};

const records = seedTables(RESOURCE_CONFIGS).get('state-records') ?? [];
/** The seeded device with the most state records, and its readings. */
const readingsOf = (Id: unknown) => records.filter((record) => record.Id === Id);
const DEVICE = String([...new Set(records.map((record) => record.Id))].sort((a, b) => readingsOf(b).length - readingsOf(a).length)[0]);
const rows = readingsOf(DEVICE);

describe('the history mock', () => {
  it('answers every reading of the range in buckets of min, mean and max, in the shared contract', async () => {
    const dataProvider = await provider();
    const from = MOCK_EPOCH - 60 * 3_600_000;
    const to = MOCK_EPOCH + 1;
    const answer = await dataProvider.deviceHistory(DEVICE, { from, to, points: 1 });
    expect(historyAnswerSchema.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({ Id: DEVICE, from, to, source: 'rollup' });
    expect(answer.bucketMs % 60_000).toBe(0);
    const pressures = rows.flatMap((row) => (Number(row.Time) >= from && typeof row.RCP === 'number' ? [row.RCP] : []));
    expect(pressures.length).toBeGreaterThan(1);
    const [bucket] = answer.series.RCP ?? [];
    expect(bucket).toEqual({
      t: from,
      min: Math.min(...pressures),
      mean: pressures.reduce((sum, value) => sum + value, 0) / pressures.length,
      max: Math.max(...pressures),
      n: pressures.length,
    });
    expect(answer.series.HmBPSys?.[0]?.n).toBeGreaterThan(0);
  });

  it('answers a short range from the raw readings while they are kept, and from minute rollups once they are not', async () => {
    const dataProvider = await provider();
    const newest = Math.max(...rows.map((row) => Number(row.Time)));
    const range = { from: newest - 1000, to: newest + 1000, points: 1000 };
    const temperature = rows.find((row) => row.Time === newest)?.RCT;
    // Seeded readings are of January 2026: older than the raw retention (30 days) today.
    const old = await dataProvider.deviceHistory(DEVICE, range);
    expect(old).toMatchObject({ source: 'rollup', bucketMs: 60_000 });
    expect(old.series.RCT).toEqual([expect.objectContaining({ t: Math.floor(range.from / 60_000) * 60_000, min: temperature })]);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(MOCK_EPOCH + 24 * 3_600_000);
      const fresh = await dataProvider.deviceHistory(DEVICE, range);
      expect(fresh).toMatchObject({ source: 'raw', bucketMs: 2 });
      expect(fresh.series.RCT).toEqual([{ t: newest, min: temperature, mean: temperature, max: temperature, n: 1 }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a range that ends before it starts, naming the field, and an unknown device', async () => {
    const dataProvider = await provider();
    const refusal = dataProvider.deviceHistory(DEVICE, { from: 2000, to: 1000, points: 10 });
    await expect(refusal).rejects.toBeInstanceOf(HttpError);
    await expect(refusal).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^to:/) });
    await expect(dataProvider.deviceHistory('NO-SUCH-DEVICE', { from: 1, to: 1000, points: 10 })).rejects.toMatchObject({ status: 404 });
  });
});
