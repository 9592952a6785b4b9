import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DevicePatch } from '../src/domain/live';
import { createEventStreamParser, readEventStream } from '../src/domain/eventStream';
import { cpuTimeMs } from './children';
import { cleanUp, INGEST_DEVICES, INGEST_RATE, INGEST_TARGET, INGEST_WATCHED, loadAverage, ran, ROOT_DIR, sampleHeld, sampleRows, signInApi, startChambers, startFleetServer } from './fleet';
import { percentiles, type Percentiles } from './ingest-load';
import { HISTORY_PER_DEVICE, seedIngest, WATCHER } from './ingest-seed';
import { machine, numberSetting, runBenchmark, verdict, writeResults } from './report';

/**
 * `npm run bench:ingest`: chambers publish QoS 1 telemetry to the server's embedded
 * broker while browsers watch the live stream.
 *
 * 1. Seeds a fresh SQLite store (bench/ingest-seed.ts): publishing devices with HISTORY_PER_DEVICE
 *    earlier readings each (the store's steady state), idle devices, a watcher.
 * 2. Ceiling: a bare aedes broker (bench/broker-ceiling.ts); the publishing devices publish as fast as
 *    acknowledgements allow (one in flight each) for BENCH_CEILING_SECONDS.
 * 3. The server (server/main.ts, one process, embedded broker on a free MQTT_PORT): the idle devices
 *    connect (server memory per connection: its RSS before and after), the watcher opens BENCH_STREAMS
 *    live streams, then the publishing devices publish BENCH_RATE messages/s in total for BENCH_DURATION
 *    seconds on a fixed schedule. Measured: rows persisted per second (the state records' newest rowid,
 *    sampled every second), publish-to-PUBACK latency (the PUBACK waits for the commit), device-to-browser
 *    latency (a reading's Time to its arrival on a stream), server CPU per message.
 * 4. Writes bench/results/ingest-<date>.json and prints its table; exits 1 when a target is
 *    missed or an acknowledged reading is not stored.
 */

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

const settings = {
  ratePerSecond: numberSetting('BENCH_RATE', INGEST_RATE),
  durationSeconds: numberSetting('BENCH_DURATION', 60),
  ceilingSeconds: numberSetting('BENCH_CEILING_SECONDS', 15),
  publishingDevices: numberSetting('BENCH_DEVICES', INGEST_DEVICES),
  idleDevices: numberSetting('BENCH_IDLE_DEVICES', 2_000),
  streams: numberSetting('BENCH_STREAMS', 20),
  watchedDevices: numberSetting('BENCH_WATCHED', INGEST_WATCHED),
  historyPerDevice: numberSetting('BENCH_HISTORY', HISTORY_PER_DEVICE),
  /** The first seconds of the run are not counted in the sustained rate (connections warming up). */
  warmupSeconds: 5,
};

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process's resident memory, bytes (Linux /proc). */
const rssBytes = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
};

const startCeiling = async (): Promise<{ child: ChildProcess; port: number }> => {
  const child = fork(path.join(BENCH_DIR, 'broker-ceiling.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ceiling broker exited (${String(code)})`)));
    child.once('message', (message: { port: number }) => resolve(message.port));
  });
  return { child, port };
};

/** Live streams of the watcher: every reading's Time → its arrival, while `recording`. */
const openStreams = async (url: string, token: string, count: number) => {
  const latencies: number[] = [];
  const state = { recording: false, events: 0, outside: 0 };
  const controller = new AbortController();
  for (let index = 0; index < count; index += 1) {
    const answer = await fetch(`${url}/api/v1/live`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    if (!answer.ok || answer.body === null) throw new Error(`live stream ${index}: HTTP ${answer.status}`);
    const parser = createEventStreamParser((message) => {
      if (message.event !== 'device') return;
      // No schema check here: the measuring process must stay light (the server's tests check the events).
      const reading = (JSON.parse(message.data) as DevicePatch).Reading;
      if (reading === undefined) return;
      state.events += 1;
      if (state.recording) latencies.push(Date.now() - reading.Time);
    });
    // Ends when the streams are aborted at the end.
    void readEventStream(answer.body, parser).catch(() => undefined);
  }
  return { latencies, state, close: () => controller.abort() };
};

interface IngestReport {
  date: string;
  machine: ReturnType<typeof machine>;
  settings: typeof settings;
  target: typeof INGEST_TARGET;
  ceiling: { messagesPerSecond: number; ackMs: Percentiles; chambersCpuShare: number };
  server: {
    offeredPerSecond: number;
    sent: number;
    acked: number;
    failed: number;
    stored: number;
    persistedPerSecond: number;
    lowestFiveSecondPerSecond: number;
    ackMs: Percentiles;
    liveMs: Percentiles;
    liveEvents: number;
    bytesPerIdleConnection: number;
    cpuUsPerMessage: number | null;
    /** CPU time of the chambers' process per second of the run (1 = one core busy). */
    chambersCpuShare: number;
    /** The same for this, the measuring process (its 20 streams). */
    measuringCpuShare: number;
    /** Messages the server held unsettled, sampled every second. */
    heldBySecond: Percentiles;
    load: number;
  };
  met: boolean;
  misses: string[];
}

const writeIngestReport = (report: IngestReport): string =>
  writeResults(BENCH_DIR, 'ingest', report, (file) => {
    const s = report.server;
    const m = report.machine;
    return [
      `Run: **${report.date}** (${file}), ${report.met ? '**targets met**' : '**target MISSED**'}.`,
      '',
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. Load average at the end: ${s.load}.`,
      `Load: ${report.settings.publishingDevices} publishing devices (${report.settings.historyPerDevice} readings of history each), ${report.settings.idleDevices} idle ones, ${report.settings.streams} live streams of a Level-1 watcher managing ${report.settings.watchedDevices} devices; ${report.settings.ratePerSecond} messages/s offered for ${report.settings.durationSeconds} s.`,
      '',
      '| measure | result | target |',
      '|---|--:|--:|',
      `| ceiling: bare aedes, messages/s (one in flight per device) | ${report.ceiling.messagesPerSecond} | |`,
      `| persisted messages/s over the run (after ${report.settings.warmupSeconds} s) | ${s.persistedPerSecond} | ≥ ${report.target.messagesPerSecond} |`,
      `| persisted messages/s, slowest 5 s | ${s.lowestFiveSecondPerSecond} | |`,
      `| acknowledgement latency p50 / p99, ms | ${s.ackMs.p50} / ${s.ackMs.p99} | p99 ≤ ${report.target.ackP99Ms} |`,
      `| device-to-browser latency p50 / p95, ms (${s.liveEvents} readings seen) | ${s.liveMs.p50} / ${s.liveMs.p95} | p95 ≤ ${report.target.liveP95Ms} |`,
      `| server memory per idle device connection, KB | ${(s.bytesPerIdleConnection / 1024).toFixed(1)} | ≤ ${report.target.bytesPerIdleConnection / 1024} |`,
      `| server CPU per message, µs | ${s.cpuUsPerMessage ?? ''} | |`,
      `| the chambers' process, cores busy (ceiling run / server run) | ${report.ceiling.chambersCpuShare} / ${s.chambersCpuShare} | |`,
      `| the measuring process (${report.settings.streams} streams), cores busy | ${s.measuringCpuShare} | |`,
      `| messages the server held unsettled, sampled each second: p50 / max | ${s.heldBySecond.p50} / ${s.heldBySecond.max} | |`,
      `| sent / acknowledged / stored | ${s.sent} / ${s.acked} / ${s.stored} | every acknowledged one stored |`,
      '',
      ...(report.misses.length === 0 ? [] : ['Missed:', '', ...report.misses.map((miss) => `- ${miss}`), '']),
    ];
  });

const misses = (report: Omit<IngestReport, 'met' | 'misses'>): string[] => {
  const s = report.server;
  const t = report.target;
  return [
    s.persistedPerSecond < t.messagesPerSecond ? `persisted ${s.persistedPerSecond} messages/s < ${t.messagesPerSecond}` : '',
    s.ackMs.p99 > t.ackP99Ms ? `acknowledgement p99 ${s.ackMs.p99} ms > ${t.ackP99Ms} ms` : '',
    s.liveMs.p95 > t.liveP95Ms ? `live p95 ${s.liveMs.p95} ms > ${t.liveP95Ms} ms` : '',
    s.liveEvents === 0 ? 'no reading reached a live stream' : '',
    s.bytesPerIdleConnection > t.bytesPerIdleConnection ? `${(s.bytesPerIdleConnection / 1024).toFixed(1)} KB per idle connection > ${t.bytesPerIdleConnection / 1024} KB` : '',
    s.failed > 0 ? `${s.failed} publishes failed` : '',
    s.stored < s.acked ? `${s.acked - s.stored} acknowledged readings are not stored` : '',
  ].filter((miss) => miss !== '');
};

const main = async (): Promise<number> => {
  const date = new Date().toISOString();
  const host = machine();
  log(`bench:ingest ${date} on ${host.cpu}, ${host.cores} cores, Node ${host.node}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oxygen-ingest-'));
  const chambers = startChambers();
  const stops: (() => unknown)[] = [() => chambers.child.kill('SIGKILL')];
  try {
    const fleet = await seedIngest(dataDir, {
      publishing: settings.publishingDevices,
      idle: settings.idleDevices,
      watched: settings.watchedDevices,
      history: settings.historyPerDevice,
    });
    log(`seeded ${fleet.publishing.length} publishing devices (${settings.historyPerDevice} readings of history each) and ${fleet.idle.length} idle ones in ${dataDir}`);

    // Ceiling: the bare broker.
    const ceiling = await startCeiling();
    await chambers.ask({ type: 'connect', url: `mqtt://127.0.0.1:${ceiling.port}`, devices: fleet.publishing, publish: true });
    const ceilingRun = ran(await chambers.ask({ type: 'run', mode: 'max', ratePerSecond: 0, seconds: settings.ceilingSeconds }));
    await chambers.ask({ type: 'disconnect' });
    ceiling.child.kill('SIGKILL');
    const ceilingRate = Math.round(ceilingRun.acked / ceilingRun.seconds);
    log(`ceiling (bare aedes): ${ceilingRate} messages/s, PUBACK p50 ${ceilingRun.ackMs.p50} ms p99 ${ceilingRun.ackMs.p99} ms, chambers' process CPU ${ceilingRun.cpuShare}`);

    // The server.
    const profileDir = process.env.BENCH_CPU_PROF;
    const { server, brokerUrl } = await startFleetServer(dataDir, {
      nodeFlags: [...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), ...(profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)])],
    });
    stops.push(() => server.stop());
    const pid = server.process.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    await sleep(2000);
    const before = rssBytes(pid);
    await chambers.ask({ type: 'connect', url: brokerUrl, devices: fleet.idle, publish: false });
    await sleep(3000);
    const bytesPerIdleConnection = Math.round((rssBytes(pid) - before) / fleet.idle.length);
    log(`idle connections: ${(bytesPerIdleConnection / 1024).toFixed(1)} KB each (${fleet.idle.length} connected)`);

    await chambers.ask({ type: 'connect', url: brokerUrl, devices: fleet.publishing, publish: true });
    const token = await signInApi(server.url, WATCHER);
    const streams = await openStreams(server.url, token, settings.streams);
    stops.push(streams.close);
    const rows = sampleRows(path.join(dataDir, 'oxygen.db'));
    stops.push(rows.stop);
    const rowsBefore = rows.read();
    const cpuBefore = cpuTimeMs(pid);
    const ownCpuBefore = process.cpuUsage();
    streams.state.recording = true;
    const started = performance.now();
    const holding = await sampleHeld(server.url);
    const run = ran(await chambers.ask({ type: 'run', mode: 'open', ratePerSecond: settings.ratePerSecond, seconds: settings.durationSeconds }));
    holding.stop();
    streams.state.recording = false;
    const cpuAfter = cpuTimeMs(pid);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    // Every acknowledged reading must be in the store (the PUBACK waited for its commit).
    for (let waited = 0; rows.read() - rowsBefore < run.acked && waited < 10_000; waited += 100) await sleep(100);
    const stored = rows.countAfter(rowsBefore);
    const window = rows.samples.filter((sample) => sample.at >= started + settings.warmupSeconds * 1000 && sample.at <= started + settings.durationSeconds * 1000);
    const first = window[0];
    const last = window[window.length - 1];
    const persistedPerSecond = first !== undefined && last !== undefined && last.at > first.at ? Math.round(((last.rows - first.rows) * 1000) / (last.at - first.at)) : 0;
    let lowest = Number.POSITIVE_INFINITY;
    for (let index = 5; index < window.length; index += 1) {
      const a = window[index - 5];
      const b = window[index];
      if (a !== undefined && b !== undefined) lowest = Math.min(lowest, ((b.rows - a.rows) * 1000) / (b.at - a.at));
    }
    const partial: Omit<IngestReport, 'met' | 'misses'> = {
      date,
      machine: host,
      settings,
      target: INGEST_TARGET,
      ceiling: { messagesPerSecond: ceilingRate, ackMs: ceilingRun.ackMs, chambersCpuShare: ceilingRun.cpuShare },
      server: {
        offeredPerSecond: settings.ratePerSecond,
        sent: run.sent,
        acked: run.acked,
        failed: run.failed,
        stored,
        persistedPerSecond,
        lowestFiveSecondPerSecond: Number.isFinite(lowest) ? Math.round(lowest) : 0,
        ackMs: run.ackMs,
        liveMs: percentiles(streams.latencies),
        liveEvents: streams.latencies.length,
        bytesPerIdleConnection,
        cpuUsPerMessage: cpuBefore === undefined || cpuAfter === undefined || run.acked === 0 ? null : Math.round(((cpuAfter - cpuBefore) * 1000) / run.acked),
        chambersCpuShare: run.cpuShare,
        measuringCpuShare: Math.round(((ownCpu.user + ownCpu.system) / 1e6 / run.seconds) * 100) / 100,
        heldBySecond: percentiles(holding.held),
        load: loadAverage(),
      },
    };
    const problems = misses(partial);
    const report: IngestReport = { ...partial, met: problems.length === 0, misses: problems };
    log(JSON.stringify(report.server, null, 2));
    if (process.env.BENCH_NO_REPORT !== '1') log(`results: ${path.relative(ROOT_DIR, writeIngestReport(report))}`);
    return verdict(problems);
  } finally {
    await cleanUp(stops, dataDir);
  }
};


runBenchmark('bench:ingest', main);
