import { z } from 'zod';
import { diastolicOf, systolicOf } from './bloodPressure';

/**
 * A chamber's readings over a range, as `GET /api/v1/devices/{Id}/history?from&to&points` answers them:
 * at most `points` buckets per reading, each with its min, mean and max, from raw rows for short ranges
 * and from the per-minute, per-hour or per-day rollups for long ones (`source` says which). The console
 * charts the mean as a line and min–max as a band; the CSV export of a range is made from the same answer.
 */

/** The numeric readings kept in history (blood pressure is charted as its systolic and diastolic parts). */
export const HISTORY_READINGS = ['RCP', 'SP', 'RRD', 'RCPi02', 'RGPi02', 'RCT', 'RCRH', 'RAP', 'HmHR', 'HmSP02', 'HmBPSys', 'HmBPDia'] as const;
export type HistoryReading = (typeof HISTORY_READINGS)[number];

/** How many buckets a reading gets when the request does not say. */
const HISTORY_DEFAULT_POINTS = 1000;
/** The most buckets one request may ask for. */
const HISTORY_MAX_POINTS = 5000;

export const historyQuerySchema = z
  .strictObject({
    /** Epoch milliseconds, inclusive. At least 1: an empty `from=` coerces to 0 and must be refused, not read as 1970. */
    from: z.coerce.number().int().min(1),
    /** Epoch milliseconds, exclusive. */
    to: z.coerce.number().int().positive(),
    points: z.coerce.number().int().min(1).max(HISTORY_MAX_POINTS).default(HISTORY_DEFAULT_POINTS),
  })
  // messageKey: the server's message for it, in the caller's language (server/http/messages.ts).
  .refine((query) => query.to > query.from, { path: ['to'], message: 'to must be after from', params: { messageKey: 'history.emptyRange' } });
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

/** One bucket: `t` its start (epoch ms), and the reading's min, mean and max over the readings in it. */
const bucketSchema = z.strictObject({
  t: z.number(),
  min: z.number(),
  mean: z.number(),
  max: z.number(),
  /** How many readings the bucket holds. */
  n: z.number().int().positive(),
});
export type HistoryBucket = z.infer<typeof bucketSchema>;

export const historyAnswerSchema = z.strictObject({
  Id: z.string(),
  from: z.number(),
  to: z.number(),
  /** The width of a bucket, ms (60,000 or a multiple of it when rollups answered). */
  bucketMs: z.number().int().positive(),
  source: z.enum(['raw', 'rollup']),
  /** Per reading, its buckets in time order; a bucket with no reading of it is left out. */
  series: z.partialRecord(z.enum(HISTORY_READINGS), z.array(bucketSchema)),
});
export type HistoryAnswer = z.infer<typeof historyAnswerSchema>;

/**
 * A reading's number in one state record or telemetry message (wire names): blood pressure's systolic or
 * diastolic part for HmBPSys and HmBPDia, undefined when the record lacks it.
 */
export const historyValueOf = (record: Readonly<Record<string, unknown>>, reading: HistoryReading): number | undefined => {
  if (reading === 'HmBPSys' || reading === 'HmBPDia') {
    const pressure = record.HmBP;
    if (typeof pressure !== 'string') return undefined;
    return reading === 'HmBPSys' ? systolicOf(pressure) : diastolicOf(pressure);
  }
  const value = record[reading];
  return typeof value === 'number' ? value : undefined;
};
