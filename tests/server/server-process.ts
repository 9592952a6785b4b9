import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import mqtt from 'mqtt';

/**
 * server/main.ts as a real process: from source through tsx, or compiled as `npm start` runs it
 * (`npm run build:server`: dist/server/main.js) with plain node. Its environment is the test's without
 * the server's own variables, then `env`; it has started once its "ready at" line names its port.
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** The "ready at" line. */
  ready: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  env: Record<string, string>;
  args?: string[];
  /** The directory of a compiled server (`buildServer`) to run with plain node, instead of server/main.ts through tsx. */
  compiled?: string;
  /** How long the start may take: each process loads tsx first, and a busy two-core machine is slow. */
  timeoutMs?: number;
}

const running = new Set<ChildProcess>();

/** SIGKILLs every server process started here and still running (a test's afterEach). */
export const killServers = (): void => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running.clear();
};

const SERVER_VARIABLES = ['DATABASE_URL', 'ADMIN_PASSWORD', 'ADMIN_ACCOUNT', 'API_PREFIX', 'PORT', 'HOST', 'WORKERS', 'TRUST_PROXY'];

/**
 * Compiles the server as `npm run build:server` does, into a directory of its own under dist/ (inside the
 * package, so its dependencies resolve from node_modules); `remove` deletes it.
 */
export const buildServer = async (): Promise<{ dir: string; remove: () => Promise<void> }> => {
  const dir = path.join(ROOT, 'dist', `server-test-${process.pid}`);
  await promisify(execFile)('npm', ['run', 'build:server', '--', `--outdir=${dir}`], { cwd: ROOT });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
};

export const startServer = ({ env, args = [], compiled, timeoutMs = 45_000 }: StartOptions): Promise<ServerProcess> => {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVER_VARIABLES.includes(name) && !name.startsWith('MQTT_')));
  const entry = compiled === undefined ? ['--import', 'tsx', 'server/main.ts'] : [path.join(compiled, 'main.js')];
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: ROOT,
    env: { ...base, PORT: '0', HOST: '127.0.0.1', SCRYPT_COST: '12', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), timeoutMs);
    const check = () => {
      const ready = /ready at http:\/\/127\.0\.0\.1:(\d+)\/.*/.exec(output);
      if (ready?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve({ child, port: Number(ready[1]), ready: ready[0], output: () => output, exit });
    };
    child.stdout.on('data', check);
    void exit.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    });
  });
};

/** Ends the broker sessions of server instances gone for good (docs/mqtt.md: connect once with a clean start). */
export const endBrokerSessions = (url: string, clientIds: readonly string[]): Promise<unknown> =>
  Promise.all(clientIds.map(async (clientId) => (await mqtt.connectAsync(url, { clientId, clean: true, protocolVersion: 5, reconnectPeriod: 0 })).endAsync()));
