import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import type { AlarmRecord } from '../src/domain/alarms/record';
import { connectAlarmChambers, type AlarmChamber, type SentReading } from './alarms-chambers';
import { ALARMS_PAGE_SCRIPT, type ShownAlarms } from './alarms-page';
import { launchChromium, signInConsole } from './browser';
import { ensureBuilt } from './build';
import { startDeadReceiver } from './dead-receiver';
import { cleanUp, INGEST_DEVICES, INGEST_RATE, INGEST_WATCHED, loadAverage, loadAverages, ROOT_DIR, sampleHeld, signInApi, startChambers, startFleetServer } from './fleet';
import { percentiles, type Percentiles } from './ingest-load';
import { BENCH_DEVICE_TYPE, HISTORY_PER_DEVICE, seedIngest, WATCHER } from './ingest-seed';
import { sqliteStore } from './store';
import { machine, numberSetting, runBenchmark, verdict, writeResults } from './report';
import { ROOT } from './seed';

/**
 * `npm run bench:alarms`: how long after the reading that completes an alarm's on-delay does an open
 * console show the alarm, under the ingest load?
 *
 * 1. Seeds a fresh SQLite store (bench/ingest-seed.ts): the ingest load's chambers with their earlier
 *    readings, BENCH_ALARMS alarm chambers, and a Level-1 administrator managing BENCH_WATCHED of the
 *    load's chambers and every alarm chamber.
 * 2. The server (server/main.ts, embedded broker, the built console) in a child process; the load's
 *    chambers in their own process publish BENCH_RATE readings a second in all, as bench:ingest's do;
 *    the alarm chambers (bench/alarms-chambers.ts) publish a normal reading a second each.
 * 3. Chromium signs the administrator in; the workplace stays open (the app bar's alarm counter is on
 *    every page). Inside it (bench/alarms-page.ts) a MutationObserver notes when the counter's
 *    `data-newest-alarm` names an alarm, and two animation frames later, the moment it was painted.
 * 4. One alarm chamber after another, BENCH_SPACING seconds apart, publishes high oxygen a second
 *    apart until its alarm is shown (or BENCH_TIMEOUT passes). The reading that completes the on-delay
 *    is the first whose Time is at least the on-delay (the type's o2-high rule, read from the server)
 *    after the first high reading's; latency = shown − that reading's Time (both the machine's clock).
 *    The alarm's `value` names the reading that raised it (each high reading has its own), which checks
 *    the server raised it there. Each alarm is then closed out of service through REST, so every chamber
 *    raises a new one and only one alarm stands at a time.
 *    Every alarm is also sent as a notification to a receiver that never answers (bench/dead-receiver.ts),
 *    which must slow neither ingestion nor the alarms (docs/notifications.md, "Delivery").
 * 5. Writes bench/results/alarms-<date>.json and prints its summary; exits 1 when an alarm was
 *    not shown or p99 is over the target.
 */

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

export const ALARMS_TARGET = { p99Ms: 2000 } as const;

const settings = {
  ratePerSecond: numberSetting('BENCH_RATE', INGEST_RATE),
  devices: numberSetting('BENCH_DEVICES', INGEST_DEVICES),
  watchedDevices: numberSetting('BENCH_WATCHED', INGEST_WATCHED),
  historyPerDevice: numberSetting('BENCH_HISTORY', HISTORY_PER_DEVICE),
  alarms: numberSetting('BENCH_ALARMS', 30),
  /** Seconds from one alarm chamber's first high reading to the next one's, at least. */
  spacingSeconds: numberSetting('BENCH_SPACING', 4),
  /** Seconds the load runs with the console open before the first alarm. */
  warmupSeconds: numberSetting('BENCH_WARMUP', 10),
  /** Seconds after its first high reading an alarm not shown yet counts as not shown. */
  timeoutSeconds: numberSetting('BENCH_TIMEOUT', 30),
  label: process.env.BENCH_LABEL ?? '',
};

/** RCPi02 of the first high reading, % (above the o2-high rule's high band, 23.5 %). */
const HIGH_OXYGEN = 23.6;

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call of the server's REST API as the administrator; answers the JSON body. */
const restClient =
  (url: string, token: string) =>
  async <T>(method: 'GET' | 'POST', call: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${url}/api/v1${call}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} /api/v1${call}: HTTP ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as T;
  };
type Rest = ReturnType<typeof restClient>;

/** The oxygen rule of the chambers' type as the server keeps it: its on-delay and high band. */
const oxygenRule = async (rest: Rest): Promise<{ onDelayMs: number; highAbove: number }> => {
  const rules = await rest<{ deviceType: number; kind: string; onDelayS: number; highAbove: number | null; enabled: boolean }[]>('GET', '/alarm-rules');
  const rule = rules.find((one) => one.deviceType === BENCH_DEVICE_TYPE && one.kind === 'o2-high');
  if (rule === undefined || !rule.enabled || rule.highAbove === null || rule.highAbove >= HIGH_OXYGEN) {
    throw new Error(`type ${BENCH_DEVICE_TYPE}'s o2-high rule does not raise a high alarm at ${HIGH_OXYGEN} %: ${JSON.stringify(rule)}`);
  }
  return { onDelayMs: rule.onDelayS * 1000, highAbove: rule.highAbove };
};

interface AlarmSample {
  device: string;
  alarmId: number | null;
  /** Time of the chamber's first high reading. */
  firstHighTime: number;
  /** Time of the reading that completes the on-delay: the first high one at least the on-delay later. */
  completingTime: number | null;
  /** Time of the reading the server raised the alarm on (found by the alarm's value). */
  raisingTime: number | null;
  /** The alarm's raisedAt: the server's clock when it evaluated the raising reading. */
  raisedAt: number | null;
  /** When the page painted the counter naming the alarm. */
  shownAt: number | null;
  /** shownAt − completingTime. */
  latencyMs: number | null;
  /** raisedAt − completingTime: the server's part (MQTT, the commit, the evaluation). */
  serverMs: number | null;
  highReadings: number;
  /** Other alarms the counter named meanwhile (none is expected). */
  others: number[];
}

/** Every alarm the page has painted as the newest, by id. */
const shownAlarms = (page: Page): Promise<ShownAlarms> => page.evaluate('window.alarmsBench.shown()') as Promise<ShownAlarms>;

/**
 * One alarm: `chamber` publishes high oxygen until the console shows its alarm or the timeout passes,
 * then calms down and the alarm is closed.
 */
const measureOne = async (page: Page, rest: Rest, chamber: AlarmChamber, onDelayMs: number, seen: Set<string>): Promise<AlarmSample> => {
  const sent: SentReading[] = await chamber.raise(HIGH_OXYGEN);
  const first = sent[0];
  if (first === undefined) throw new Error(`${chamber.id} sent no high reading`);
  const deadline = first.time + settings.timeoutSeconds * 1000;
  const others: number[] = [];
  let found: { alarm: AlarmRecord; shownAt: number } | undefined;
  while (found === undefined && Date.now() < deadline) {
    await sleep(100);
    for (const [id, shownAt] of Object.entries(await shownAlarms(page))) {
      if (shownAt === 0 || seen.has(id)) continue;
      seen.add(id);
      const alarm = await rest<AlarmRecord>('GET', `/alarms/${id}`);
      if (alarm.deviceId === chamber.id && alarm.kind === 'o2-high') found = { alarm, shownAt };
      else others.push(alarm.id);
    }
  }
  chamber.calm();
  const open =
    found?.alarm ??
    (await rest<AlarmRecord[]>('GET', `/alarms?filter=${encodeURIComponent(JSON.stringify({ deviceId: chamber.id }))}`)).find(
      (alarm) => alarm.deviceId === chamber.id && alarm.state !== 'closed',
    );
  if (open !== undefined) await rest('POST', `/alarms/${open.id}/close`, { reason: 'bench:alarms' });

  const completing = sent.find((reading) => reading.time >= first.time + onDelayMs);
  const raising = found === undefined ? undefined : sent.find((reading) => Math.abs(reading.oxygen - (found?.alarm.value ?? NaN)) < 0.001);
  const raisedAt = found?.alarm.raisedAt ?? null;
  return {
    device: chamber.id,
    alarmId: open?.id ?? null,
    firstHighTime: first.time,
    completingTime: completing?.time ?? null,
    raisingTime: raising?.time ?? null,
    raisedAt,
    shownAt: found?.shownAt ?? null,
    latencyMs: found === undefined || completing === undefined ? null : found.shownAt - completing.time,
    serverMs: raisedAt === null || completing === undefined ? null : raisedAt - completing.time,
    highReadings: sent.length,
    others,
  };
};

interface AlarmsReport {
  date: string;
  label: string;
  machine: ReturnType<typeof machine>;
  consoleDir: string;
  settings: typeof settings;
  target: typeof ALARMS_TARGET;
  onDelayMs: number;
  /** The 1, 5 and 15-minute load averages before the server started and after the last alarm. */
  load: { before: number[]; after: number[] };
  /** Readings the store persisted a second while the alarms were measured. */
  persistedPerSecond: number;
  /** Readings the server held unsettled, sampled every second while the alarms were measured. */
  heldBySecond: Percentiles;
  shown: number;
  latencyMs: Percentiles;
  serverMs: Percentiles;
  /** Alarms raised on the reading that completes the on-delay (the others on a later one). */
  raisedOnTime: number;
  samples: AlarmSample[];
  /** Notifications the never-answering receiver was sent meanwhile (each held until the server's timeout). */
  deadReceiverRequests: number;
  met: boolean;
  misses: string[];
}

const misses = (report: Omit<AlarmsReport, 'met' | 'misses'>): string[] =>
  [
    report.shown < report.samples.length ? `${report.samples.length - report.shown} of ${report.samples.length} alarms not shown within ${settings.timeoutSeconds} s` : '',
    report.latencyMs.p99 > report.target.p99Ms ? `reading-to-alarm-shown p99 ${report.latencyMs.p99} ms > ${report.target.p99Ms} ms` : '',
  ].filter((miss) => miss !== '');

const writeAlarmsReport = (report: AlarmsReport): string =>
  writeResults(BENCH_DIR, 'alarms', report, (file) => {
    const m = report.machine;
    const s = report.settings;
    const ms = (p: Percentiles) => `${p.p50} / ${p.p95} / ${p.p99} / ${p.max}`;
    return [
      `Run: **${report.date}** (${file}${report.label === '' ? '' : `, ${report.label}`}), ${report.met ? '**target met**' : '**target MISSED**'}.`,
      '',
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. Console: ${report.consoleDir}.`,
      `Load average (1, 5, 15 min): ${report.load.before.join(', ')} before, ${report.load.after.join(', ')} after.`,
      `Load: ${s.devices} chambers publishing ${s.ratePerSecond} readings/s in all (${report.persistedPerSecond}/s persisted while measured); the workplace of a Level-1 administrator managing ${s.watchedDevices} of them and the ${s.alarms} alarm chambers open in Chromium; an alarm chamber every ${s.spacingSeconds} s at least, on-delay ${report.onDelayMs / 1000} s.`,
      '',
      '| measure | result | target |',
      '|---|--:|--:|',
      `| alarms shown | ${report.shown} of ${report.samples.length} | every one |`,
      `| reading that completes the on-delay → alarm painted, p50 / p95 / p99 / max, ms | ${ms(report.latencyMs)} | p99 ≤ ${report.target.p99Ms} |`,
      `| of it in the server: that reading → the alarm's raisedAt, p50 / p95 / p99 / max, ms | ${ms(report.serverMs)} | |`,
      `| raised on the reading that completes the on-delay | ${report.raisedOnTime} of ${report.shown} | |`,
      `| readings the server held unsettled, sampled each second: p50 / max | ${report.heldBySecond.p50} / ${report.heldBySecond.max} | |`,
      `| notifications sent meanwhile to a receiver that never answers | ${report.deadReceiverRequests} | |`,
      '',
      ...(report.misses.length === 0 ? [] : ['Missed:', '', ...report.misses.map((miss) => `- ${miss}`), '']),
    ];
  });

const main = async (): Promise<number> => {
  const date = new Date().toISOString();
  const consoleDir = path.resolve(process.env.BENCH_CONSOLE_DIR ?? path.join(ROOT_DIR, 'dist/console'));
  if (process.env.BENCH_CONSOLE_DIR === undefined) ensureBuilt(ROOT_DIR, consoleDir);
  const loadBefore = loadAverages();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oxygen-bench-alarms-'));
  const chambers = startChambers();
  const stops: (() => unknown)[] = [() => chambers.child.kill('SIGKILL')];
  try {
    const fleet = await seedIngest(sqliteStore(dataDir), {
      publishing: settings.devices,
      idle: 0,
      watched: settings.watchedDevices,
      history: settings.historyPerDevice,
      alarming: settings.alarms,
    });
    const { server, brokerUrl } = await startFleetServer(dataDir, { consoleDir });
    stops.push(() => server.stop());
    const rest = restClient(server.url, await signInApi(server.url, WATCHER));
    const { onDelayMs } = await oxygenRule(rest);
    // Every alarm is also sent to a receiver that never answers: it must slow neither ingestion nor the alarms.
    const dead = await startDeadReceiver(server.url, ROOT, [ROOT, WATCHER]);
    stops.push(dead.stop);

    await chambers.ask({ type: 'connect', url: brokerUrl, devices: fleet.publishing, publish: true });
    // One run for the whole benchmark; the chambers' process is killed at the end.
    void chambers.ask({ type: 'run', mode: 'open', ratePerSecond: settings.ratePerSecond, seconds: 24 * 3600 }).catch(() => undefined);
    const alarmChambers = await connectAlarmChambers(brokerUrl, fleet.alarming);
    stops.push(() => Promise.all(alarmChambers.map((chamber) => chamber.close())));
    log(`${settings.devices} chambers publishing ${settings.ratePerSecond} readings/s; ${alarmChambers.length} alarm chambers; console ${path.relative(ROOT_DIR, consoleDir) || consoleDir}`);

    const browser = await launchChromium();
    stops.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    await context.addInitScript(ALARMS_PAGE_SCRIPT);
    const page = await context.newPage();
    await signInConsole(page, server.url, WATCHER);
    await page.getByRole('status').filter({ hasText: '实时' }).waitFor({ timeout: 60_000 });
    await page.locator('[data-alarm-counts]').first().waitFor({ state: 'attached', timeout: 60_000 });
    await sleep(settings.warmupSeconds * 1000);

    const readings = await sqliteStore(dataDir).readings();
    stops.push(readings.close);
    const rowsBefore = await readings.newest();
    const holding = await sampleHeld(server.url);
    stops.push(holding.stop);
    const started = performance.now();
    const seen = new Set(Object.keys(await shownAlarms(page)));
    const samples: AlarmSample[] = [];
    for (const chamber of alarmChambers) {
      const begun = performance.now();
      const sample = await measureOne(page, rest, chamber, onDelayMs, seen);
      samples.push(sample);
      log(
        `${sample.device}: ${sample.latencyMs === null ? 'NOT SHOWN' : `shown ${sample.latencyMs} ms after the reading that completed the on-delay (server ${sample.serverMs} ms)`}` +
          `${sample.raisingTime !== null && sample.raisingTime !== sample.completingTime ? ', raised on a later reading' : ''}${sample.others.length > 0 ? `, other alarms shown: ${sample.others.join(', ')}` : ''}, load ${loadAverage()}`,
      );
      await sleep(Math.max(0, begun + settings.spacingSeconds * 1000 - performance.now()));
    }
    const persistedPerSecond = Math.round((((await readings.newest()) - rowsBefore) * 1000) / (performance.now() - started));

    const shown = samples.filter((sample) => sample.latencyMs !== null);
    const partial: Omit<AlarmsReport, 'met' | 'misses'> = {
      date,
      label: settings.label,
      machine: machine(),
      consoleDir: path.relative(ROOT_DIR, consoleDir) || consoleDir,
      settings,
      target: ALARMS_TARGET,
      onDelayMs,
      load: { before: loadBefore, after: loadAverages() },
      persistedPerSecond,
      heldBySecond: percentiles(holding.held),
      shown: shown.length,
      latencyMs: percentiles(shown.map((sample) => sample.latencyMs ?? 0)),
      serverMs: percentiles(shown.map((sample) => sample.serverMs ?? 0)),
      raisedOnTime: shown.filter((sample) => sample.raisingTime === sample.completingTime).length,
      samples,
      deadReceiverRequests: dead.requests(),
    };
    const problems = misses(partial);
    const report: AlarmsReport = { ...partial, met: problems.length === 0, misses: problems };
    log(`shown ${report.shown} of ${samples.length}; latency p50 ${report.latencyMs.p50} p95 ${report.latencyMs.p95} p99 ${report.latencyMs.p99} max ${report.latencyMs.max} ms; persisted ${persistedPerSecond}/s; ${report.deadReceiverRequests} notifications sent to the receiver that never answers`);
    if (process.env.BENCH_NO_REPORT !== '1') log(`results: ${path.relative(ROOT_DIR, writeAlarmsReport(report))}`);
    return verdict(problems);
  } finally {
    await cleanUp(stops, dataDir);
  }
};

runBenchmark('bench:alarms', main);
