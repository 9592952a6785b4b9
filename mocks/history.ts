import { http, HttpResponse } from 'msw';
import { HISTORY_READINGS, historyQuerySchema, historyValueOf, type HistoryAnswer, type HistoryBucket, type HistoryQuery, type HistoryReading } from '../src/domain/history';
import type { WireRecord } from '../src/resources/model';
import { CODES } from '../src/domain/envelope';
import { restFail } from './envelope';
import { badInputMessage, refusalOf, type AccessCheck } from './access';
import type { MockScope } from './scope';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The server's default RAW_RETENTION_DAYS: older raw readings are gone, only rollups answer for them. */
const RAW_RETENTION_MS = 30 * 24 * HOUR;

interface Plan {
  source: HistoryAnswer['source'];
  base: number;
  end: number;
  bucketMs: number;
}

/**
 * The server's choice (server/history/history.ts): raw rows when a bucket would be narrower than a minute
 * and the range is within the raw retention; else rollups a minute (or an hour) wide, the range rounded
 * out to whole rollups and the buckets a whole number of them.
 */
const planFor = ({ from, to, points }: HistoryQuery, rawSince: number): Plan => {
  const rawBucket = Math.max(1, Math.ceil((to - from) / points));
  if (rawBucket < MINUTE && from >= rawSince) return { source: 'raw', base: from, end: to, bucketMs: rawBucket };
  const width = rawBucket < HOUR ? MINUTE : HOUR;
  const base = Math.floor(from / width) * width;
  const end = Math.ceil(to / width) * width;
  return { source: 'rollup', base, end, bucketMs: Math.ceil((end - base) / points / width) * width };
};


/** One reading's buckets: those holding at least one value, in time order. */
const bucketsOf = (rows: readonly WireRecord[], reading: HistoryReading, { base, bucketMs }: Plan): HistoryBucket[] => {
  const buckets = new Map<number, number[]>();
  for (const row of rows) {
    const value = historyValueOf(row, reading);
    if (value === undefined) continue;
    const t = base + Math.floor((Number(row.Time) - base) / bucketMs) * bucketMs;
    buckets.set(t, [...(buckets.get(t) ?? []), value]);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, values]) => ({ t, min: Math.min(...values), mean: values.reduce((sum, value) => sum + value, 0) / values.length, max: Math.max(...values), n: values.length }));
};

/**
 * `GET <restBase>/devices/:Id/history?from&to&points` (src/domain/history.ts) over the seeded state records,
 * as the server answers it: the query checked with the shared schema (400 naming the field), 404 for an
 * unknown device or one out of the caller's scope, then at most `points` buckets per reading (every reading listed, those without a
 * reading in the range with none), raw or from rollups as the server plans it.
 */
export const historyHandlers = (restBase: string, tables: Map<string, WireRecord[]>, check: AccessCheck, scope: MockScope) => [
  http.get(`${restBase}/devices/:Id/history`, ({ request, params }) => {
    const refusal = refusalOf(request, check, { resource: 'devices', action: 'show' });
    if (refusal) return refusal === 'notSignedIn' ? restFail(CODES.notSignedIn, 'not logged in') : restFail(CODES.forbidden, 'forbidden');
    const query = historyQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return restFail(CODES.badInput, badInputMessage(query.error));
    const Id = String(params.Id);
    if (!(tables.get('devices') ?? []).some((device) => device.Id === Id) || !scope.seesDevice(request, Id)) return restFail(CODES.notFound, 'not found');
    const plan = planFor(query.data, Date.now() - RAW_RETENTION_MS);
    // The mocks keep no rollups: a rollup bucket is made from the raw rows it covers, as the rollups were.
    const rows = (tables.get('state-records') ?? []).filter((row) => row.Id === Id && Number(row.Time) >= plan.base && Number(row.Time) < plan.end);
    const series = Object.fromEntries(HISTORY_READINGS.map((reading) => [reading, bucketsOf(rows, reading, plan)]));
    const { from, to } = query.data;
    return HttpResponse.json({ Id, from, to, bucketMs: plan.bucketMs, source: plan.source, series } satisfies HistoryAnswer);
  }),
];
