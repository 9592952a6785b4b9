import { sql, type Kysely, type RawBuilder } from 'kysely';
import { HISTORY_READINGS } from '../../src/domain/history';
import type { DatabaseKind } from '../db/database';
import { ROLLUP_COLUMNS, type DB } from '../db/schema';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/domain/time';

/**
 * The rollups of the stored readings (docs/ingest.md, "Rollups"). The batch writer only notes which
 * (device, minute) buckets its new readings fall in (`touch`, after its commit); a flush recomputes the
 * settled ones' ABSOLUTE min, max, sum and count from the raw rows, then their hours from the minute
 * rollups and their days from the hour rollups, and replaces the rows. A recomputed bucket is right
 * whoever else writes it: a crash, a redelivery or two server instances flushing the same bucket cannot
 * count a reading twice. On PostgreSQL, which several instances may share, each bucket is recomputed
 * again at the flush after, so one whose flush raced another instance's commit is right after the next.
 */

/** The widths of the buckets kept, narrowest first. */
export const ROLLUP_WIDTHS = [MINUTE_MS, HOUR_MS, DAY_MS] as const;
/**
 * The widths summed from the rollups one narrower, in the order they are recomputed: an hour from its
 * minutes (at most 60 rows), a day from its hours (at most 24), so a chamber's two years are 730 rows to
 * read, not 17,520 hours scattered among the fleet's (docs/performance.md, "Time series on PostgreSQL").
 */
const SUMMED_WIDTHS = [
  { width: HOUR_MS, from: MINUTE_MS },
  { width: DAY_MS, from: HOUR_MS },
] as const;

/**
 * Buckets per recomputing statement: small, since a batch waits for the statement in progress. The cost
 * is per raw row whatever the slicing; the slice bounds the wait: at 5 readings a second (bench:ingest) 8
 * minutes are 2,400 raw rows, about 10 ms on SQLite where 25 took 33 ms (docs/performance.md).
 */
const FLUSH_CHUNK_BUCKETS = 8;
/** After a restart: the minutes of the store's last hour of readings (by their Time) are recomputed. */
const REPAIR_WINDOW_MS = HOUR_MS;
/**
 * ...and those of the newest stored rows, whatever their Time, so a backlog of old readings stored just
 * before a crash is recomputed too: 200,000 rows is 20 s at 10,000 readings/s, four flush intervals.
 */
const REPAIR_NEWEST_ROWS = 200_000;

/** The systolic and diastolic parts of a raw row's "sys/dia" blood pressure, as numbers. */
export const bloodPressureParts = (kind: DatabaseKind): Record<'HmBPSys' | 'HmBPDia', RawBuilder<number>> => {
  const slash = kind === 'sqlite' ? sql`instr(hm_bp, '/')` : sql`strpos(hm_bp, '/')`;
  return {
    HmBPSys: sql<number>`cast(substr(hm_bp, 1, ${slash} - 1) as double precision)`,
    HmBPDia: sql<number>`cast(substr(hm_bp, ${slash} + 1) as double precision)`,
  };
};

/** A rollup's value columns, per reading min, max, sum, n. */
const VALUE_COLUMNS = HISTORY_READINGS.flatMap((name) => ['min', 'max', 'sum', 'n'].map((part) => `${ROLLUP_COLUMNS[name]}_${part}`));
const INSERT_COLUMNS = sql.join(['device_id', 'bucket_ms', 'start', ...VALUE_COLUMNS].map((column) => sql.ref(column)));
/** Replaces, never adds: the values are the bucket's whole. */
const REPLACE = sql.join(VALUE_COLUMNS.map((column) => sql`${sql.ref(column)} = ${sql.ref(`excluded.${column}`)}`));

/** Per reading over the raw rows of a group: min, max, sum (0 with none) and count. */
const rawAggregates = (kind: DatabaseKind) =>
  sql.join(
    HISTORY_READINGS.map((name) => {
      const value = name === 'HmBPSys' || name === 'HmBPDia' ? bloodPressureParts(kind)[name] : sql.ref(ROLLUP_COLUMNS[name]);
      return sql`min(${value}), max(${value}), coalesce(sum(${value}), 0), count(${value})`;
    }),
  );

/** Per reading over the narrower rollups of a group. */
const rolledAggregates = sql.join(
  HISTORY_READINGS.map((name) => {
    const column = ROLLUP_COLUMNS[name];
    return sql`min(${sql.ref(`${column}_min`)}), max(${sql.ref(`${column}_max`)}), sum(${sql.ref(`${column}_sum`)}), sum(${sql.ref(`${column}_n`)})`;
  }),
);

/** A bucket: its device and start. */
interface BucketKey {
  deviceId: string;
  start: number;
}
const keyOf = (deviceId: string, start: number): string => `${start}\n${deviceId}`;

/** A device's range on a bucket's time column: [from, to). */
interface DeviceRange {
  deviceId: string;
  from: number;
  to: number;
}

/** `where` of the ranges: each device's [from, to) on `column`. */
const within = (column: 'time' | 'start', ranges: readonly DeviceRange[]) =>
  sql.join(
    ranges.map(({ deviceId, from, to }) => sql`(device_id = ${deviceId} and ${sql.ref(column)} >= ${from} and ${sql.ref(column)} < ${to})`),
    sql` or `,
  );
/** Each bucket as its own range. */
const rangesOf = (width: number, buckets: readonly BucketKey[]): DeviceRange[] =>
  buckets.map(({ deviceId, start }) => ({ deviceId, from: start, to: start + width }));

/**
 * Between statements: a batch waiting for the connection (on SQLite, the writer thread's one) goes first,
 * so the minutes of a whole fleet settling at once never hold the batches up for more than a statement.
 */
const yieldToBatches = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The buckets of `width` that `buckets` lie in. */
const widerOf = (width: number, buckets: readonly BucketKey[]): BucketKey[] => {
  const wider = new Map<string, BucketKey>();
  for (const { deviceId, start } of buckets) wider.set(keyOf(deviceId, start - (start % width)), { deviceId, start: start - (start % width) });
  return [...wider.values()];
};

/** Buckets of `width` from their rollups of width `from`, `FLUSH_CHUNK_BUCKETS` a statement. */
const recomputeSummed = async (db: Kysely<DB>, { width, from }: (typeof SUMMED_WIDTHS)[number], buckets: readonly BucketKey[], stopped: () => boolean): Promise<void> => {
  for (let offset = 0; offset < buckets.length && !stopped(); offset += FLUSH_CHUNK_BUCKETS) {
    await sql`insert into reading_rollups (${INSERT_COLUMNS})
      select device_id, ${sql.lit(width)}, start - start % ${sql.lit(width)}, ${rolledAggregates} from reading_rollups
      where bucket_ms = ${sql.lit(from)} and (${within('start', rangesOf(width, buckets.slice(offset, offset + FLUSH_CHUNK_BUCKETS)))})
      group by device_id, start - start % ${sql.lit(width)}
      on conflict (device_id, bucket_ms, start) do update set ${REPLACE}`.execute(db);
    await yieldToBatches();
  }
};

/** Recomputes minute buckets from the raw rows, then the hours and days they lie in from the rollups one narrower, `FLUSH_CHUNK_BUCKETS` a statement. */
const recompute = async (db: Kysely<DB>, kind: DatabaseKind, minutes: readonly BucketKey[], stopped: () => boolean = () => false): Promise<void> => {
  const raw = rawAggregates(kind);
  for (let offset = 0; offset < minutes.length && !stopped(); offset += FLUSH_CHUNK_BUCKETS) {
    const chunk = minutes.slice(offset, offset + FLUSH_CHUNK_BUCKETS);
    // A bucket with no raw rows left (past RAW_RETENTION_DAYS) yields no group: its rollup is kept.
    await sql`insert into reading_rollups (${INSERT_COLUMNS})
      select device_id, ${sql.lit(MINUTE_MS)}, time - time % ${sql.lit(MINUTE_MS)}, ${raw} from state_records
      where ${within('time', rangesOf(MINUTE_MS, chunk))} group by device_id, time - time % ${sql.lit(MINUTE_MS)}
      on conflict (device_id, bucket_ms, start) do update set ${REPLACE}`.execute(db);
    await yieldToBatches();
  }
  for (const summed of SUMMED_WIDTHS) await recomputeSummed(db, summed, widerOf(summed.width, minutes), stopped);
};

/** Per reading, the count a rollup keeps (`<column>_n`) and how to count it from the rows below it. */
const COUNTS = HISTORY_READINGS.map((name, index) => ({ name, kept: `${ROLLUP_COLUMNS[name]}_n`, alias: `n${index}` }));
/** A group's counts differ from its rollup's, or it has none: `g` the group, `u` the rollup joined. */
const differs = sql.join(
  [sql`u.device_id is null`, ...COUNTS.map(({ kept, alias }) => sql`${sql.ref(`u.${kept}`)} <> ${sql.ref(`g.${alias}`)}`)],
  sql` or `,
);

/** A width of rollups and what it is recomputed from: the raw rows (the minute), or the rollups of width `from`. */
type RollupLevel = { width: typeof MINUTE_MS; from?: undefined } | (typeof SUMMED_WIDTHS)[number];
const MINUTES: RollupLevel = { width: MINUTE_MS };

/**
 * Of `buckets` of `width`, those whose rollup is missing or was computed from fewer rows than lie below
 * it now: read only, no write lock. Raw rows are only ever added (a redelivery is not stored again), so a
 * minute whose every reading's count equals its raw rows' is right, and an hour or a day whose counts are
 * its narrower rollups' sums likewise (a row without any of these readings changes no rollup).
 */
const staleOf = async (db: Kysely<DB>, kind: DatabaseKind, { width, from }: RollupLevel, ranges: readonly DeviceRange[]): Promise<BucketKey[]> => {
  const group =
    from === undefined
      ? sql`select device_id, time - time % ${sql.lit(MINUTE_MS)} as start, ${sql.join(
          COUNTS.map(({ name, alias }) => {
            const value = name === 'HmBPSys' || name === 'HmBPDia' ? bloodPressureParts(kind)[name] : sql.ref(ROLLUP_COLUMNS[name]);
            return sql`count(${value}) as ${sql.ref(alias)}`;
          }),
        )} from state_records where ${within('time', ranges)} group by device_id, time - time % ${sql.lit(MINUTE_MS)}`
      : sql`select device_id, start - start % ${sql.lit(width)} as start, ${sql.join(
          COUNTS.map(({ kept, alias }) => sql`sum(${sql.ref(kept)}) as ${sql.ref(alias)}`),
        )} from reading_rollups where bucket_ms = ${sql.lit(from)} and (${within('start', ranges)}) group by device_id, start - start % ${sql.lit(width)}`;
  const { rows } = await sql<{ device_id: string; start: number }>`select g.device_id, g.start from (${group}) g
    left join reading_rollups u on u.device_id = g.device_id and u.bucket_ms = ${sql.lit(width)} and u.start = g.start
    where ${differs}`.execute(db);
  return rows.map((row) => ({ deviceId: row.device_id, start: Number(row.start) }));
};

/**
 * Candidate buckets per checking statement. A device's candidates are read as runs of its time (below),
 * so a statement costs its raw rows, not a lookup per bucket: at 1 Hz 256 minutes are about 15,000 rows,
 * and a batch waits for one such read at most, where 8 buckets a statement took 25,000 statements to
 * check bench:api's store (docs/performance.md).
 */
const CHECK_SLICE_BUCKETS = 256;
/** Candidates of one device further apart than this many buckets are read as two runs, not one spanning the gap. */
const RUN_GAP_BUCKETS = 4;

/** A run of one device's candidate buckets: its range, and how many candidates lie in it. */
interface BucketRun extends DeviceRange {
  buckets: number;
}

/** Each device's candidates as runs of its time: consecutive ones (gaps of up to RUN_GAP_BUCKETS) one range, of at most CHECK_SLICE_BUCKETS. */
const runsOf = (width: number, buckets: readonly BucketKey[]): BucketRun[] => {
  const sorted = [...buckets].sort((a, b) => (a.deviceId === b.deviceId ? a.start - b.start : a.deviceId < b.deviceId ? -1 : 1));
  const runs: BucketRun[] = [];
  for (const { deviceId, start } of sorted) {
    const last = runs.at(-1);
    if (last?.deviceId === deviceId && start <= last.to + RUN_GAP_BUCKETS * width && last.buckets < CHECK_SLICE_BUCKETS) {
      last.to = Math.max(last.to, start + width);
      last.buckets += 1;
    } else runs.push({ deviceId, from: start, to: start + width, buckets: 1 });
  }
  return runs;
};

/**
 * Of `buckets`, the stale ones (`staleOf`), about CHECK_SLICE_BUCKETS a statement. A bucket between two
 * candidates of a run is checked too, and recomputed if stale: a recomputed bucket is right whatever
 * asked for it.
 */
const staleAmong = async (db: Kysely<DB>, kind: DatabaseKind, level: RollupLevel, buckets: readonly BucketKey[], stopped: () => boolean): Promise<BucketKey[]> => {
  const stale: BucketKey[] = [];
  const slices: DeviceRange[][] = [];
  let count = CHECK_SLICE_BUCKETS;
  for (const run of runsOf(level.width, buckets)) {
    if (count >= CHECK_SLICE_BUCKETS) {
      slices.push([]);
      count = 0;
    }
    slices.at(-1)?.push(run);
    count += run.buckets;
  }
  for (const slice of slices) {
    if (stopped()) break;
    stale.push(...(await staleOf(db, kind, level, slice)));
    await yieldToBatches();
  }
  return stale;
};

/**
 * Every stored reading's minutes, then every hour, then every day, a statement each: a store written
 * without a flusher (a benchmark's seed) left as a server leaves it, so the repair at start finds nothing stale.
 */
export const rollUpEverything = async (db: Kysely<DB>, kind: DatabaseKind): Promise<void> => {
  await sql`insert into reading_rollups (${INSERT_COLUMNS})
    select device_id, ${sql.lit(MINUTE_MS)}, time - time % ${sql.lit(MINUTE_MS)}, ${rawAggregates(kind)} from state_records
    where true group by device_id, time - time % ${sql.lit(MINUTE_MS)}
    on conflict (device_id, bucket_ms, start) do update set ${REPLACE}`.execute(db);
  for (const summed of SUMMED_WIDTHS) await sumEveryRollup(db, summed);
};

/** Every bucket of `width` from the rollups of width `from`, in one statement. */
const sumEveryRollup = async (db: Kysely<DB>, { width, from }: (typeof SUMMED_WIDTHS)[number]): Promise<void> => {
  await sql`insert into reading_rollups (${INSERT_COLUMNS})
    select device_id, ${sql.lit(width)}, start - start % ${sql.lit(width)}, ${rolledAggregates} from reading_rollups
    where bucket_ms = ${sql.lit(from)} group by device_id, start - start % ${sql.lit(width)}
    on conflict (device_id, bucket_ms, start) do update set ${REPLACE}`.execute(db);
};

/** What the batch writer tells the rollups: a reading of `deviceId` at `time` was stored. */
export interface RollupTouches {
  touch(deviceId: string, time: number): void;
}

export interface RollupFlusher extends RollupTouches {
  /** Recomputes every bucket noted and not yet recomputed, and those recomputed at the flush before. */
  flush(): Promise<void>;
  /** The timer's flush: only the settled buckets (below), and those recomputed at the flush before. */
  flushSettled(): Promise<void>;
  /** Recomputes the buckets of the store's last hour of readings and of its newest rows (after a restart). */
  repair(): Promise<void>;
  /** Stops the timer and an unfinished repair, then flushes everything noted. */
  close(): Promise<void>;
}

export interface RollupFlusherOptions {
  /** Flushes the settled buckets every this many ms, and starts a repair at once; without it, only what is called. */
  intervalMs?: number;
  /** A timed flush or the repair that failed (its buckets are recomputed at the next flush). */
  onError?: (error: unknown, what: 'flush' | 'repair') => void;
  /** Recompute each bucket again at the flush after (default: on PostgreSQL, which several instances may share). */
  secondPass?: boolean;
  now?: () => number;
}

/** A noted minute: its device, start, and when it was first noted (server clock). */
interface Noted extends BucketKey {
  since: number;
}

export const createRollupFlusher = (db: Kysely<DB>, kind: DatabaseKind, options: RollupFlusherOptions = {}): RollupFlusher => {
  const { intervalMs, onError, secondPass = kind === 'postgres', now = Date.now } = options;
  const noted = new Map<string, Noted>();
  /** Per device, the latest minute noted: a bucket before it is settled. */
  const latest = new Map<string, number>();
  let previous: BucketKey[] = [];
  let stopped = false;
  let flushing: Promise<void> | undefined;

  /**
   * A minute is settled once its device has readings noted in a later minute (at 1 Hz, within a second
   * of its end; a late reading's minute at once) or it has waited a minute (a device that went quiet):
   * so the open minute is recomputed about once, not at every flush.
   */
  const flushOnce = async (everything: boolean): Promise<void> => {
    const at = now();
    const due: BucketKey[] = [];
    for (const [key, bucket] of noted) {
      if (!everything && bucket.start >= (latest.get(bucket.deviceId) ?? bucket.start) && bucket.since + MINUTE_MS > at) continue;
      noted.delete(key);
      due.push(bucket);
    }
    const buckets = new Map([...previous, ...due].map((bucket) => [keyOf(bucket.deviceId, bucket.start), bucket]));
    previous = secondPass ? due : [];
    try {
      await recompute(db, kind, [...buckets.values()]);
    } catch (error) {
      // Not recomputed: due again at the next flush.
      for (const [key, { deviceId, start }] of buckets) if (!noted.has(key)) noted.set(key, { deviceId, start, since: at - MINUTE_MS });
      throw error;
    }
  };
  /** One flush at a time; a flush asked for during one runs after it. */
  const queued = (everything: boolean): Promise<void> => {
    const next = (flushing ?? Promise.resolve()).catch(() => undefined).then(() => flushOnce(everything));
    flushing = next;
    return next;
  };

  const repair = async (): Promise<void> => {
    const newest = await db.selectFrom('state_records').select((eb) => [eb.fn.max('time').as('time'), eb.fn.max('id').as('id')]).executeTakeFirst();
    if (newest?.time === null || newest?.time === undefined) return;
    const minute = sql<number>`time - time % ${sql.lit(MINUTE_MS)}`;
    const recent = db.selectFrom('state_records').select(['device_id', minute.as('start')]).distinct();
    const rows = [
      ...(await recent.where('time', '>=', Number(newest.time) - REPAIR_WINDOW_MS).execute()),
      ...(await recent.where('id', '>', Number(newest.id) - REPAIR_NEWEST_ROWS).execute()),
    ];
    const buckets = new Map(rows.map((row) => [keyOf(row.device_id, Number(row.start)), { deviceId: row.device_id, start: Number(row.start) }]));
    const candidates = [...buckets.values()];
    const isStopped = () => stopped;
    // Only what is wrong is written: after a clean close, nothing (the close flushed everything noted).
    await recompute(db, kind, await staleAmong(db, kind, MINUTES, candidates, isStopped), isStopped);
    // An hour left behind its minutes, or a day behind its hours (a stop between a flush's statements).
    for (const summed of SUMMED_WIDTHS) {
      await recomputeSummed(db, summed, await staleAmong(db, kind, summed, widerOf(summed.width, candidates), isStopped), isStopped);
    }
  };

  const timer =
    intervalMs === undefined
      ? undefined
      : setInterval(() => {
          if (noted.size + previous.length > 0) queued(false).catch((error: unknown) => onError?.(error, 'flush'));
        }, intervalMs);
  const repairing = intervalMs === undefined ? undefined : repair().catch((error: unknown) => onError?.(error, 'repair'));

  return {
    touch(deviceId, time) {
      const start = time - (time % MINUTE_MS);
      const key = keyOf(deviceId, start);
      if (!noted.has(key)) noted.set(key, { deviceId, start, since: now() });
      if (start > (latest.get(deviceId) ?? -Infinity)) latest.set(deviceId, start);
    },
    flush: () => queued(true),
    flushSettled: () => queued(false),
    repair,
    close: async () => {
      stopped = true;
      clearInterval(timer);
      await repairing;
      await queued(true);
    },
  };
};
