import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import autocannon, { type Request, type Result } from 'autocannon';
import { alsoOnInterrupt, cpuTimeMs, startChild, type Child } from './children';
import { bottleneckLine, measureCpu, mosquittoPart, postgresPart, profileTop } from './cpu';
import { deploymentsToRun, describeDeployment, resultsKind, runTag, startInstances, type Deployment, type Instances } from './deployment';
import { apiSummary, machine, misses, numberSetting, runBenchmark, TARGET, toRow, writeReport, type ApiRun, type Measured, type Report, type Row } from './report';
import {
  API_PREFIX,
  devicesScenario,
  mixedScenario,
  ordersScenario,
  READINGS_AT_SCALE,
  readingsAtScaleScenario,
  stateRecordsScenario,
  unfilteredScenario,
  type Scenario,
} from './scenarios';
import { measureStatsYear } from './stats';
import { ADMIN, DEVICES, ORDERS_PER_DEVICE, READINGS_PER_DEVICE, ROOT as SUPER_ADMIN, SCOPED_DEVICES, benchEnv, seed, topUpReadings } from './seed';
import { openStore, sqliteStore } from './store';

/**
 * `npm run bench:api`: measures a bare Fastify route as the ceiling, then for each configuration
 * (bench/deployment.ts: BENCH_STORE, BENCH_BROKER, BENCH_INSTANCES, BENCH_COMPARE; by default SQLite, the
 * embedded broker, one instance) seeds a fresh store (1,000 devices, 1,000,000 state records, 100,000
 * orders; bench/seed.ts) and drives the real server's list endpoints signed in as a Level-1
 * administrator managing 300 of the devices, each instance in a child process, autocannon's connections
 * taking the instances in turn. Prints the tables, writes bench/results/api[-configuration]-<date>.json, and
 * exits 1 when a counted scenario misses the target (≥ 5,000 req/s and p99 ≤ 50 ms) or any answer is
 * not 2xx. Settings (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 10), BENCH_ONLY (scenario names, comma-separated), BENCH_CPU_PROF (a
 * directory: profile the server child with --cpu-prof), BENCH_DATA_DIR (reuse a store seeded before;
 * kept), BENCH_NO_REPORT=1 (do not write results), BENCH_WORKERS (WORKERS of the server and the
 * ceiling alike, default 2). The stats-year scenario (bench/stats.ts) adds a year of analysis data after the
 * lists and measures the analysis calls (p95 <= 300 ms): BENCH_STATS_CHAMBERS, BENCH_STATS_DAYS, BENCH_STATS_REQUESTS.
 */

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH_DIR);

const settings = {
  durationSeconds: numberSetting('BENCH_DURATION', 10),
  warmupSeconds: numberSetting('BENCH_WARMUP', 2),
  connections: numberSetting('BENCH_CONNECTIONS', 10),
  informationalDurationSeconds: numberSetting('BENCH_INFO_DURATION', 5),
  /** WORKERS of the server and of the ceiling: processes answering on the one port (node:cluster). */
  workers: numberSetting('BENCH_WORKERS', 2),
  samplesChecked: 40,
};
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
const wanted = (name: string): boolean => only.length === 0 || only.includes(name);

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

interface Envelope {
  data?: { list?: unknown[]; total?: number; token?: string };
  code?: number;
  msg?: string;
}

const post = async (url: string, body: unknown, token?: string): Promise<{ status: number; envelope: Envelope }> => {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return { status: answer.status, envelope: (await answer.json()) as Envelope };
};

/** Checks sample answers of a scenario (its own generator, a different seed): 200, code 20000, the expected total and page. */
const verify = async (baseUrl: string, token: string, scenario: Scenario): Promise<void> => {
  for (let sample = 0; sample < settings.samplesChecked; sample += 1) {
    const { body, total } = scenario.next();
    const { status, envelope } = await post(`${baseUrl}${scenario.path}`, body, token);
    const list = envelope.data?.list;
    const expectedLength = Math.min(body.pageSize, Math.max(0, total - (body.current - 1) * body.pageSize));
    if (status !== 200 || envelope.code !== 20000 || !Array.isArray(list) || envelope.data?.total !== total || list.length !== expectedLength || list.length === 0) {
      throw new Error(
        `${scenario.name}: ${JSON.stringify(body)} answered HTTP ${status} code ${String(envelope.code)} ${envelope.msg ?? ''}, total ${String(envelope.data?.total)} (expected ${total}), ${Array.isArray(list) ? list.length : 'no'} records (expected ${expectedLength})`,
      );
    }
  }
};

const requestsOf = (scenarios: readonly Scenario[], headers: Record<string, string>): Request[] =>
  scenarios.map((scenario) => ({
    method: 'POST',
    path: scenario.path,
    headers,
    setupRequest: (request) => ({ ...request, body: JSON.stringify(scenario.next().body) }),
  }));

/** With several instances, autocannon's connections take them in turn (connection n the n-th URL, round). */
const run = async (targets: readonly Child[], requests: Request[], durationSeconds: number, title: string): Promise<Result> =>
  autocannon({ url: targets.map((target) => target.url), connections: settings.connections, pipelining: 1, duration: durationSeconds, timeout: 10, title, requests });

/** The instances' CPU time in all, ms; undefined when one cannot be read. */
const serversCpuMs = (targets: readonly Child[]): number | undefined => {
  const times = targets.map((target) => cpuTimeMs(target.process.pid));
  return times.includes(undefined) ? undefined : times.reduce<number>((sum, time) => sum + (time ?? 0), 0);
};

/** A warm-up (not recorded), then the measured run against `targets` (the ceiling, or the instances). */
const measure = async (targets: readonly Child[], requests: () => Request[], durationSeconds: number, title: string): Promise<Measured> => {
  await run(targets, requests(), settings.warmupSeconds, `${title} (warm-up)`);
  const before = serversCpuMs(targets);
  const result = await run(targets, requests(), durationSeconds, title);
  const after = serversCpuMs(targets);
  const serverCpuUs =
    before === undefined || after === undefined || result.requests.total === 0
      ? undefined
      : Math.round(((after - before) * 1000) / result.requests.total);
  const load = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
  log(
    `  ${title}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, server CPU ${serverCpuUs ?? '?'} µs/request, load ${load}`,
  );
  return { result, ...(serverCpuUs === undefined ? {} : { serverCpuUs }), load };
};

const sqliteVersion = (): string => {
  const memory = new SqliteDatabase(':memory:');
  try {
    return (memory.prepare('select sqlite_version() as v').get() as { v: string }).v;
  } finally {
    memory.close();
  }
};

/** The bare Fastify route of bench/ceiling.ts, measured once, in its own child process. */
const measureCeiling = async (): Promise<Row> => {
  const ceiling = await startChild({ entry: 'bench/ceiling.ts', cwd: ROOT, env: { LOG_LEVEL: 'silent', WORKERS: String(settings.workers) }, readyPath: '/healthz' });
  try {
    const ceilingCheck = await post(`${ceiling.url}/ceiling`, { current: 1, pageSize: 10 });
    if (ceilingCheck.status !== 200 || ceilingCheck.envelope.data?.list?.length !== 10) throw new Error('the ceiling route does not answer');
    log('ceiling (bare Fastify POST route):');
    const ceilingRequests = (): Request[] => {
      const scenario = stateRecordsScenario(1);
      return [
        {
          method: 'POST',
          path: '/ceiling',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${'x'.repeat(43)}` },
          setupRequest: (request) => ({ ...request, body: JSON.stringify(scenario.next().body) }),
        },
      ];
    };
    return toRow('ceiling', 'bare Fastify: one POST route, a list-like JSON body in, a 10-record envelope out', false, await measure([ceiling], ceilingRequests, settings.durationSeconds, 'ceiling'));
  } finally {
    await ceiling.stop();
  }
};

/** One configuration: its store seeded (or BENCH_DATA_DIR's reused), its instances started, every wanted scenario measured; everything it started is gone when it returns. */
const measureRun = async (deployment: Deployment, ceilingRow: Row): Promise<ApiRun> => {
  const configuration = describeDeployment(deployment);
  log(`\n${configuration}:`);
  const reused = process.env.BENCH_DATA_DIR;
  if (reused !== undefined && deployment.store !== 'sqlite') throw new Error('BENCH_DATA_DIR reuses a SQLite store: leave it unset with BENCH_STORE=postgres');
  const store = reused === undefined ? await openStore(deployment.store, 'oxygen-bench-') : sqliteStore(reused);
  const started: Instances[] = [];
  const cleanUp = async (): Promise<void> => {
    for (const instances of started) await instances.stop();
    if (reused === undefined) await store.drop();
  };
  const interrupted = alsoOnInterrupt(cleanUp);
  try {
    let seedSeconds: number | null = null;
    if (reused === undefined) {
      log(`seeding ${store.database ?? store.dataDir} …`);
      const seeded = await seed(store);
      seedSeconds = Math.round(seeded.seconds * 10) / 10;
      log(`  seeded ${DEVICES} devices, ${seeded.stateRecords} state records, ${seeded.orders} orders in ${seeded.seconds.toFixed(1)} s`);
    } else {
      log(`reusing the store in ${reused}`);
    }

    // The real server (server/main.ts: migrate, bootstrap, listen), LOG_LEVEL silent, one process an instance.
    const profileDir = process.env.BENCH_CPU_PROF === undefined ? undefined : path.resolve(process.env.BENCH_CPU_PROF);
    const startServers = async (): Promise<Child[]> => {
      const instances = await startInstances(deployment, { ...benchEnv(store.dataDir, store.env), WORKERS: String(settings.workers) }, runTag(), {
        root: ROOT,
        nodeFlags: profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir],
      });
      started.push(instances);
      return instances.servers;
    };
    const servers = await startServers();
    const [first] = servers;
    if (first === undefined) throw new Error('no server started');
    const login = await post(`${first.url}${API_PREFIX}/login`, ADMIN);
    const token = login.envelope.data?.token;
    if (login.status !== 200 || typeof token !== 'string') {
      throw new Error(`sign-in as ${ADMIN.Account} failed: HTTP ${login.status} ${JSON.stringify(login.envelope)}`);
    }
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

    const plans: { name: string; description: string; target: boolean; scenarios: (seed: number) => Scenario[]; duration: number }[] = [
      { ...about(stateRecordsScenario), scenarios: (s) => [stateRecordsScenario(s)], duration: settings.durationSeconds },
      { ...about(ordersScenario), scenarios: (s) => [ordersScenario(s)], duration: settings.durationSeconds },
      { ...about(devicesScenario), scenarios: (s) => [devicesScenario(s)], duration: settings.durationSeconds },
      {
        name: 'mixed',
        description: 'the three lists above in turn (one of each per round), as a console session moves between them',
        target: true,
        scenarios: mixedScenario,
        duration: settings.durationSeconds,
      },
      { ...about(unfilteredScenario), scenarios: (s) => [unfilteredScenario(s)], duration: settings.informationalDurationSeconds },
    ];

    for (const plan of plans.filter((candidate) => wanted(candidate.name))) {
      for (const server of servers) for (const scenario of plan.scenarios(9_999)) await verify(server.url, token, scenario);
    }
    log(`server (signed in as ${ADMIN.Account}, Level 1, ${SCOPED_DEVICES} of ${DEVICES} devices); sample answers checked:`);
    const cpu = await measureCpu([
      ...servers.map((server, index) => ({ name: servers.length === 1 ? 'server' : `instance ${index + 1}`, pids: async () => [server.process.pid ?? 0] })),
      ...(store.database === undefined ? [] : [postgresPart(store.database)]),
      ...(deployment.broker === 'mosquitto' ? [mosquittoPart()] : []),
    ]);
    const rows: Row[] = [];
    let seedNumber = 1;
    for (const plan of plans.filter((candidate) => wanted(candidate.name))) {
      seedNumber += 10;
      const base = seedNumber;
      const measured = await measure(servers, () => requestsOf(plan.scenarios(base), headers), plan.duration, plan.name);
      rows.push({ ...toRow(plan.name, plan.description, plan.target, measured), ofCeiling: measured.result.requests.average / ceilingRow.requestsPerSecond });
    }
    const shares = await cpu.stop();
    await started[0]?.stop();
    const profile = profileDir === undefined ? [] : profileTop(profileDir, first.process.pid ?? 0);
    // On SQLite only: the top-up and the year of analysis data are written by SQLite itself (bench/seed.ts, bench/stats.ts).
    const sqliteOnly = ['readings-10m', 'stats-year'].filter(wanted);
    if (store.kind !== 'sqlite' && sqliteOnly.length > 0) log(`${sqliteOnly.join(' and ')}: on SQLite only, not measured on ${configuration}`);
    const startOne = async (): Promise<Child> => (await startServers())[0] ?? first;
    const atScale = store.kind === 'sqlite' && wanted('readings-10m') ? await measureAtScale(startOne, store.dataDir) : undefined;
    if (atScale !== undefined) rows.push(atScale.row);
    // After the lists (it adds a year of orders, rollups, commands and alarms): the analysis calls, p95 target apart.
    const statsYear = store.kind === 'sqlite' && wanted('stats-year') ? await measureStatsYear(startOne, store.dataDir, log) : undefined;
    return {
      configuration,
      deployment,
      data: {
        store: store.kind === 'sqlite' ? 'SQLite (WAL), fresh DATA_DIR in the system temp directory' : 'PostgreSQL, a fresh database dropped afterwards (vacuumed and analysed after seeding)',
        devices: DEVICES,
        stateRecords: DEVICES * READINGS_PER_DEVICE,
        orders: DEVICES * ORDERS_PER_DEVICE,
        viewer: `${ADMIN.Account}: Level 1 under the super administrator, ${SCOPED_DEVICES} devices in account_devices`,
        seedSeconds,
        seeding: 'accounts through the server code; bulk rows in large transactions (bench/store.ts)',
      },
      rows,
      cpu: shares,
      // Without a list scenario (BENCH_ONLY=stats-year, say) nothing was measured: a share of no time is noise.
      bottleneck: rows.length === 0 ? 'no list scenario ran' : bottleneckLine(shares, os.cpus().length, profile),
      ...(statsYear === undefined ? {} : { statsYear: { target: 'p95 <= 300 ms per call', data: statsYear.data, rows: statsYear.rows } }),
      misses: [...rows.flatMap(misses), ...(atScale?.problems ?? []), ...(statsYear?.problems ?? [])].map((miss) => `${configuration}: ${miss}`),
    };
  } finally {
    interrupted();
    await cleanUp();
  }
};

const main = async (): Promise<number> => {
  const date = new Date().toISOString();
  const host = machine(sqliteVersion());
  const deployments = deploymentsToRun();
  log(`bench:api ${date} on ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}, SQLite ${host.sqlite ?? '?'}: ${deployments.map(describeDeployment).join(', then ')}`);
  const ceiling = await measureCeiling();
  const runs: ApiRun[] = [];
  for (const deployment of deployments) runs.push(await measureRun(deployment, ceiling));
  const problems = runs.flatMap((one) => one.misses);
  const report: Report = {
    date,
    machine: host,
    settings: { ...settings, only, pipelining: 1, cpuProfile: process.env.BENCH_CPU_PROF !== undefined, configurations: deployments.map(describeDeployment) },
    target: TARGET,
    ceiling,
    runs,
    met: problems.length === 0,
    misses: problems,
  };
  log('');
  if (process.env.BENCH_NO_REPORT === '1') for (const line of apiSummary(report)) log(line);
  else log(`results: ${path.relative(ROOT, writeReport(BENCH_DIR, resultsKind('api', deployments), report))}`);
  if (problems.length > 0) {
    log(`TARGET MISSED (≥ ${TARGET.requestsPerSecond} req/s and p99 ≤ ${TARGET.p99Ms} ms per counted scenario, no non-2xx):`);
    for (const problem of problems) log(`  - ${problem}`);
    return 1;
  }
  log(`target met: every counted scenario ≥ ${TARGET.requestsPerSecond} req/s with p99 ≤ ${TARGET.p99Ms} ms, no non-2xx answers`);
  return 0;
};

/**
 * The readings-10m scenario, after the others (which measure the 1,000,000-reading store): the store
 * topped up to READINGS_AT_SCALE readings with no server running, then, on a server started on it, the log's first page as the super
 * administrator. Its target is the latency alone (p99 <= 50 ms): reported apart from the throughput target.
 */
async function measureAtScale(startServer: () => Promise<Child>, dataDir: string): Promise<{ row: Row; problems: string[] }> {
  log(`topping the store up to ${READINGS_AT_SCALE} readings …`);
  const topUp = topUpReadings(dataDir, READINGS_AT_SCALE);
  log(`  added ${topUp.added} readings in ${topUp.seconds.toFixed(1)} s`);
  // A server started on the topped-up store: the other scenarios' server is stopped before the top-up.
  const server = await startServer();
  const login = await post(`${server.url}${API_PREFIX}/login`, SUPER_ADMIN);
  const token = login.envelope.data?.token;
  if (typeof token !== 'string') throw new Error(`sign-in as ${SUPER_ADMIN.Account} failed: HTTP ${login.status}`);
  await verify(server.url, token, readingsAtScaleScenario(9_999));
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const plan = about(readingsAtScaleScenario);
  const measured = await measure([server], () => requestsOf([readingsAtScaleScenario(77)], headers), settings.durationSeconds, plan.name);
  await server.stop();
  const row = toRow(plan.name, plan.description, false, measured);
  const problems = row.latencyMs.p99 > TARGET.p99Ms ? [`${plan.name}: p99 ${row.latencyMs.p99} ms > ${TARGET.p99Ms} ms`] : [];
  return { row, problems };
}

function about(factory: (seed: number) => Scenario): { name: string; description: string; target: boolean } {
  const { name, description, target } = factory(0);
  return { name, description, target };
}

runBenchmark('bench:api', main);
