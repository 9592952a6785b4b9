import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The servers under test run in child processes, so autocannon (in the benchmark's own process) never
 * shares their event loop. Every child started here is stopped when the benchmark ends, fails or is
 * interrupted.
 */

const running = new Set<ChildProcess>();

const killAll = (): void => {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
};
process.on('exit', killAll);

/** Clean-ups that must run even when the benchmark is interrupted: a database to drop, broker sessions to end. */
const onInterrupt = new Set<() => Promise<unknown>>();

/** Runs `cleanUp` also if the benchmark is interrupted (SIGINT, SIGTERM) before it answers; call the answer once it ran. */
export const alsoOnInterrupt = (cleanUp: () => Promise<unknown>): (() => void) => {
  onInterrupt.add(cleanUp);
  return () => onInterrupt.delete(cleanUp);
};

for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15]] as const) {
  process.on(signal, () => {
    killAll();
    // At most 20 s: a clean-up that hangs must not keep the benchmark from ending.
    const cleanUps = Promise.allSettled([...onInterrupt].map((cleanUp) => cleanUp()));
    void Promise.race([cleanUps, new Promise((resolve) => setTimeout(resolve, 20_000))]).finally(() => process.exit(128 + number));
  });
}

/** A port nobody listens on right now (the OS's choice), for a child to listen on. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });

/** The pids of a process's children (Linux, /proc/<pid>/task/<tid>/children). */
const childPids = (pid: number): number[] => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
          .split(' ')
          .filter((field) => field.trim() !== '')
          .map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
};

const ownCpuTimeMs = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'; utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
};

/**
 * CPU time (user + system, ms) a process and its live descendants (cluster workers) have used so far,
 * from /proc (Linux); undefined elsewhere. Per request, it tells what a request costs the server
 * independently of what else runs on the machine.
 */
export const cpuTimeMs = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined;
  const own = ownCpuTimeMs(pid);
  if (own === undefined) return undefined;
  return childPids(pid).reduce((sum, child) => sum + (cpuTimeMs(child) ?? 0), own);
};

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface Child {
  url: string;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
}

export interface StartOptions {
  /** The TypeScript entry, relative to `cwd`, run with `node --import tsx`. */
  entry: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** A GET path that answers 200 once the server is ready. */
  readyPath: string;
  readyTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const startChild = async (options: StartOptions): Promise<Child> => {
  const port = await freePort();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', options.entry], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (graceMs = 10_000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.entry} exited before it was ready (code ${child.exitCode ?? child.signalCode})`);
    }
    try {
      const answer = await fetch(`${url}${options.readyPath}`);
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.entry} was not ready within ${options.readyTimeoutMs ?? 60_000} ms`);
    }
    await sleep(100);
  }
  return { url, process: child, stop };
};
