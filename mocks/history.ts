import { http, HttpResponse } from 'msw';
import { HISTORY_READINGS, historyQuerySchema, historyValueOf, type HistoryAnswer, type HistoryBucket, type HistoryReading } from '../src/domain/history';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, refusalOf, type AccessCheck } from './access';

const MINUTE = 60_000;
/** Ranges longer than this are answered from per-minute rollups (buckets of whole minutes), shorter ones from the raw rows. */
const RAW_RANGE_MS = 6 * 60 * MINUTE;

const answer = (status: number, message: string) => HttpResponse.json({ message }, { status });

/** One reading's buckets: those holding at least one value, in time order. */
const bucketsOf = (rows: readonly WireRecord[], reading: HistoryReading, from: number, bucketMs: number): HistoryBucket[] => {
  const buckets = new Map<number, number[]>();
  for (const row of rows) {
    const value = historyValueOf(row, reading);
    if (value === undefined) continue;
    const t = from + Math.floor((Number(row.Time) - from) / bucketMs) * bucketMs;
    buckets.set(t, [...(buckets.get(t) ?? []), value]);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, values]) => ({ t, min: Math.min(...values), mean: values.reduce((sum, value) => sum + value, 0) / values.length, max: Math.max(...values), n: values.length }));
};

/**
 * `GET <restBase>/devices/:Id/history?from&to&points` (src/domain/history.ts) over the seeded state records,
 * as the server answers it: the query checked with the shared schema (400 naming the field), 404 for an
 * unknown device, then at most `points` buckets per reading. A long range is bucketed by whole minutes as
 * the server's rollups are; the mocks keep no rollups, so those buckets are made from the raw rows too.
 */
export const historyHandlers = (restBase: string, tables: Map<string, WireRecord[]>, check: AccessCheck) => [
  http.get(`${restBase}/devices/:Id/history`, ({ request, params }) => {
    const refusal = refusalOf(request, check, { resource: 'devices', action: 'show' });
    if (refusal) return refusal === 'notSignedIn' ? answer(401, 'not logged in') : answer(403, 'forbidden');
    const query = historyQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return answer(400, badInputMessage(query.error));
    const Id = String(params.Id);
    if (!(tables.get('devices') ?? []).some((device) => device.Id === Id)) return answer(404, 'not found');
    const { from, to, points } = query.data;
    const source = to - from > RAW_RANGE_MS ? 'rollup' : 'raw';
    const width = Math.ceil((to - from) / points);
    const bucketMs = source === 'rollup' ? Math.ceil(width / MINUTE) * MINUTE : Math.max(1, width);
    const rows = (tables.get('state-records') ?? []).filter((row) => row.Id === Id && Number(row.Time) >= from && Number(row.Time) < to);
    const series = Object.fromEntries(
      HISTORY_READINGS.map((reading) => [reading, bucketsOf(rows, reading, from, bucketMs)] as const).filter(([, buckets]) => buckets.length > 0),
    );
    return HttpResponse.json({ Id, from, to, bucketMs, source, series } satisfies HistoryAnswer);
  }),
];
