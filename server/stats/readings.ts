import { sql } from 'kysely';
import { DISTRIBUTION_NAMES, DISTRIBUTIONS, emptyBins, type DistributionName, type StatsReadings, type StatsRange } from '../../src/domain/stats';
import type { AppContext } from '../context';
import { ROLLUP_COLUMNS } from '../db/schema';
import type { Viewer } from '../scope/service';
import { addTo, type Piece } from './ranges';
import { DAY_MS, HOUR_MS } from '../../src/domain/time';
import { scopedRollups } from './scope';
import { fleetDayTotals, readSplit } from './summaries';

/**
 * `GET /api/v1/stats/readings`: per reading, the chamber-hours of the range whose hourly mean falls in each
 * bin (src/domain/stats.ts DISTRIBUTIONS). From the per-hour rollups in one pass: each bin is a count over
 * the rows, compared as sum >= edge × n so that no division (nor a store's floor) is needed; for the whole
 * fleet the range's whole UTC days come from the summary the rollups' trigger keeps with the same comparison
 * (`bins.<name>.<bin>`, server/db/statsSummaries.ts).
 */

const binCounts = (name: DistributionName) => {
  const column = ROLLUP_COLUMNS[DISTRIBUTIONS[name].reading];
  const [sum, n] = [sql.ref(`r.${column}_sum`), sql.ref(`r.${column}_n`)];
  return emptyBins(name).map(({ from, to }, i) => {
    const above = from === null ? sql`1 = 1` : sql`${sum} >= ${sql.lit(from)} * ${n}`;
    const below = to === null ? sql`1 = 1` : sql`${sum} < ${sql.lit(to)} * ${n}`;
    return sql<number>`count(case when ${n} > 0 and ${above} and ${below} then 1 end)`.as(`${name}.${i}`);
  });
};

export const statsReadings = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, range: StatsRange): Promise<StatsReadings> => {
  const hours = new Map<string, number>();
  const fromRows = async ([from, to]: Piece) => {
    // The bucket width as a literal: the partial index reading_rollups_hour_start is chosen by it.
    const row: Record<string, unknown> = await scopedRollups(ctx.db, viewer)
      .where('r.bucket_ms', '=', sql.lit(HOUR_MS))
      .where('r.start', '>=', from)
      .where('r.start', '<', to)
      .select(DISTRIBUTION_NAMES.flatMap(binCounts))
      .executeTakeFirstOrThrow();
    for (const [bin, n] of Object.entries(row)) addTo(hours, bin, Number(n ?? 0));
  };
  const fromSummary = async (first: number, last: number) => {
    for (const { measure, n } of await fleetDayTotals(ctx.db, 'bins.', first, last)) addTo(hours, measure.slice('bins.'.length), n);
  };
  await readSplit(ctx.db, viewer, [range.from, range.to], DAY_MS, fromRows, fromSummary);
  const distribution = (name: DistributionName) => emptyBins(name).map((bin, i) => ({ ...bin, hours: hours.get(`${name}.${i}`) ?? 0 }));
  return {
    from: range.from,
    to: range.to,
    distributions: { pressure: distribution('pressure'), oxygen: distribution('oxygen'), temperature: distribution('temperature') },
  };
};
