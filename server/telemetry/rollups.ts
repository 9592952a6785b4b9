import { sql, type Kysely } from 'kysely';
import { diastolicOf, systolicOf } from '../../src/domain/bloodPressure';
import { HISTORY_READINGS, type HistoryReading } from '../../src/domain/history';
import type { Telemetry } from '../../src/domain/mqtt/payloads';
import { parameter, reusable, runReusable, type ReusableQuery } from '../db/database';
import { ROLLUP_COLUMNS, type DB } from '../db/schema';

/**
 * The rollups of the readings a batch stored (docs/ingest.md, "Rollups"): per device, the minute and the
 * hour each new reading falls in get its values added (min, max, sum, count), in the batch's transaction,
 * by one upsert per chunk of buckets. Only readings the insert reported as new are added, so a
 * redelivered reading (already stored) is never counted twice, and the rollups always sum the raw rows.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** The widths of the buckets kept, narrowest first. */
export const ROLLUP_WIDTHS = [MINUTE_MS, HOUR_MS] as const;

/** A reading's value in history, blood pressure split into its two parts. */
const historyValue = (reading: Telemetry, name: HistoryReading): number | undefined => {
  if (name === 'HmBPSys') return reading.HmBP === undefined ? undefined : systolicOf(reading.HmBP);
  if (name === 'HmBPDia') return reading.HmBP === undefined ? undefined : diastolicOf(reading.HmBP);
  return reading[name];
};

/** One bucket being summed: per reading (HISTORY_READINGS order) min, max, sum and count. */
interface Bucket {
  deviceId: string;
  width: number;
  start: number;
  stats: number[];
}

/** Columns of a rollup row: device, width, start, then per reading min, max, sum, n. */
const COLUMNS = 3 + HISTORY_READINGS.length * 4;
/** Buckets per upsert statement, largest first (a few statement shapes, as for the readings' insert). */
const UPSERT_CHUNK_ROWS = [64, 8, 1] as const;

/** Sums new readings into their buckets. */
export const createRollupSums = () => {
  const buckets = new Map<string, Bucket>();
  return {
    add(deviceId: string, reading: Telemetry): void {
      for (const width of ROLLUP_WIDTHS) {
        const start = reading.Time - (reading.Time % width);
        const key = `${deviceId}\n${width}\n${start}`;
        let bucket = buckets.get(key);
        if (bucket === undefined) {
          bucket = { deviceId, width, start, stats: HISTORY_READINGS.flatMap(() => [Infinity, -Infinity, 0, 0]) };
          buckets.set(key, bucket);
        }
        HISTORY_READINGS.forEach((name, index) => {
          const value = historyValue(reading, name);
          if (value === undefined || bucket === undefined) return;
          const at = index * 4;
          const stats = bucket.stats;
          stats[at] = Math.min(stats[at] ?? Infinity, value);
          stats[at + 1] = Math.max(stats[at + 1] ?? -Infinity, value);
          stats[at + 2] = (stats[at + 2] ?? 0) + value;
          stats[at + 3] = (stats[at + 3] ?? 0) + 1;
        });
      }
    },
    /** The buckets' values in column order (min and max null for a reading the bucket has none of). */
    rows(): { values: unknown[]; count: number } {
      const values: unknown[] = [];
      for (const { deviceId, width, start, stats } of buckets.values()) {
        values.push(deviceId, width, start);
        for (let at = 0; at < stats.length; at += 4) {
          const none = stats[at + 3] === 0;
          values.push(none ? null : stats[at], none ? null : stats[at + 1], stats[at + 2], stats[at + 3]);
        }
      }
      return { values, count: buckets.size };
    },
  };
};

/** `ours` and `theirs` combined: the existing row's and the excluded (new) row's value of `column`. */
const ours = (column: string) => sql.ref(`reading_rollups.${column}`);
const theirs = (column: string) => sql.ref(`excluded.${column}`);

/** Writes summed buckets: a new bucket is inserted, an existing one has the new values added. */
export const createRollupWriter = (db: Kysely<DB>) => {
  const statements = new Map<number, ReusableQuery<unknown>>();
  const upsertStatement = (rows: number): ReusableQuery<unknown> => {
    let statement = statements.get(rows);
    if (statement === undefined) {
      const values = Array.from({ length: rows }, (_, row) => {
        const base = row * COLUMNS;
        const record: Record<string, unknown> = { device_id: parameter(base), bucket_ms: parameter(base + 1), start: parameter(base + 2) };
        HISTORY_READINGS.forEach((name, index) => {
          const column = ROLLUP_COLUMNS[name];
          ['min', 'max', 'sum', 'n'].forEach((part, offset) => (record[`${column}_${part}`] = parameter(base + 3 + index * 4 + offset)));
        });
        return record;
      });
      const update: Record<string, unknown> = {};
      for (const name of HISTORY_READINGS) {
        const column = ROLLUP_COLUMNS[name];
        const [min, max, sum, n] = ['min', 'max', 'sum', 'n'].map((part) => `${column}_${part}`) as [string, string, string, string];
        // A null on either side (no value of that reading) leaves the other.
        update[min] = sql`case when ${ours(min)} is null or ${theirs(min)} < ${ours(min)} then ${theirs(min)} else ${ours(min)} end`;
        update[max] = sql`case when ${ours(max)} is null or ${theirs(max)} > ${ours(max)} then ${theirs(max)} else ${ours(max)} end`;
        update[sum] = sql`${ours(sum)} + ${theirs(sum)}`;
        update[n] = sql`${ours(n)} + ${theirs(n)}`;
      }
      statement = reusable(
        db
          .insertInto('reading_rollups')
          .values(values as never)
          .onConflict((conflict) => conflict.columns(['device_id', 'bucket_ms', 'start']).doUpdateSet(update as never))
          .compile(),
      );
      statements.set(rows, statement);
    }
    return statement;
  };

  /** Upserts `count` buckets of `values` (createRollupSums().rows()) on `trx`. */
  return async (trx: Kysely<DB>, { values, count }: { values: readonly unknown[]; count: number }): Promise<void> => {
    for (let offset = 0; offset < count; ) {
      const rows = UPSERT_CHUNK_ROWS.find((size) => size <= count - offset) ?? 1;
      await runReusable(trx, upsertStatement(rows), values.slice(offset * COLUMNS, (offset + rows) * COLUMNS));
      offset += rows;
    }
  };
};
