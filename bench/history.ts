import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { HISTORY_READINGS } from '../src/domain/history';
import { bootstrap } from '../server/accounts/bootstrap';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest } from '../server/db/migrations';
import { ROLLUP_COLUMNS, type DB } from '../server/db/schema';
import { machine, numberSetting, writeResults } from './report';
import { UNLIMITED } from './seed';

/**
 * `npm run bench:history` (bench/README.md): one chamber with 30 days of 1 Hz readings (2.6 million raw
 * rows) and two years of rollups, on SQLite and on PostgreSQL; `GET /api/v1/devices/{Id}/history` over 1
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
 * 30 days of raw readings, then every rollup of the two years, written by the store itself from a series
 * (no row is built here). Values vary as a session's do; rollups of the raw days hold their readings' sums.
 */
const seed = async (db: Kysely<DB>, kind: 'sqlite' | 'postgres'): Promise<{ raw: number; minutes: number; hours: number }> => {
  await db.insertInto('devices').values({ id: DEVICE, name: 'History bench', type: 1, permission: 'Close', location: '', state: 'Stop', erd: 0, online: 0, created_at: NOW, updated_at: NOW }).execute();
  const raw = RAW_DAYS * 86_400;
  const rawStart = NOW - RAW_DAYS * DAY;
  await sql`insert into state_records (device_id, time, sp, rcp, rrd, rcpi02, rgpi02, rct, rcrh, rap, hm_hr, hm_sp02, hm_bp)
    select ${DEVICE}, ${sql.lit(rawStart)} + i * 1000, 1.5, 1 + (i % 37) / 100.0, 60 - (i % 3600) / 60, 21 + (i % 5), 93, 20 + (i % 11), 55, 101.3,
      60 + (i % 30), 97, '120/80' from (${series(kind, raw)}) as s`.execute(db);
  const minutes = ROLLUP_DAYS * 1440;
  const hours = ROLLUP_DAYS * 24;
  for (const [width, count] of [
    [MINUTE, minutes],
    [HOUR, hours],
  ] as const) {
    const n = width / SECOND;
    const columns = HISTORY_READINGS.flatMap((name) => ['min', 'max', 'sum', 'n'].map((part) => `${ROLLUP_COLUMNS[name]}_${part}`));
    const values = HISTORY_READINGS.flatMap(() => [sql`1`, sql`3`, sql.lit(2 * n), sql.lit(n)]);
    await sql`insert into reading_rollups (device_id, bucket_ms, start, ${sql.join(columns.map((column) => sql.ref(column)))})
      select ${DEVICE}, ${sql.lit(width)}, ${sql.lit(NOW - ROLLUP_DAYS * DAY)} + i * ${sql.lit(width)}, ${sql.join(values)} from (${series(kind, count)}) as s`.execute(db);
  }
  if (kind === 'postgres') await sql`analyze`.execute(db);
  return { raw, minutes, hours };
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

const measureStore = async (kind: 'sqlite' | 'postgres'): Promise<{ rows: RangeRow[]; seeded: Record<string, number> }> => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-history-${kind}-`));
  const pgName = `bench_history_${process.pid}`;
  const admin = kind === 'postgres' ? new pg.Client({ connectionString: PG_ADMIN_URL }) : undefined;
  if (admin !== undefined) {
    await admin.connect();
    await admin.query(`create database ${pgName}`);
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
    const started = performance.now();
    const seeded = await seed(app.ctx.db, kind);
    console.log(`${kind}: seeded ${seeded.raw} readings, ${seeded.minutes} minute and ${seeded.hours} hour rollups in ${Math.round((performance.now() - started) / 1000)} s`);
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
      await admin.query(`drop database if exists ${pgName} with (force)`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
};

const main = async (): Promise<void> => {
  const date = new Date().toISOString();
  const load = os.loadavg().map((value) => Math.round(value * 10) / 10);
  const results = [];
  for (const kind of ['sqlite', 'postgres'] as const) results.push(await measureStore(kind));
  const rows = results.flatMap((result) => result.rows);
  const misses = rows.filter((row) => row.p95Ms > TARGET_P95_MS).map((row) => `${row.store} ${row.range}: p95 ${row.p95Ms} ms > ${TARGET_P95_MS} ms`);
  const loadAfter = os.loadavg().map((value) => Math.round(value * 10) / 10);
  const report = {
    date,
    machine: machine(),
    settings: { requests: REQUESTS, points: 1000, loadBefore: load, loadAfter },
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
