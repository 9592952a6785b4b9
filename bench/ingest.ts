import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DevicePatch } from '../src/domain/live';
import { createEventStreamParser, readEventStream } from '../src/domain/eventStream';
import { alsoOnInterrupt } from './children';
import { bottleneckLine, measureCpu, mosquittoPart, postgresPart, profileTop, type Part } from './cpu';
import { deploymentsToRun, describeDeployment, forgetChambers, mosquittoDropped, resultsKind, runTag, startInstances, type Deployment } from './deployment';
import { cleanUp, INGEST_DEVICES, INGEST_RATE, INGEST_WATCHED, loadAverage, openLiveStreams, ran, ROOT_DIR, sampleHeld, sampleRows, signInApi, startChambers } from './fleet';
import { ingestTable, runMisses, SCALEOUT_TARGET, targetOf, type IngestReport, type IngestRun } from './ingest-report';
import { percentiles } from './ingest-load';
import { HISTORY_PER_DEVICE, ingestEnv, seedIngest, WATCHER, type IngestFleet } from './ingest-seed';
import { machine, numberSetting, runBenchmark, verdict, writeResults } from './report';
import { openStore } from './store';

/**
 * `npm run bench:ingest`: chambers publish QoS 1 telemetry while browsers watch the live stream, in the
 * configuration BENCH_STORE, BENCH_BROKER and BENCH_INSTANCES name (bench/deployment.ts; by default
 * SQLite, the embedded broker, one instance), or with BENCH_COMPARE=1 the embedded one first, then that.
 *
 * 1. Seeds a fresh store (bench/ingest-seed.ts): publishing devices with HISTORY_PER_DEVICE earlier
 *    readings each (the store's steady state), idle devices, a watcher.
 * 2. Ceiling (once): a bare aedes broker (bench/broker-ceiling.ts); the publishing devices publish as
 *    fast as acknowledgements allow (one in flight each) for BENCH_CEILING_SECONDS.
 * 3. The servers (server/main.ts, one process an instance): the idle devices connect (with the embedded
 *    broker, server memory per connection: its RSS before and after), the watcher opens BENCH_STREAMS
 *    live streams on the first instance, then the publishing devices publish BENCH_RATE messages/s in
 *    total for BENCH_DURATION seconds on a fixed schedule. Measured: rows persisted per second (the
 *    readings' newest id, sampled every second), publish-to-PUBACK latency (the embedded broker's PUBACK
 *    waits for the commit; Mosquitto's for its receipt), device-to-browser latency (a reading's Time to
 *    its arrival on a stream), CPU by part, and afterwards every acknowledged reading stored once.
 * 4. Writes bench/results/ingest-<configuration>-<date>.json and prints the runs side by side; exits 1
 *    when a target is missed or an acknowledged reading is not stored exactly once.
 */

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

const settings = {
  /** Offered load; by default each configuration's target and 2.5 % (the embedded 10,250, the scale-out 5,125). */
  ratePerSecond: process.env.BENCH_RATE === undefined ? null : numberSetting('BENCH_RATE', INGEST_RATE),
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
const rateOf = (deployment: Deployment): number => settings.ratePerSecond ?? Math.round(targetOf(deployment).messagesPerSecond * 1.025);

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
  const streams = await openLiveStreams(url, token, count, (body) =>
    readEventStream(
      body,
      createEventStreamParser((message) => {
        if (message.event !== 'device') return;
        // No schema check here: the measuring process must stay light (the server's tests check the events).
        const reading = (JSON.parse(message.data) as DevicePatch).Reading;
        if (reading === undefined) return;
        state.events += 1;
        if (state.recording) latencies.push(Date.now() - reading.Time);
      }),
    ),
  );
  return { latencies, state, close: streams.close };
};

type Chambers = ReturnType<typeof startChambers>;

/** The bare broker's rate with these chambers, one in flight each. */
const measureCeiling = async (chambers: Chambers, devices: IngestFleet['publishing']): Promise<IngestReport['ceiling']> => {
  const ceiling = await startCeiling();
  try {
    await chambers.ask({ type: 'connect', url: `mqtt://127.0.0.1:${ceiling.port}`, devices, publish: true });
    const run = ran(await chambers.ask({ type: 'run', mode: 'max', ratePerSecond: 0, seconds: settings.ceilingSeconds }));
    await chambers.ask({ type: 'disconnect' });
    const messagesPerSecond = Math.round(run.acked / run.seconds);
    log(`ceiling (bare aedes): ${messagesPerSecond} messages/s, PUBACK p50 ${run.ackMs.p50} ms p99 ${run.ackMs.p99} ms, chambers' process CPU ${run.cpuShare}`);
    return { messagesPerSecond, ackMs: run.ackMs, chambersCpuShare: run.cpuShare };
  } finally {
    ceiling.child.kill('SIGKILL');
  }
};

/** The persisted rate over the window after the warm-up, and its slowest 5 s. */
const rates = (samples: readonly { at: number; rows: number }[], started: number) => {
  const window = samples.filter((sample) => sample.at >= started + settings.warmupSeconds * 1000 && sample.at <= started + settings.durationSeconds * 1000);
  const first = window[0];
  const last = window[window.length - 1];
  let lowest = Number.POSITIVE_INFINITY;
  for (let index = 5; index < window.length; index += 1) {
    const a = window[index - 5];
    const b = window[index];
    if (a !== undefined && b !== undefined) lowest = Math.min(lowest, ((b.rows - a.rows) * 1000) / (b.at - a.at));
  }
  return {
    persistedPerSecond: first !== undefined && last !== undefined && last.at > first.at ? Math.round(((last.rows - first.rows) * 1000) / (last.at - first.at)) : 0,
    lowestFiveSecondPerSecond: Number.isFinite(lowest) ? Math.round(lowest) : 0,
  };
};

/** One configuration: seed its store, start its instances, load them, count; everything it started is gone when it returns. */
const measureRun = async (deployment: Deployment, chambers: Chambers, ceiling: { value?: IngestReport['ceiling'] }): Promise<IngestRun> => {
  const configuration = describeDeployment(deployment);
  const run = runTag();
  log(`\n${configuration} (run ${run}):`);
  const store = await openStore(deployment.store, 'oxygen-ingest-');
  const stops: (() => unknown)[] = [store.drop];
  const interrupted = alsoOnInterrupt(() => cleanUp(stops, store.dataDir));
  const shared = deployment.broker === 'mosquitto';
  try {
    const fleet = await seedIngest(
      store,
      { publishing: settings.publishingDevices, idle: settings.idleDevices, watched: settings.watchedDevices, history: settings.historyPerDevice },
      shared ? run : '',
    );
    log(`seeded ${fleet.publishing.length} publishing devices (${settings.historyPerDevice} readings of history each) and ${fleet.idle.length} idle ones on ${store.database ?? store.dataDir}`);
    ceiling.value ??= await measureCeiling(chambers, fleet.publishing);

    const profileDir = process.env.BENCH_CPU_PROF === undefined ? undefined : path.resolve(process.env.BENCH_CPU_PROF);
    const nodeFlags = [...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), ...(profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir])];
    const instances = await startInstances(deployment, ingestEnv(store), run, { root: ROOT_DIR, nodeFlags });
    // Chambers on a shared broker leave their sessions and retained statuses behind unless forgotten.
    if (shared) stops.push(() => forgetChambers(instances.brokerUrl, [...fleet.publishing, ...fleet.idle].map((device) => device.id)));
    stops.push(instances.stop, () => chambers.ask({ type: 'disconnect' }));
    const [first] = instances.servers;
    const pids = instances.servers.map((server) => server.process.pid ?? 0);
    if (first === undefined || pids.includes(0)) throw new Error('a server has no pid');
    await sleep(2000);
    const before = rssBytes(pids[0] ?? 0);
    await chambers.ask({ type: 'connect', url: instances.brokerUrl, devices: fleet.idle, publish: false });
    await sleep(3000);
    const bytesPerIdleConnection = shared || fleet.idle.length === 0 ? null : Math.round((rssBytes(pids[0] ?? 0) - before) / fleet.idle.length);
    if (bytesPerIdleConnection !== null) log(`idle connections: ${(bytesPerIdleConnection / 1024).toFixed(1)} KB each (${fleet.idle.length} connected)`);

    await chambers.ask({ type: 'connect', url: instances.brokerUrl, devices: fleet.publishing, publish: true });
    const streams = await openStreams(first.url, await signInApi(first.url, WATCHER), settings.streams);
    stops.push(streams.close);
    const readings = await store.readings();
    stops.push(readings.close);
    const rows = sampleRows(readings);
    stops.push(rows.stop);
    const rowsBefore = await readings.newest();
    const parts: Part[] = [
      ...pids.map((pid, index) => ({ name: pids.length === 1 ? 'server' : `instance ${index + 1}`, pids: async () => [pid] })),
      ...(store.database === undefined ? [] : [postgresPart(store.database)]),
      ...(shared ? [mosquittoPart()] : []),
      { name: 'chambers', pids: async () => [chambers.child.pid ?? 0] },
    ];
    const droppedBefore = shared ? await mosquittoDropped(instances.brokerUrl) : null;
    const cpu = await measureCpu(parts);
    const ownCpuBefore = process.cpuUsage();
    const holding = await Promise.all(instances.servers.map((server) => sampleHeld(server.url)));
    streams.state.recording = true;
    const started = performance.now();
    const offered = rateOf(deployment);
    const load = ran(await chambers.ask({ type: 'run', mode: 'open', ratePerSecond: offered, seconds: settings.durationSeconds }));
    const loadEnded = performance.now();
    streams.state.recording = false;
    for (const held of holding) held.stop();
    const shares = await cpu.stop();
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const serversMs = shares.parts.slice(0, pids.length).reduce((sum, part) => sum + part.cores * load.seconds * 1000, 0);
    // Every acknowledged reading must be stored once (the embedded broker's PUBACK waited for its commit;
    // Mosquitto's did not, so what it holds for the instances may still be on its way).
    let counted = await readings.after(rowsBefore);
    for (const deadline = Date.now() + 30_000; counted.distinct < load.acked && Date.now() < deadline; counted = await readings.after(rowsBefore)) await sleep(1000);
    rows.stop();
    // Once Mosquitto has renewed its $SYS counters (every 10 s) since the load ended.
    if (shared) await sleep(Math.max(0, loadEnded - performance.now() + 11_000));
    const droppedAfter = shared ? await mosquittoDropped(instances.brokerUrl) : null;
    await chambers.ask({ type: 'disconnect' });
    // Stopped before the report: a profiled instance writes its profile as it exits.
    await instances.stop();
    const profile = profileDir === undefined ? [] : profileTop(profileDir, pids[0] ?? 0);
    const partial: Omit<IngestRun, 'misses'> = {
      configuration,
      deployment,
      target: targetOf(deployment),
      offeredPerSecond: offered,
      sent: load.sent,
      acked: load.acked,
      failed: load.failed,
      stored: {
        rows: counted.rows,
        distinct: counted.distinct,
        duplicates: counted.rows - counted.distinct,
        missing: Math.max(0, load.acked - counted.distinct),
        exactlyOnce: counted.rows === counted.distinct && counted.distinct >= load.acked,
      },
      brokerDropped: droppedBefore === null || droppedAfter === null ? null : droppedAfter - droppedBefore,
      ...rates(rows.samples, started),
      ackMs: load.ackMs,
      liveMs: percentiles(streams.latencies),
      liveEvents: streams.latencies.length,
      bytesPerIdleConnection,
      cpuUsPerMessage: load.acked === 0 ? null : Math.round((serversMs * 1000) / load.acked),
      cpu: shares,
      bottleneck: bottleneckLine(shares, machine().cores, profile),
      measuringCpuShare: Math.round(((ownCpu.user + ownCpu.system) / 1e6 / load.seconds) * 100) / 100,
      heldBySecond: holding.map((held) => percentiles(held.held)),
      load: loadAverage(),
    };
    const result: IngestRun = { ...partial, misses: runMisses(partial) };
    log(JSON.stringify({ ...result, deployment: undefined, target: undefined }, null, 2));
    return result;
  } finally {
    interrupted();
    await cleanUp(stops, store.dataDir);
  }
};

const main = async (): Promise<number> => {
  const date = new Date().toISOString();
  const host = machine();
  const deployments = deploymentsToRun();
  log(`bench:ingest ${date} on ${host.cpu}, ${host.cores} cores, Node ${host.node}: ${deployments.map(describeDeployment).join(', then ')}`);
  const chambers = startChambers();
  try {
    const ceiling: { value?: IngestReport['ceiling'] } = {};
    const runs: IngestRun[] = [];
    for (const deployment of deployments) runs.push(await measureRun(deployment, chambers, ceiling));
    const problems = runs.flatMap((run) => run.misses);
    if (ceiling.value === undefined) throw new Error('no ceiling measured');
    const report: IngestReport = { date, machine: host, settings: { ...settings, configurations: deployments.map(describeDeployment), scaleOutTarget: SCALEOUT_TARGET }, ceiling: ceiling.value, runs, met: problems.length === 0, misses: problems };
    const summary = (file: string): string[] => [
      `Run: **${report.date}** (${file}), ${report.met ? '**targets met**' : '**target MISSED**'}.`,
      '',
      `Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, ${host.os}, Node ${host.node}.`,
      `Load: ${settings.publishingDevices} publishing devices (${settings.historyPerDevice} readings of history each), ${settings.idleDevices} idle ones, ${settings.streams} live streams of a Level-1 watcher managing ${settings.watchedDevices} devices, for ${settings.durationSeconds} s; ceiling (bare aedes, one in flight per device) ${report.ceiling.messagesPerSecond} messages/s.`,
      '',
      ...ingestTable(report),
      '',
      ...(problems.length === 0 ? [] : ['Missed:', '', ...problems.map((miss) => `- ${miss}`), '']),
    ];
    if (process.env.BENCH_NO_REPORT === '1') log(summary('not written').join('\n'));
    else log(`results: ${path.relative(ROOT_DIR, writeResults(BENCH_DIR, resultsKind('ingest', deployments), report, summary))}`);
    return verdict(problems);
  } finally {
    chambers.child.kill('SIGKILL');
  }
};

runBenchmark('bench:ingest', main);
