import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import pg from 'pg';
import { HISTORY_READINGS } from '../src/domain/history';
import { bootstrap } from '../server/accounts/bootstrap';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest } from '../server/db/migrations';
import { ROLLUP_COLUMNS, type DB } from '../server/db/schema';
import { machine, numberSetting, writeResults } from './report';
import { applyPgLayout, pgLayoutSetting, pgTableBytes, type PgLayout } from './history-layouts';
import { UNLIMITED } from './seed';

/**
 * `npm run bench:history` (bench/README.md): one chamber with 30 days of 1 Hz readings (2.6 million raw
 * rows) and two years of rollups, on SQLite and on PostgreSQL, on PostgreSQL optionally among a fleet's
 * rows (BENCH_FLEET) in one of the layouts of history-layouts.ts; `GET /api/v1/devices/{Id}/history` over 1
 * hour, 1 day, 30 days and 2 years at 1,000 points, each asked BENCH_HISTORY_REQUESTS times at random
 * ends within the data, through the whole server (app.inject: routing, auth, validation, the query, the
 * JSON). Target: p95 <= 100 ms for each range on each store.
 */

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const DEVICE = 'OC-H1';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RAW_DAYS = 30;
const ROLLUP_DAYS = 730;
const TARGET_P95_MS = 100;
const REQUESTS = numberSetting('BENCH_HISTORY_REQUESTS', 40);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'BenchHistory2026';
/** The data's end: a whole hour, so every rollup is whole. */
const NOW = Math.floor(Date.UTC(2026, 10, 25, 12) / HOUR) * HOUR;

const RANGES = [
  { name: '1 hour', span: HOUR },
  { name: '1 day', span: DAY },
  { name: '30 days', span: RAW_DAYS * DAY },
  { name: '2 years', span: ROLLUP_DAYS * DAY },
] as const;

/** `count` integers from 0, as a store's row source (SQLite: a recursive CTE; PostgreSQL: generate_series). */
const series = (kind: 'sqlite' | 'postgres', count: number) =>
  kind === 'sqlite'
    ? sql`with recursive s(i) as (select 0 union all select i + 1 from s where i < ${sql.lit(count - 1)}) select i from s`
    : sql`select generate_series(cast(0 as bigint), ${sql.lit(count - 1)}) as i`;

/**
 * Rows every `width` ms over [from, to) for `chambers` chambers (the measured one first), written time
 * first, chamber next, as a fleet's ingestion writes them (a chamber's rows interleaved with the fleet's, not
 * stored together), by the store from a series, a month a statement. `t` is the row's time step, `c` its chamber.
 */
interface Segment {
  from: number;
  to: number;
  width: number;
  chambers: number;
}

const CHUNK_MS = 30 * DAY;

const writeSegment = async (db: Kysely<DB>, kind: 'sqlite' | 'postgres', segment: Segment, rows: (from: number, steps: RawBuilder<unknown>) => RawBuilder<unknown>): Promise<number> => {
  let written = 0;
  for (let from = segment.from; from < segment.to; from += CHUNK_MS) {
    const count = (Math.min(segment.to, from + CHUNK_MS) - from) / segment.width;
    const n = sql.lit(segment.chambers);
    const device = segment.chambers === 1 ? sql.lit(DEVICE) : sql`case when c = 0 then ${sql.lit(DEVICE)} else 'OC-F' || c end`;
    const steps = sql`select ${device} as device_id, t from (select i / ${n} as t, i % ${n} as c from (${series(kind, count * segment.chambers)}) as s) as f`;
    await rows(from, steps).execute(db);
    written += count * segment.chambers;
  }
  return written;
};

/**
 * The measured chamber's span of `days` before NOW, the last `fleetDays` of it shared with `chambers`
 * chambers, in whole buckets of `width` (NOW is a whole hour: the days' span ends with the day holding it).
 */
const segments = (days: number, width: number, chambers: number, fleetDays: number): Segment[] => {
  const shared = Math.min(days, fleetDays);
  const down = (time: number) => time - (time % width);
  return [
    { from: down(NOW - days * DAY), to: down(NOW - shared * DAY), width, chambers: 1 },
    { from: down(NOW - shared * DAY), to: Math.ceil(NOW / width) * width, width, chambers },
  ].filter((segment) => segment.from < segment.to);
};

interface Fleet {
  /** Chambers with hour rollups over the last `days` (the measured one among them). */
  chambers: number;
  /** Of them, those that also have minute rollups over the last `days` and 30 days of 1 Hz readings. */
  dense: number;
  days: number;
}

/**
 * 30 days of raw readings, then every rollup of the two years, for the measured chamber and its fleet,
 * written by the store itself from a series (no row is built here). Values vary as a session's do; rollups
 * of the raw days hold their readings' sums. On PostgreSQL the seed's connection skips triggers and
 * foreign key checks (session_replication_role): the analysis' summaries are not what is measured here.
 */
const seed = async (db: Kysely<DB>, kind: 'sqlite' | 'postgres', fleet: Fleet): Promise<{ raw: number; minutes: number; hours: number; days: number }> => {
  await db.insertInto('devices').values({ id: DEVICE, name: 'History bench', type: 1, permission: 'Close', location: '', state: 'Stop', erd: 0, online: 0, created_at: NOW, updated_at: NOW }).execute();
  if (fleet.chambers > 1) {
    await sql`insert into devices (id, name, type, permission, location, state, erd, online, created_at, updated_at)
      select 'OC-F' || (i + 1), 'History bench fleet', 1, 'Close', '', 'Stop', 0, 0, ${sql.lit(NOW)}, ${sql.lit(NOW)} from (${series(kind, fleet.chambers - 1)}) as s`.execute(db);
  }
  return db.connection().execute(async (conn) => {
    if (kind === 'postgres') await sql`set session_replication_role = replica`.execute(conn);
    let raw = 0;
    for (const segment of segments(RAW_DAYS, SECOND, fleet.dense, RAW_DAYS)) {
      raw += await writeSegment(conn, kind, segment, (from, steps) => sql`insert into state_records (device_id, time, sp, rcp, rrd, rcpi02, rgpi02, rct, rcrh, rap, hm_hr, hm_sp02, hm_bp)
        select device_id, ${sql.lit(from)} + t * 1000, 1.5, 1 + (t % 37) / 100.0, 60 - (t % 3600) / 60, 21 + (t % 5), 93, 20 + (t % 11), 55, 101.3,
          60 + (t % 30), 97, '120/80' from (${steps}) as f`);
    }
    const written = { minutes: 0, hours: 0, days: 0 };
    for (const [width, key, chambers] of [
      [MINUTE, 'minutes', fleet.dense],
      [HOUR, 'hours', fleet.chambers],
      [DAY, 'days', fleet.chambers],
    ] as const) {
      const n = width / SECOND;
      const columns = HISTORY_READINGS.flatMap((name) => ['min', 'max', 'sum', 'n'].map((part) => `${ROLLUP_COLUMNS[name]}_${part}`));
      const values = HISTORY_READINGS.flatMap(() => [sql`1`, sql`3`, sql.lit(2 * n), sql.lit(n)]);
      for (const segment of segments(ROLLUP_DAYS, width, chambers, fleet.days)) {
        written[key] += await writeSegment(conn, kind, segment, (from, steps) => sql`insert into reading_rollups (device_id, bucket_ms, start, ${sql.join(columns.map((column) => sql.ref(column)))})
          select device_id, ${sql.lit(width)}, ${sql.lit(from)} + t * ${sql.lit(width)}, ${sql.join(values)} from (${steps}) as f`);
      }
    }
    if (kind === 'postgres') await sql`set session_replication_role = origin`.execute(conn);
    return { raw, ...written };
  });
};

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

interface RangeRow {
  store: string;
  range: string;
  source: string;
  bucketMs: number;
  buckets: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

const LAYOUT = pgLayoutSetting();
const FLEET: Fleet = {
  chambers: numberSetting('BENCH_FLEET', 1),
  dense: numberSetting('BENCH_FLEET_DENSE', 1),
  days: numberSetting('BENCH_FLEET_DAYS', 365),
};
/** Keep the PostgreSQL database after the run, and reuse one kept by a run with the same settings. */
const KEEP = process.env.BENCH_PG_KEEP === '1';
const STORES = (process.env.BENCH_HISTORY_STORES ?? 'sqlite,postgres').split(',').filter((store): store is 'sqlite' | 'postgres' => store === 'sqlite' || store === 'postgres');

interface Seeded {
  layout: PgLayout | 'sqlite';
  raw: number;
  minutes: number;
  hours: number;
  days: number;
  seconds: number;
  /** PostgreSQL: bytes of each table with its indexes. */
  bytes?: Record<string, number>;
}

/** Seeds (applying the layout first) unless `reuse` and the database holds a finished seed of the same settings. */
const seededStore = async (db: Kysely<DB>, kind: 'sqlite' | 'postgres', fleet: Fleet, reuse: boolean): Promise<Seeded> => {
  if (reuse) {
    const { rows } = await sql<{ report: string }>`select report from bench_history_seed`.execute(db);
    const report = rows[0]?.report;
    if (report !== undefined) return JSON.parse(report) as Seeded;
  }
  const started = performance.now();
  if (kind === 'postgres') await applyPgLayout(db, LAYOUT, NOW - ROLLUP_DAYS * DAY);
  const rows = await seed(db, kind, fleet);
  const seeded: Seeded = { layout: kind === 'postgres' ? LAYOUT : 'sqlite', ...rows, seconds: 0 };
  if (kind === 'postgres') {
    // As autovacuum would have by then: hint bits set, the visibility map and the statistics written.
    await sql`vacuum (analyze) state_records, reading_rollups`.execute(db);
    seeded.seconds = Math.round((performance.now() - started) / 1000);
    seeded.bytes = { state_records: await pgTableBytes(db, 'state_records'), reading_rollups: await pgTableBytes(db, 'reading_rollups') };
    await sql`create table bench_history_seed (report text not null)`.execute(db);
    await sql`insert into bench_history_seed (report) values (${JSON.stringify(seeded)})`.execute(db);
  } else seeded.seconds = Math.round((performance.now() - started) / 1000);
  return seeded;
};

const measureStore = async (kind: 'sqlite' | 'postgres'): Promise<{ rows: RangeRow[]; seeded: Seeded }> => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-history-${kind}-`));
  const fleet = kind === 'postgres' ? FLEET : { chambers: 1, dense: 1, days: FLEET.days };
  const pgName = KEEP ? `bench_history_${LAYOUT}_${fleet.chambers}_${fleet.dense}_${fleet.days}` : `bench_history_${process.pid}`;
  const admin = kind === 'postgres' ? new pg.Client({ connectionString: PG_ADMIN_URL }) : undefined;
  let reuse = false;
  if (admin !== undefined) {
    await admin.connect();
    reuse = KEEP && (await admin.query('select 1 from pg_database where datname = $1', [pgName])).rowCount === 1;
    if (!reuse) await admin.query(`create database ${pgName}`);
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${pgName}`;
  const config = loadConfig({
    ...UNLIMITED,
    DATA_DIR: dir,
    ...(kind === 'postgres' ? { DATABASE_URL: url.toString() } : {}),
    LOG_LEVEL: 'silent',
    ADMIN_ACCOUNT: 'bench-root',
    ADMIN_PASSWORD: PASSWORD,
  });
  const app = buildApp({ config, now: () => NOW, logger: false });
  try {
    await app.ready();
    await migrateToLatest(app.ctx);
    await bootstrap(app.ctx, () => undefined);
    reuse &&= (await sql<{ found: string | null }>`select to_regclass('bench_history_seed') as found`.execute(app.ctx.db)).rows[0]?.found !== null;
    if (KEEP && !reuse && kind === 'postgres' && (await app.ctx.db.selectFrom('devices').select('id').limit(1).execute()).length > 0) {
      throw new Error(`database ${pgName} holds an unfinished seed: drop it (drop database ${pgName}) and run again`);
    }
    const seeded = await seededStore(app.ctx.db, kind, fleet, reuse);
    console.log(
      `${kind}${kind === 'postgres' ? ` (${seeded.layout}, ${pgName})` : ''}: ${reuse ? 'reused' : 'seeded'} ${seeded.raw} readings, ${seeded.minutes} minute, ${seeded.hours} hour and ${seeded.days} day rollups` +
        ` (seeded in ${seeded.seconds} s${seeded.bytes === undefined ? '' : `; bytes ${JSON.stringify(seeded.bytes)}`})`,
    );
    const login = await app.inject({ method: 'POST', url: `${config.apiPrefix}/login`, payload: { Account: 'bench-root', Code: PASSWORD } });
    const token = login.json<{ data: { token: string } }>().data.token;
    let seedRandom = 42;
    const random = () => ((seedRandom = (seedRandom * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const rows: RangeRow[] = [];
    for (const { name, span } of RANGES) {
      // Ends anywhere in the data the range fits: raw ranges within the raw days, others within the rollups'.
      const earliest = NOW - (span <= DAY ? RAW_DAYS * DAY : ROLLUP_DAYS * DAY) + span;
      const times: number[] = [];
      let last: { source: string; bucketMs: number; series: { RCP?: unknown[] } } | undefined;
      for (let i = 0; i < REQUESTS + 3; i++) {
        const to = Math.round(earliest + random() * (NOW - earliest));
        const begin = performance.now();
        const response = await app.inject({
          method: 'GET',
          url: `/api/v1/devices/${DEVICE}/history?from=${to - span}&to=${to}&points=1000`,
          headers: { authorization: `Bearer ${token}` },
        });
        const elapsed = performance.now() - begin;
        if (response.statusCode !== 200) throw new Error(`${kind} ${name}: HTTP ${response.statusCode} ${response.body}`);
        last = response.json();
        // The first three warm the statement caches; not counted.
        if (i >= 3) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      const round = (ms: number) => Math.round(ms * 10) / 10;
      rows.push({
        store: kind,
        range: name,
        source: last?.source ?? '',
        bucketMs: last?.bucketMs ?? 0,
        buckets: last?.series.RCP?.length ?? 0,
        p50Ms: round(percentile(times, 50)),
        p95Ms: round(percentile(times, 95)),
        maxMs: round(times.at(-1) ?? 0),
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
    return { rows, seeded };
  } finally {
    await app.close();
    if (admin !== undefined) {
      if (!KEEP) await admin.query(`drop database if exists ${pgName} with (force)`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
};

const main = async (): Promise<void> => {
  const date = new Date().toISOString();
  const load = os.loadavg().map((value) => Math.round(value * 10) / 10);
  const results = [];
  for (const kind of STORES) results.push(await measureStore(kind));
  const rows = results.flatMap((result) => result.rows);
  const misses = rows.filter((row) => row.p95Ms > TARGET_P95_MS).map((row) => `${row.store} ${row.range}: p95 ${row.p95Ms} ms > ${TARGET_P95_MS} ms`);
  const loadAfter = os.loadavg().map((value) => Math.round(value * 10) / 10);
  const report = {
    date,
    machine: machine(),
    settings: { requests: REQUESTS, points: 1000, stores: STORES, pgLayout: LAYOUT, fleet: FLEET, loadBefore: load, loadAfter },
    data: { device: DEVICE, rawDays: RAW_DAYS, rollupDays: ROLLUP_DAYS, seeded: results.map((result) => result.seeded) },
    target: { p95Ms: TARGET_P95_MS },
    rows,
    met: misses.length === 0,
    misses,
  };
  const lines = [
    '| store | range | source | bucket | buckets | p50 ms | p95 ms | max ms |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.store} | ${row.range} | ${row.source} | ${row.bucketMs / 1000} s | ${row.buckets} | ${row.p50Ms} | ${row.p95Ms} | ${row.maxMs} |`),
  ];
  console.log(lines.join('\n'));
  const file = writeResults(benchDir, 'history', report, (relative) => [
    `Run: **${date}** (${relative}), ${report.met ? '**target met**' : '**target MISSED**'}; load average (1, 5, 15 min) ${load.join(', ')} before, ${loadAfter.join(', ')} after, on ${report.machine.cores} cores.`,
    '',
    ...lines,
    ...(misses.length === 0 ? [] : ['', 'Missed:', '', ...misses.map((miss) => `- ${miss}`)]),
  ]);
  console.log(`results: ${file}`);
  if (!report.met) process.exitCode = 1;
};

await main();
