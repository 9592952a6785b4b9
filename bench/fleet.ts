import { fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { freePort, startChild, type Child } from './children';
import type { LoadAnswer, LoadCommand } from './ingest-load';
import { ingestEnv } from './ingest-seed';
import { ROOT } from './seed';

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
export const startFleetServer = async (dataDir: string, options: { consoleDir?: string; nodeFlags?: string[] } = {}): Promise<FleetServer> => {
  const mqttPort = await freePort();
  const env = { ...ingestEnv(dataDir, mqttPort), ...(options.consoleDir === undefined ? {} : { CONSOLE_DIR: options.consoleDir }) };
  const server = await startChild({ entry: 'server/main.ts', cwd: ROOT_DIR, env, nodeFlags: options.nodeFlags ?? [], readyPath: '/healthz' });
  return { server, brokerUrl: `mqtt://127.0.0.1:${mqttPort}` };
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

/** The machine's 1, 5 and 15-minute load averages, to 0.01. */
export const loadAverages = (): number[] => os.loadavg().map((value) => Math.round(value * 100) / 100);

/** The machine's 1-minute load average, to 0.01. */
export const loadAverage = (): number => loadAverages()[0] ?? 0;

/** Rows persisted, sampled every second from the store (its newest rowid; readings are only ever added). */
export const sampleRows = (file: string) => {
  const reader = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  const newest = reader.prepare('select coalesce(max(id), 0) as rows from state_records');
  const read = (): number => (newest.get() as { rows: number }).rows;
  const samples: { at: number; rows: number }[] = [];
  const timer = setInterval(() => samples.push({ at: performance.now(), rows: read() }), 1000);
  return {
    samples,
    read,
    /** Readings stored after the row `after` (the seeded history comes before the run's first). */
    countAfter: (after: number): number => (reader.prepare('select count(*) as n from state_records where id > ?').get(after) as { n: number }).n,
    stop: () => {
      clearInterval(timer);
      reader.close();
    },
  };
};

/** Stops what a run started, the last started first, then deletes its data directory. */
export const cleanUp = async (stops: readonly (() => unknown)[], dataDir: string): Promise<void> => {
  for (const stop of [...stops].reverse()) await stop();
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
