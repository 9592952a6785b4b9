import { loadConfig } from '../server/config';
import { openSqlite } from '../server/db/sqlite';
import { ALARM_KINDS } from '../src/domain/alarms/rules';
import { STATS_PATHS } from '../src/domain/stats';
import type { Child } from './children';
import { numberSetting } from './report';
import { API_PREFIX } from './scenarios';
import { ADMIN, DEVICES, ROOT as SUPER_ADMIN, SCOPED_DEVICES, T0, benchEnv } from './seed';
import { DAY_MS, HOUR_MS } from '../src/domain/time';

/**
 * The stats-year scenario of bench:api (docs/analysis.md, "Benchmark"): a year of a fleet's analysis data
 * added to the bench store with no server running (BENCH_STATS_CHAMBERS chambers, default all 1,000, over
 * BENCH_STATS_DAYS days, default 365, ending at T0): per chamber and day four one-hour sessions (one in ten
 * booked and expired instead), each session hour's rollup, two commands and one alarm; then, on a
 * server started on it, the super administrator's analysis calls over that year, each BENCH_STATS_REQUESTS
 * times (default 40), two at a time. Target: p95 <= 300 ms per call. Then, for information and outside the
 * target, the overview of a first-level administrator who manages 300 of the chambers: a scoped viewer reads
 * the rows of its chambers, not the fleet's summaries (docs/analysis.md, "Speed").
 */

const STATS_TARGET_P95_MS = 300;
const SESSIONS_PER_DAY = 4;

const settings = () => ({
  chambers: Math.min(DEVICES, numberSetting('BENCH_STATS_CHAMBERS', DEVICES)),
  days: numberSetting('BENCH_STATS_DAYS', 365),
  requests: numberSetting('BENCH_STATS_REQUESTS', 40),
});

/**
 * Inserts the year set-based (recursive CTEs), one statement per table. The store's triggers fill the
 * analysis' summaries from these rows as they are inserted (migration 0028, docs/analysis.md "Speed"):
 * no set-based fill of the summaries is needed.
 */
const seedYear = (dataDir: string, chambers: number, days: number): { rows: number; seconds: number } => {
  const started = performance.now();
  const config = loadConfig(benchEnv(dataDir));
  if (config.database.kind !== 'sqlite') throw new Error('the benchmark seeds SQLite only');
  const connection = openSqlite(config.database.file, 'OFF');
  // The summaries' triggers upsert a chamber's day and week rows for every row inserted, in time order, so
  // chamber by chamber they touch every page of those tables: a 256 MB page cache keeps them in memory
  // (the year's seed: 44 s instead of 160 s; 14 s without the triggers).
  connection.pragma('cache_size = -262144');
  const start = T0 - days * DAY_MS;
  const device = (i: string) => `'OC-' || substr('000' || (${i} % ${chambers}), -4)`;
  const count = (table: string) => (connection.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  const series = (n: number) => `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${n - 1})`;
  try {
    const before = ['orders', 'reading_rollups', 'device_commands', 'alarms'].reduce((sum, table) => sum + count(table), 0);
    const sessions = chambers * days * SESSIONS_PER_DAY;
    // Session k of a chamber: day k / 4, at 08:00, 11:00, 14:00 or 17:00 UTC.
    const at = `${start} + (i / ${chambers} / ${SESSIONS_PER_DAY}) * ${DAY_MS} + (8 + 3 * ((i / ${chambers}) % ${SESSIONS_PER_DAY})) * ${HOUR_MS}`;
    connection.transaction(() => {
      connection.exec(`insert into orders (order_num, device_id, time, set_t, oc, open_id, is_used, is_pass, finished_at, used_at, cancelled_at)
        ${series(sessions)} select 'Y' || i, ${device('i')}, ${at} - ${HOUR_MS}, ${at}, '000000', 'oBench',
          case when i % 10 = 9 then 0 else 1 end, case when i % 10 = 9 then 1 else 0 end,
          case when i % 10 = 9 then null else ${at} + ${HOUR_MS} end, case when i % 10 = 9 then null else ${at} end, null from s`);
      connection.exec(`insert into reading_rollups (device_id, bucket_ms, start, rcp_sum, rcp_n, rcpi02_sum, rcpi02_n, rct_sum, rct_n)
        ${series(sessions)} select ${device('i')}, ${HOUR_MS}, ${at}, (1.1 + (i % 9) / 10.0) * 3600, 3600, (20 + i % 8) * 3600, 3600, (19 + i % 10) * 3600, 3600 from s where i % 10 <> 9`);
      connection.exec(`insert into device_commands (cmd_id, device_id, type, payload, status, error, issued_by, issued_at, answered_at)
        ${series(chambers * days * 2)} select 'y' || i, ${device('i')}, case i % 3 when 0 then 'permission' when 1 then 'state' else 'settings' end, '{}',
          case when i % 20 = 0 then 'timeout' when i % 20 = 1 then 'refused' else 'acked' end, null, null,
          ${start} + (i / ${chambers} / 2) * ${DAY_MS} + (9 + 6 * ((i / ${chambers}) % 2)) * ${HOUR_MS}, null from s`);
      const kinds = ALARM_KINDS.map((kind, k) => `when ${k} then '${kind}'`).join(' ');
      connection.exec(`insert into alarms (device_id, kind, priority, state, condition, value, threshold, raised_at, acked_at, acked_by, closed_at, shelved_until, comment)
        ${series(chambers * days)} select ${device('i')}, case i % ${ALARM_KINDS.length} ${kinds} end, case i % 3 when 0 then 'high' when 1 then 'medium' else 'low' end,
          'closed', 0, null, null, ${start} + (i / ${chambers}) * ${DAY_MS} + 10 * ${HOUR_MS}, ${start} + (i / ${chambers}) * ${DAY_MS} + 10 * ${HOUR_MS} + (i % 120) * 1000,
          'bench', ${start} + (i / ${chambers}) * ${DAY_MS} + 11 * ${HOUR_MS}, null, null from s`);
    })();
    connection.exec('analyze');
    const after = ['orders', 'reading_rollups', 'device_commands', 'alarms'].reduce((sum, table) => sum + count(table), 0);
    return { rows: after - before, seconds: (performance.now() - started) / 1000 };
  } finally {
    connection.close();
  }
};

const p95 = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
};

export interface StatsRow {
  call: string;
  requests: number;
  p50Ms: number;
  p95Ms: number;
}

/** Seeds the year, starts a server on it, measures each call; answers the rows and the calls over the target. */
export const measureStatsYear = async (
  startServer: () => Promise<Child>,
  dataDir: string,
  log: (line: string) => void,
): Promise<{ rows: StatsRow[]; problems: string[]; data: string }> => {
  const { chambers, days, requests } = settings();
  log(`seeding a year of analysis data: ${chambers} chambers × ${days} days …`);
  const seeded = seedYear(dataDir, chambers, days);
  log(`  added ${seeded.rows} rows in ${seeded.seconds.toFixed(1)} s`);
  const server = await startServer();
  try {
    const signIn = async (account: { Account: string; Code: string }) => {
      const login = await fetch(`${server.url}${API_PREFIX}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
      const token = ((await login.json()) as { data?: { token?: string } }).data?.token;
      if (typeof token !== 'string') throw new Error(`sign-in as ${account.Account} failed: HTTP ${login.status}`);
      return token;
    };
    const range = `from=${T0 - Math.min(days, 365) * DAY_MS}&to=${T0}&tz=-480`;
    const measure = async (token: string, call: string, label: string): Promise<StatsRow> => {
      const timings: number[] = [];
      const one = async () => {
        const started = performance.now();
        const answer = await fetch(`${server.url}/api/v1/${call}`, { headers: { authorization: `Bearer ${token}` } });
        const body = await answer.text();
        if (answer.status !== 200) throw new Error(`${call}: HTTP ${answer.status} ${body}`);
        timings.push(performance.now() - started);
      };
      await one(); // warm-up, not counted
      timings.length = 0;
      for (let sent = 0; sent < requests; sent += 2) await Promise.all([one(), one()]);
      const row = { call: label, requests: timings.length, p50Ms: Math.round(timings.sort((a, b) => a - b)[Math.floor(timings.length / 2)] ?? 0), p95Ms: Math.round(p95(timings)) };
      log(`  ${row.call}: p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms over ${row.requests} requests`);
      return row;
    };
    const calls = [
      `${STATS_PATHS.overview}?${range}`,
      `${STATS_PATHS.readings}?${range}`,
      `${STATS_PATHS.pivot}?${range}&measure=sessionHours&by=site`,
      `${STATS_PATHS.pivot}?${range}&measure=alarms&by=month`,
    ];
    const root = await signIn(SUPER_ADMIN);
    const rows: StatsRow[] = [];
    for (const call of calls) {
      rows.push(await measure(root, call, call.split('?')[0] + (call.includes('measure=') ? ` (${call.split('&').slice(-2).join(', ')})` : '')));
    }
    const problems = rows.filter((row) => row.p95Ms > STATS_TARGET_P95_MS).map((row) => `stats-year ${row.call}: p95 ${row.p95Ms} ms > ${STATS_TARGET_P95_MS} ms`);
    const scoped = await measure(await signIn(ADMIN), calls[0] ?? '', `${STATS_PATHS.overview} (${ADMIN.Account}: ${SCOPED_DEVICES} chambers, rows; no target)`);
    return { rows: [...rows, scoped], problems, data: `${chambers} chambers × ${days} days: ${seeded.rows} rows of orders, hourly rollups, commands and alarms` };
  } finally {
    await server.stop();
  }
};
