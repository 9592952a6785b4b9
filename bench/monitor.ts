import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium, signInConsole } from './browser';
import { ensureBuilt } from './build';
import { cpuTimeMs } from './children';
import { cleanUp, discardStream, loadAverage, openLiveStreams, signInApi, startChambers, startFleetServer } from './fleet';
import { percentiles, type Percentiles } from './ingest-load';
import { seedIngest, WATCHER } from './ingest-seed';
import { ROOT as SUPER_ADMIN } from './seed';
import { sqliteStore } from './store';
import { PAGE_SCRIPT, type PageRecording } from './monitor-page';
import { machine, numberSetting, runBenchmark, verdict, writeResults } from './report';

/**
 * `npm run bench:monitor`: are the live screens smooth with a fleet reporting? The real server
 * (server/main.ts, the built console, embedded broker, SQLite) in a child process; BENCH_DEVICES chambers
 * (10,000), each publishing a reading a second over MQTT from one process of their own
 * (bench/ingest-load.ts; a reading's Time is its publish time); a Level-1 administrator managing all of
 * them has BENCH_CONSOLES consoles open (20): the one measured, signed in in Debian's Chromium
 * (playwright-core), and the others' live streams, opened and read by this process. The server's CPU is
 * sampled first with the chambers reporting and no console, then while each page is measured. Each
 * scenario's page stays open BENCH_DURATION seconds (60) after a warm-up. Measured in the page
 * (bench/monitor-page.ts): long tasks, the main thread's busy share (CDP Performance.getMetrics'
 * TaskDuration over wall time) and, where the page marks its values with `data-reading-time`, the latency
 * from a reading's Time to its value painted.
 * Writes bench/results/monitor-<date>.json and prints its summary; exits 1 on a missed target.
 */

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH_DIR);

export const MONITOR_TARGET = { longTasks: 0, busyShare: 0.25, latencyP95Ms: 250 } as const;

interface Scenario {
  name: string;
  /** The console path opened (with its page size in the query, as a person's bookmark keeps it). */
  path: string;
  /** Shown once the page has loaded its data. */
  ready: string;
  /**
   * Whether the page paints live reading values, marked with `data-reading-time`: its reading-to-paint
   * latency is measured and counted. A page showing none (counts, device fields) has it n/a.
   */
  paints: boolean;
  /** What a person does on the page before it is watched (a view chosen). */
  prepare?: (page: Page) => Promise<void>;
}

/** Every live screen, each counted against the targets. */
const SCENARIOS: readonly Scenario[] = [
  { name: 'monitor-dashboard', path: '/dashboard/monitor', ready: '[data-reading-time]', paints: true },
  { name: 'oxygen-monitor', path: '/list/oxygen-monitor?page=1&perPage=50', ready: 'tr[data-reading-time]', paints: true },
  {
    name: 'device-cards',
    path: '/list/device-atts?page=1&perPage=50',
    ready: '[data-testid="device-cards"] [data-device]',
    paints: true,
    prepare: (page) => page.getByRole('button', { name: '卡片视图' }).click(),
  },
  { name: 'device-manager', path: '/list/device-manager?page=1&perPage=50', ready: 'tbody tr', paints: false },
  // It refetches its page on new readings (at most every 2 s); its rows carry no reading-to-paint mark.
  { name: 'readings-log', path: '/list/readings?page=1&perPage=50', ready: 'tbody tr', paints: false },
  { name: 'workplace', path: '/dashboard/workplace', ready: '[data-testid^="figure-"]', paints: false },
];

const settings = {
  devices: numberSetting('BENCH_DEVICES', 10_000),
  /** Readings a second per chamber. */
  hertz: numberSetting('BENCH_HERTZ', 1),
  durationSeconds: numberSetting('BENCH_DURATION', 60),
  warmupSeconds: numberSetting('BENCH_WARMUP', 5),
  /** Consoles of the administrator open at once: the measured page and the bench's own live streams. */
  consoles: numberSetting('BENCH_CONSOLES', 20),
  only: (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean),
  /** A label for the run in its results (e.g. "before" when BENCH_CONSOLE_DIR is an older build). */
  label: process.env.BENCH_LABEL ?? '',
};

interface ScenarioResult {
  name: string;
  path: string;
  longTasks: { count: number; maxMs: number; totalMs: number };
  /** Main-thread task time over wall time while measured (1 = always busy). */
  busyShare: number;
  /**
   * The main thread's CPU time over wall time (CDP ThreadTime): what the page itself costs. On a loaded
   * machine a task waits for a core and lasts longer than its CPU time, which inflates busyShare and long
   * tasks; this share moves much less, so before and after are compared on it.
   */
  cpuShare: number;
  /** Of the main thread's task time, seconds per second: script, style recalculation, layout. */
  breakdown: { script: number; style: number; layout: number };
  /** Reading Time to painted, ms; null where the page paints no reading values (n/a). */
  latencyMs: Percentiles | null;
  latencySamples: number;
  /** Elements carrying a reading time (rows, tiles) at the end. */
  elements: number;
  /** Requests to the upstream list endpoints while measured (refetches). */
  listRequests: number;
  /** The server's CPU while measured, in cores busy. */
  serverCores: number;
  /**
   * Chambers connected at the end, and readings the server refused as overload while measured: a fleet
   * the server (or this machine) cannot carry shows here, and the page's figures then say little.
   */
  fleet: { chambers: number; refused: number };
  /** 1-minute load average at the scenario's start and end. */
  load: [number, number];
  misses: string[];
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const misses = (result: Omit<ScenarioResult, 'misses'>): string[] => {
  const t = MONITOR_TARGET;
  return [
    result.longTasks.count > t.longTasks ? `${result.name}: ${result.longTasks.count} tasks over 50 ms (longest ${result.longTasks.maxMs} ms)` : '',
    result.busyShare > t.busyShare ? `${result.name}: main thread busy ${(result.busyShare * 100).toFixed(1)} % > ${t.busyShare * 100} %` : '',
    result.latencyMs !== null && result.latencySamples === 0 ? `${result.name}: no live value was seen painted` : '',
    result.fleet.chambers < settings.devices ? `${result.name}: only ${result.fleet.chambers} of ${settings.devices} chambers connected` : '',
    result.fleet.refused > 0 ? `${result.name}: the server refused ${result.fleet.refused} readings as overload` : '',
    result.latencyMs !== null && result.latencyMs.p95 > t.latencyP95Ms ? `${result.name}: reading-to-paint p95 ${result.latencyMs.p95} ms > ${t.latencyP95Ms} ms` : '',
  ].filter((miss) => miss !== '');
};

const METRICS = ['Timestamp', 'TaskDuration', 'ThreadTime', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration'] as const;
type Metrics = Record<(typeof METRICS)[number], number>;

/** The page's counters (CDP Performance.getMetrics), in seconds. */
const pageMetrics = async (cdp: CDPSession): Promise<Metrics> => {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(METRICS.map((name) => [name, metrics.find((metric) => metric.name === name)?.value ?? 0])) as Metrics;
};

/** Per second of wall time between the two samples, rounded to 0.001. */
const perSecond = (before: Metrics, after: Metrics, name: keyof Metrics): number => {
  const wall = after.Timestamp - before.Timestamp;
  return wall > 0 ? Math.round(((after[name] - before[name]) / wall) * 1000) / 1000 : 0;
};

/** What the server's /healthz says of the fleet (the super administrator's view): chambers connected, readings refused as overload so far. */
const fleetHealth = async (url: string, token: string): Promise<{ chambers: number; refused: number }> => {
  const health = (await (await fetch(`${url}/healthz`, { headers: { authorization: `Bearer ${token}` } })).json()) as { mqtt?: { clients?: number; ingest?: { refused?: { overload?: number } } } };
  return { chambers: health.mqtt?.clients ?? 0, refused: health.mqtt?.ingest?.refused?.overload ?? 0 };
};

/** The server process's CPU (it and its workers) over a window, in cores busy. */
const serverCpu = (pid: number | undefined) => {
  const before = cpuTimeMs(pid) ?? 0;
  const started = performance.now();
  return { stop: (): number => Math.round(((cpuTimeMs(pid) ?? 0) - before) / (performance.now() - started) * 100) / 100 };
};

const measure = async (page: Page, cdp: CDPSession, url: string, scenario: Scenario, server: { pid: number | undefined; token: string }, profileDir: string | undefined): Promise<ScenarioResult> => {
  const loadAtStart = loadAverage();
  await page.goto(`${url}${scenario.path}`);
  await scenario.prepare?.(page);
  await page.locator(scenario.ready).first().waitFor({ timeout: 60_000 });
  await page.getByRole('status').filter({ hasText: '实时' }).waitFor({ timeout: 60_000 });
  await sleep(settings.warmupSeconds * 1000);

  let listRequests = 0;
  const countList = (request: { url: () => string }) => {
    if (request.url().includes('/list/')) listRequests += 1;
  };
  page.on('request', countList);
  if (profileDir !== undefined) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const before = await pageMetrics(cdp);
  const healthBefore = await fleetHealth(url, server.token);
  const cpu = serverCpu(server.pid);
  await page.evaluate('window.monitorBench.start()');
  await sleep(settings.durationSeconds * 1000);
  const recording = (await page.evaluate('window.monitorBench.stop()')) as PageRecording;
  const serverCores = cpu.stop();
  const healthAfter = await fleetHealth(url, server.token);
  const after = await pageMetrics(cdp);
  page.off('request', countList);
  if (profileDir !== undefined) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(path.join(profileDir, `${scenario.name}.cpuprofile`), JSON.stringify(profile));
  }

  const tasks = recording.longTasksMs;
  const result = {
    name: scenario.name,
    path: scenario.path,
    longTasks: { count: tasks.length, maxMs: Math.round(Math.max(0, ...tasks)), totalMs: Math.round(tasks.reduce((sum, ms) => sum + ms, 0)) },
    busyShare: perSecond(before, after, 'TaskDuration'),
    cpuShare: perSecond(before, after, 'ThreadTime'),
    breakdown: { script: perSecond(before, after, 'ScriptDuration'), style: perSecond(before, after, 'RecalcStyleDuration'), layout: perSecond(before, after, 'LayoutDuration') },
    latencyMs: scenario.paints ? percentiles(recording.latenciesMs) : null,
    latencySamples: recording.latenciesMs.length,
    elements: recording.elements,
    listRequests,
    serverCores,
    fleet: { chambers: healthAfter.chambers, refused: healthAfter.refused - healthBefore.refused },
    load: [loadAtStart, loadAverage()] as [number, number],
  };
  return { ...result, misses: misses(result) };
};

const describeResult = (r: ScenarioResult): string =>
  `${r.name}: ${r.longTasks.count} long tasks (longest ${r.longTasks.maxMs} ms), busy ${(r.busyShare * 100).toFixed(1)} % (CPU ${(r.cpuShare * 100).toFixed(1)} %: script ${r.breakdown.script}, style ${r.breakdown.style}, layout ${r.breakdown.layout} s/s), ` +
  (r.latencyMs === null ? 'reading-to-paint n/a (no reading values on the page)' : `reading-to-paint p50 ${r.latencyMs.p50} / p95 ${r.latencyMs.p95} ms (${r.latencySamples})`) +
  `, ${r.listRequests} list requests, server ${r.serverCores} cores, ${r.fleet.chambers} chambers connected, ${r.fleet.refused} readings refused, load ${r.load.join(' → ')}`;

interface MonitorReport {
  date: string;
  label: string;
  machine: ReturnType<typeof machine>;
  consoleDir: string;
  settings: typeof settings;
  target: typeof MONITOR_TARGET;
  /** The server's CPU in cores busy with the chambers reporting and no console open: what each scenario's serverCores is compared with. */
  serverCoresWithoutConsoles: number;
  scenarios: ScenarioResult[];
  met: boolean;
}

/** A difference with its sign: +0.12, −0.05. */
const signed = (value: number): string => (value < 0 ? `−${-value}` : `+${value}`);

const writeMonitorReport = (report: MonitorReport): string =>
  writeResults(BENCH_DIR, 'monitor', report, (file) => {
    const m = report.machine;
    const cell = (r: ScenarioResult) => (r.latencyMs === null ? 'n/a' : `${r.latencyMs.p50} / ${r.latencyMs.p95} (${r.latencySamples})`);
    const base = report.serverCoresWithoutConsoles;
    return [
      `Run: **${report.date}** (${file}${report.label === '' ? '' : `, ${report.label}`}), ${report.met ? '**targets met**' : '**target MISSED**'}.`,
      '',
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. Console: ${report.consoleDir}.`,
      `Load: ${report.settings.devices} chambers at ${report.settings.hertz} Hz over MQTT; ${report.settings.consoles} consoles of the administrator (the measured page and ${report.settings.consoles - 1} live streams); each page open ${report.settings.warmupSeconds} s, then measured ${report.settings.durationSeconds} s.`,
      `Server CPU with the chambers reporting and no console: ${base} cores; the column "server" is each page's, the difference the consoles' share.`,
      '',
      '| scenario | targets | long tasks (longest ms) | main thread busy | main thread CPU | reading to paint p50 / p95 ms (samples) | list requests | server cores (the consoles\u2019 share) | chambers connected, readings refused | load start → end |',
      '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
      ...report.scenarios.map(
        (r) =>
          `| ${r.name} | ${r.misses.length === 0 ? 'met' : 'MISSED'} | ${r.longTasks.count} (${r.longTasks.maxMs}) | ${(r.busyShare * 100).toFixed(1)} % | ${(r.cpuShare * 100).toFixed(1)} % | ${cell(r)} | ${r.listRequests} | ${r.serverCores} (${signed(Math.round((r.serverCores - base) * 100) / 100)}) | ${r.fleet.chambers}, ${r.fleet.refused} | ${r.load.join(' → ')} |`,
      ),
      '',
      ...(report.met ? [] : ['Missed:', '', ...report.scenarios.flatMap((r) => r.misses.map((miss) => `- ${miss}`)), '']),
    ];
  });

const main = async (): Promise<number> => {
  const date = new Date().toISOString();
  const scenarios = SCENARIOS.filter((scenario) => settings.only.length === 0 || settings.only.includes(scenario.name));
  if (scenarios.length === 0) throw new Error(`BENCH_ONLY names no scenario (${SCENARIOS.map((scenario) => scenario.name).join(', ')})`);
  const consoleDir = path.resolve(process.env.BENCH_CONSOLE_DIR ?? path.join(ROOT, 'dist/console'));
  if (process.env.BENCH_CONSOLE_DIR === undefined) ensureBuilt(ROOT, consoleDir);
  const profileDir = process.env.BENCH_CPU_PROF === undefined ? undefined : path.resolve(process.env.BENCH_CPU_PROF);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oxygen-bench-monitor-'));
  const chambers = startChambers();
  const stops: (() => unknown)[] = [() => chambers.child.kill('SIGKILL')];
  try {
    // Every chamber in the Level-1 administrator's scope; a few earlier readings each for the readings log.
    const fleet = await seedIngest(sqliteStore(dataDir), { publishing: settings.devices, idle: 0, watched: settings.devices, history: 10 });
    const { server, brokerUrl } = await startFleetServer(dataDir, { consoleDir });
    stops.push(() => server.stop());
    const connected = await chambers.ask({ type: 'connect', url: brokerUrl, devices: fleet.publishing, publish: true });
    if (connected.type === 'connected') log(`${connected.clients} chambers connected in ${connected.seconds} s`);
    // One run for the whole benchmark; the chambers' process is killed at the end.
    void chambers.ask({ type: 'run', mode: 'open', ratePerSecond: settings.devices * settings.hertz, seconds: 24 * 3600 }).catch(() => undefined);
    log(`${settings.devices} chambers publishing at ${settings.hertz} Hz; console ${path.relative(ROOT, consoleDir) || consoleDir}`);

    // The server's CPU with the chambers reporting and no console open, over as long as a page is measured.
    await sleep(settings.warmupSeconds * 1000);
    const withoutConsoles = serverCpu(server.process.pid);
    await sleep(settings.durationSeconds * 1000);
    const serverCoresWithoutConsoles = withoutConsoles.stop();
    log(`server without consoles: ${serverCoresWithoutConsoles} cores`);
    // The other consoles of the same administrator: their streams, read and discarded.
    const rootToken = await signInApi(server.url, SUPER_ADMIN);
    const streams = await openLiveStreams(server.url, await signInApi(server.url, WATCHER), Math.max(0, settings.consoles - 1), discardStream);
    stops.push(streams.close);

    const browser = await launchChromium();
    stops.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    await context.addInitScript(PAGE_SCRIPT);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    await signInConsole(page, server.url, WATCHER);

    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const result = await measure(page, cdp, server.url, scenario, { pid: server.process.pid, token: rootToken }, profileDir);
      log(describeResult(result));
      results.push(result);
    }
    const report: MonitorReport = {
      date,
      label: settings.label,
      machine: machine(),
      consoleDir: path.relative(ROOT, consoleDir) || consoleDir,
      settings,
      target: MONITOR_TARGET,
      serverCoresWithoutConsoles,
      scenarios: results,
      met: results.every((result) => result.misses.length === 0),
    };
    if (process.env.BENCH_NO_REPORT !== '1') log(`results: ${path.relative(ROOT, writeMonitorReport(report))}`);
    return verdict(results.flatMap((result) => result.misses));
  } finally {
    await cleanUp(stops, dataDir);
  }
};

runBenchmark('bench:monitor', main);
