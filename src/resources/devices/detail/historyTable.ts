import { csvTable } from '../../../domain/csv';
import { HISTORY_READINGS, type HistoryAnswer, type HistoryReading } from '../../../domain/history';

type Aligned = readonly (number | null)[];

/** A history answer on one time axis: every bucket start of any reading, and each reading's values there (null where it has no bucket). */
export interface HistoryTable {
  times: readonly number[];
  columns: Partial<Record<HistoryReading, { min: Aligned; mean: Aligned; max: Aligned }>>;
}

export const historyTable = (answer: HistoryAnswer): HistoryTable => {
  const times = [...new Set(Object.values(answer.series).flatMap((buckets) => buckets.map((bucket) => bucket.t)))].sort((a, b) => a - b);
  const columns: HistoryTable['columns'] = {};
  for (const reading of HISTORY_READINGS) {
    const buckets = answer.series[reading];
    if (!buckets?.length) continue;
    const at = new Map(buckets.map((bucket) => [bucket.t, bucket]));
    const pick = (part: 'min' | 'mean' | 'max') => times.map((time) => at.get(time)?.[part] ?? null);
    columns[reading] = { min: pick('min'), mean: pick('mean'), max: pick('max') };
  }
  return { times, columns };
};

const cell = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);

/**
 * The CSV of a range (docs/monitoring.md): one row per bucket, its start as ISO 8601 (UTC), then each
 * reading's min, mean and max in wire names (RCP_min, RCP_mean, RCP_max, …), empty where the bucket held none.
 */
export const historyCsv = (answer: HistoryAnswer): string => {
  const { times, columns } = historyTable(answer);
  const readings = HISTORY_READINGS.filter((reading) => columns[reading] !== undefined);
  const header = ['time', ...readings.flatMap((reading) => [`${reading}_min`, `${reading}_mean`, `${reading}_max`])];
  const rows = times.map((time, index) => [
    new Date(time).toISOString(),
    ...readings.flatMap((reading) => {
      const column = columns[reading];
      return column ? [cell(column.min[index] ?? null), cell(column.mean[index] ?? null), cell(column.max[index] ?? null)] : [];
    }),
  ]);
  return csvTable(header, rows);
};
