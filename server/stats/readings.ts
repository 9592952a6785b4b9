import { sql } from 'kysely';
import { DISTRIBUTION_NAMES, DISTRIBUTIONS, emptyBins, type DistributionName, type StatsReadings, type StatsRange } from '../../src/domain/stats';
import type { AppContext } from '../context';
import { ROLLUP_COLUMNS } from '../db/schema';
import type { Viewer } from '../scope/service';
import { scopedRollups } from './scope';

const HOUR_MS = 3_600_000;

/**
 * `GET /api/v1/stats/readings`: per reading, the chamber-hours of the range whose hourly mean falls in each
 * bin (src/domain/stats.ts DISTRIBUTIONS), from the per-hour rollups in one pass: each bin is a count over
 * the rows, compared as sum >= edge × n so that no division (nor a store's floor) is needed.
 */

const binCounts = (name: DistributionName) => {
  const column = ROLLUP_COLUMNS[DISTRIBUTIONS[name].reading];
  const [sum, n] = [sql.ref(`r.${column}_sum`), sql.ref(`r.${column}_n`)];
  return emptyBins(name).map(({ from, to }, i) => {
    const above = from === null ? sql`1 = 1` : sql`${sum} >= ${sql.lit(from)} * ${n}`;
    const below = to === null ? sql`1 = 1` : sql`${sum} < ${sql.lit(to)} * ${n}`;
    return sql<number>`count(case when ${n} > 0 and ${above} and ${below} then 1 end)`.as(`${name}_${i}`);
  });
};

export const statsReadings = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, range: StatsRange): Promise<StatsReadings> => {
  const row: Record<string, unknown> = await scopedRollups(ctx.db, viewer)
    .where('r.bucket_ms', '=', HOUR_MS)
    .where('r.start', '>=', range.from)
    .where('r.start', '<', range.to)
    .select(DISTRIBUTION_NAMES.flatMap(binCounts))
    .executeTakeFirstOrThrow();
  const distribution = (name: DistributionName) => emptyBins(name).map((bin, i) => ({ ...bin, hours: Number(row[`${name}_${i}`] ?? 0) }));
  return {
    from: range.from,
    to: range.to,
    distributions: { pressure: distribution('pressure'), oxygen: distribution('oxygen'), temperature: distribution('temperature') },
  };
};
