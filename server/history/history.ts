import { sql, type Kysely } from 'kysely';
import { HISTORY_READINGS, type HistoryAnswer, type HistoryBucket, type HistoryQuery, type HistoryReading } from '../../src/domain/history';
import type { AppContext } from '../context';
import { ROLLUP_COLUMNS, type DB } from '../db/schema';
import { notFound } from '../http/envelope';
import { deviceScope, type Viewer } from '../scope/service';
import { bloodPressureParts, ROLLUP_WIDTHS } from '../telemetry/rollups';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/domain/time';

/**
 * A chamber's history (docs/monitoring.md, "History"): at most `points` buckets per reading over
 * [from, to), each with min, mean, max and count, summed by the store, never row by row here.
 *   - raw rows when the range holds fewer than points / 2 minutes and lies within RAW_RETENTION_DAYS
 *     (buckets of ceil(span / points) ms from `from`);
 *   - else the per-day rollups when it holds at least points / 2 days, the per-hour ones when it holds at
 *     least points / 2 hours, else the per-minute ones (buckets a whole number of rollups wide, the range
 *     rounded out to whole rollups).
 * Rollups of a chamber's newest minutes are written only once those minutes settle (docs/ingest.md,
 * "Rollups"), so a range reaching into the last hour is answered in parts joined into the same buckets, as
 * real-time continuous aggregates do: the day rollups up to the day holding the device's newest minute
 * rollup, that day's hour rollups up to the hour holding it, that hour's minute rollups up to it, then raw
 * rows for what follows it (at most an hour of them). A range ending over an hour ago is answered from
 * the rollups alone.
 * A device out of the viewer's scope is not found, like one that does not exist.
 */

/** The rollups' widths, widest first. */
const WIDEST_FIRST = [...ROLLUP_WIDTHS].reverse();

/** How far back a range's end may lie for its newest minutes to be read from raw rows if not rolled up yet. */
const FRESH_TAIL_MS = HOUR_MS;

/** One group's row: its slot (bucket index from the range's start), then per reading min, max, sum, n. */
type SlotRow = Record<string, number | string | null>;

interface Plan {
  source: HistoryAnswer['source'];
  /** 0 for raw rows, else the rollups' width. */
  width: number;
  /** The first bucket's start. */
  base: number;
  end: number;
  bucketMs: number;
}

/**
 * Which rows answer, and the buckets' width: the widest source that still gives at least half the points
 * asked for (so a range reads at most about 2 × `points` × 60 rows of a finer source), raw rows only
 * within the raw retention.
 */
const planFor = ({ from, to, points }: HistoryQuery, rawSince: number): Plan => {
  const span = to - from;
  if (span / MINUTE_MS < points / 2 && from >= rawSince) return { source: 'raw', width: 0, base: from, end: to, bucketMs: Math.max(1, Math.ceil(span / points)) };
  const width = WIDEST_FIRST.find((candidate) => span / candidate >= points / 2) ?? MINUTE_MS;
  const base = Math.floor(from / width) * width;
  const end = Math.ceil(to / width) * width;
  return { source: 'rollup', width, base, end, bucketMs: Math.ceil((end - base) / points / width) * width };
};

/** Per reading: its min, max, sum and count over a group, as `<column>_min`, … */
const aggregates = (source: Part['source'], kind: AppContext['kind']) =>
  HISTORY_READINGS.map((name) => {
    const column = ROLLUP_COLUMNS[name];
    if (source === 'rollup') {
      return sql`min(${sql.ref(`${column}_min`)}) as ${sql.ref(`${column}_min`)}, max(${sql.ref(`${column}_max`)}) as ${sql.ref(`${column}_max`)},
        sum(${sql.ref(`${column}_sum`)}) as ${sql.ref(`${column}_sum`)}, sum(${sql.ref(`${column}_n`)}) as ${sql.ref(`${column}_n`)}`;
    }
    const value = name === 'HmBPSys' || name === 'HmBPDia' ? bloodPressureParts(kind)[name] : sql.ref(column);
    return sql`min(${value}) as ${sql.ref(`${column}_min`)}, max(${value}) as ${sql.ref(`${column}_max`)},
      sum(${value}) as ${sql.ref(`${column}_sum`)}, count(${value}) as ${sql.ref(`${column}_n`)}`;
  });

/** One part of a range: rows of `source` (raw, or rollups `width` wide) whose time lies in [from, to). */
interface Part {
  source: 'raw' | 'rollup';
  width: number;
  from: number;
  to: number;
}

const partRows = async (db: Kysely<DB>, kind: AppContext['kind'], deviceId: string, plan: Plan, part: Part): Promise<SlotRow[]> => {
  const columns = sql.join(aggregates(part.source, kind));
  const query =
    part.source === 'raw'
      ? sql<SlotRow>`select cast((time - ${plan.base}) / ${plan.bucketMs} as integer) as slot, ${columns} from state_records
          where device_id = ${deviceId} and time >= ${part.from} and time < ${part.to} group by slot order by slot`
      : sql<SlotRow>`select cast((start - ${plan.base}) / ${plan.bucketMs} as integer) as slot, ${columns} from reading_rollups
          where device_id = ${deviceId} and bucket_ms = ${part.width} and start >= ${part.from} and start < ${part.to} group by slot order by slot`;
  return (await query.execute(db)).rows;
};

/** The end of the device's newest minute rollup before `end`, looking back at most `FRESH_TAIL_MS`; `since` if none. */
const rolledUpUntil = async (db: Kysely<DB>, deviceId: string, since: number, end: number): Promise<number> => {
  const row = await db
    .selectFrom('reading_rollups')
    .select((eb) => eb.fn.max('start').as('newest'))
    .where('device_id', '=', deviceId)
    .where('bucket_ms', '=', MINUTE_MS)
    .where('start', '>=', since)
    .where('start', '<', end)
    .executeTakeFirst();
  const newest = row?.newest;
  return newest === null || newest === undefined ? since : Number(newest) + MINUTE_MS;
};

/**
 * The parts a plan reads: one, or for a rollup range reaching into the last hour, each width from the
 * plan's down to the minute up to where the next narrower one takes over (the start of its bucket holding
 * the newest minute rolled up), then the unsettled tail from raw rows.
 */
const partsOf = async (db: Kysely<DB>, deviceId: string, plan: Plan, now: number): Promise<Part[]> => {
  if (plan.source === 'raw' || plan.end <= now - FRESH_TAIL_MS) return [{ source: plan.source, width: plan.width, from: plan.base, to: plan.end }];
  const since = Math.max(plan.base, Math.floor((Math.min(plan.end, now) - FRESH_TAIL_MS) / MINUTE_MS) * MINUTE_MS);
  const tail = await rolledUpUntil(db, deviceId, since, plan.end);
  const parts: Part[] = [];
  let from = plan.base;
  for (const width of WIDEST_FIRST.filter((candidate) => candidate <= plan.width)) {
    const to = Math.max(from, Math.floor(tail / width) * width);
    parts.push({ source: 'rollup', width, from, to });
    from = to;
  }
  parts.push({ source: 'raw', width: 0, from, to: plan.end });
  return parts.filter((part) => part.from < part.to);
};

/** Each slot's aggregates over every part: the least min, the greatest max, the sums and counts added. */
const slotRows = async (db: Kysely<DB>, kind: AppContext['kind'], deviceId: string, plan: Plan, now: number): Promise<SlotRow[]> => {
  const parts = await partsOf(db, deviceId, plan, now);
  const answers = await Promise.all(parts.map((part) => partRows(db, kind, deviceId, plan, part)));
  if (answers.length === 1) return answers[0] ?? [];
  const bySlot = new Map<number, SlotRow>();
  for (const row of answers.flat()) {
    const slot = Number(row.slot);
    const into = bySlot.get(slot);
    if (into === undefined) {
      bySlot.set(slot, { ...row });
      continue;
    }
    for (const name of HISTORY_READINGS) {
      const column = ROLLUP_COLUMNS[name];
      const combine = (suffix: string, pick: (a: number, b: number) => number) => {
        const a = into[`${column}${suffix}`];
        const b = row[`${column}${suffix}`];
        into[`${column}${suffix}`] = b === null || b === undefined ? (a ?? null) : a === null || a === undefined ? b : pick(Number(a), Number(b));
      };
      combine('_min', Math.min);
      combine('_max', Math.max);
      combine('_sum', (a, b) => a + b);
      combine('_n', (a, b) => a + b);
    }
  }
  return [...bySlot.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
};

/** The device if the viewer sees it, else not found. */
const visibleDevice = async (db: Kysely<DB>, viewer: Viewer, deviceId: string): Promise<void> => {
  const scope = deviceScope(db, viewer);
  const query = db.selectFrom('devices').select('devices.id').where('devices.id', '=', deviceId);
  const found = await (scope === undefined ? query : query.where('devices.id', 'in', scope)).executeTakeFirst();
  if (found === undefined) throw notFound();
};

export const readHistory = async (ctx: Pick<AppContext, 'db' | 'kind' | 'config' | 'now'>, viewer: Viewer, deviceId: string, query: HistoryQuery): Promise<HistoryAnswer> => {
  await visibleDevice(ctx.db, viewer, deviceId);
  const plan = planFor(query, ctx.now() - ctx.config.rawRetentionDays * DAY_MS);
  const rows = await slotRows(ctx.db, ctx.kind, deviceId, plan, ctx.now());
  const series: Partial<Record<HistoryReading, HistoryBucket[]>> = {};
  for (const name of HISTORY_READINGS) {
    const column = ROLLUP_COLUMNS[name];
    const buckets: HistoryBucket[] = [];
    for (const row of rows) {
      const n = Number(row[`${column}_n`] ?? 0);
      if (n === 0) continue;
      buckets.push({
        t: plan.base + Number(row.slot) * plan.bucketMs,
        min: Number(row[`${column}_min`]),
        mean: Number(row[`${column}_sum`]) / n,
        max: Number(row[`${column}_max`]),
        n,
      });
    }
    series[name] = buckets;
  }
  return { Id: deviceId, from: query.from, to: query.to, bucketMs: plan.bucketMs, source: plan.source, series };
};
