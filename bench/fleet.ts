import { fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Child } from './children';
import { EMBEDDED, startInstances } from './deployment';
import type { LoadAnswer, LoadCommand } from './ingest-load';
import { ingestEnv } from './ingest-seed';
import { ROOT } from './seed';
import { sqliteStore, type Readings } from './store';

/**
 * What the benchmarks with a fleet publishing over MQTT share (bench:ingest, bench:monitor,
 * bench:alarms): the chambers' process, the real server with its embedded broker on a seeded store, a
 * REST sign-in, the store's persisted readings and the machine's load.
 */

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT_DIR = path.dirname(BENCH_DIR);

export const INGEST_TARGET = { messagesPerSecond: 10_000, ackP99Ms: 200, liveP95Ms: 150, bytesPerIdleConnection: 30 * 1024 } as const;

/**
 * The ingest load: INGEST_RATE readings a second in all from INGEST_DEVICES chambers, a Level-1 watcher
 * managing INGEST_WATCHED of them. Offered 2.5 % above the target: the window's persisted rate is the
 * offered rate give or take what the server holds at the window's two ends (±1 %), so with exactly
 * 10,000 offered "at least 10,000 sustained" read 9,9xx or 10,0xx by chance (docs/performance.md).
 * Latencies are measured at this load.
 */
export const INGEST_RATE = Math.round(INGEST_TARGET.messagesPerSecond * 1.025);
export const INGEST_DEVICES = 2_000;
export const INGEST_WATCHED = 100;

interface Chambers {
  child: ChildProcess;
  /** One command to the chambers' process and its answer (an `error` answer rejects). */
  ask: (command: LoadCommand) => Promise<LoadAnswer>;
}

/** The chambers (bench/ingest-load.ts) in their own process, so they never share the measuring process's event loop. */
export const startChambers = (): Chambers => {
  const child = fork(path.join(BENCH_DIR, 'ingest-load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (command: LoadCommand): Promise<LoadAnswer> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the chambers' process exited (${String(code)})`));
      child.once('exit', onExit);
      child.once('message', (answer: LoadAnswer) => {
        child.off('exit', onExit);
        if (answer.type === 'error') reject(new Error(`chambers: ${answer.message}`));
        else resolve(answer);
      });
      child.send(command);
    });
  return { child, ask };
};

/** A run's answer, or an error when the chambers answered something else. */
export const ran = (answer: LoadAnswer) => {
  if (answer.type !== 'ran') throw new Error(`unexpected answer ${answer.type}`);
  return answer;
};

interface FleetServer {
  server: Child;
  brokerUrl: string;
}

/**
 * `server/main.ts` in a child process on the store `seedIngest` wrote, its embedded broker on a free
 * port; `consoleDir` is the built console it serves (none by default).
 */
export const startFleetServer = async (dataDir: string, options: { consoleDir?: string } = {}): Promise<FleetServer> => {
  const env = { ...ingestEnv(sqliteStore(dataDir)), ...(options.consoleDir === undefined ? {} : { CONSOLE_DIR: options.consoleDir }) };
  const { servers, brokerUrl } = await startInstances(EMBEDDED, env, '', { root: ROOT_DIR });
  const [server] = servers;
  if (server === undefined) throw new Error('no server started');
  return { server, brokerUrl };
};

/** A session token of `account` (`POST /upstream/login`), for REST calls and live streams. */
export const signInApi = async (url: string, account: { Account: string; Code: string }): Promise<string> => {
  const answer = await fetch(`${url}/upstream/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const envelope = (await answer.json()) as { data?: { token?: string } };
  if (!answer.ok || typeof envelope.data?.token !== 'string') throw new Error(`sign-in as ${account.Account} failed: HTTP ${answer.status}`);
  return envelope.data.token;
};

/**
 * `count` live streams of the account `token` signs in (`GET /api/v1/live`), each body handed to `consume`
 * (which reads it to its end); `close` aborts them all.
 */
export const openLiveStreams = async (url: string, token: string, count: number, consume: (body: ReadableStream<Uint8Array>) => Promise<unknown>) => {
  const controller = new AbortController();
  for (let index = 0; index < count; index += 1) {
    const answer = await fetch(`${url}/api/v1/live`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    if (!answer.ok || answer.body === null) throw new Error(`live stream ${index}: HTTP ${answer.status}`);
    // Ends when the streams are aborted at the end.
    void consume(answer.body).catch(() => undefined);
  }
  return { close: () => controller.abort() };
};

/** Reads a stream to its end and keeps nothing: a console's stream the server must still write. */
export const discardStream = async (body: ReadableStream<Uint8Array>): Promise<void> => {
  const reader = body.getReader();
  while (!(await reader.read()).done);
};

/** The machine's 1, 5 and 15-minute load averages, to 0.01. */
export const loadAverages = (): number[] => os.loadavg().map((value) => Math.round(value * 100) / 100);

/** The machine's 1-minute load average, to 0.01. */
export const loadAverage = (): number => loadAverages()[0] ?? 0;

/** Rows persisted, sampled every second from the store (its newest id; readings are only ever added). */
export const sampleRows = (readings: Readings) => {
  const samples: { at: number; rows: number }[] = [];
  const timer = setInterval(() => {
    const at = performance.now();
    void readings.newest().then((rows) => samples.push({ at, rows }), () => undefined);
  }, 1000);
  return { samples, stop: () => clearInterval(timer) };
};

/**
 * Stops what a run started, the last started first, then deletes its data directory; a stop that fails
 * is reported and the others still run, so one failure leaves nothing else behind.
 */
export const cleanUp = async (stops: readonly (() => unknown)[], dataDir: string): Promise<void> => {
  for (const stop of [...stops].reverse()) {
    try {
      await stop();
    } catch (error) {
      process.stderr.write(`clean-up: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
};

/**
 * What the server holds unsettled (its /healthz `mqtt.pending`, read with the super administrator's token),
 * sampled every second: by Little's law, the wait it adds to every reading.
 */
export const sampleHeld = async (url: string) => {
  const token = await signInApi(url, ROOT);
  const held: number[] = [];
  const timer = setInterval(() => {
    void fetch(`${url}/healthz`, { headers: { authorization: `Bearer ${token}` } })
      .then(async (answer) => held.push(((await answer.json()) as { mqtt?: { pending?: number } }).mqtt?.pending ?? 0))
      .catch(() => undefined);
  }, 1000);
  return { held, stop: () => clearInterval(timer) };
};
