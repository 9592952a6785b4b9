import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/** server/main.ts as a real process: start, serve, SIGTERM → exit 0. SQLite in a temp DATA_DIR. */

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];

const start = (env: Record<string, string>, args: string[] = []): Promise<Started> => {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['DATABASE_URL', 'ADMIN_PASSWORD', 'ADMIN_ACCOUNT', 'API_PREFIX', 'PORT', 'HOST'].includes(name),
    ),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    cwd: ROOT,
    env: { ...base, PORT: '0', HOST: '127.0.0.1', SCRYPT_COST: '12', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const check = () => {
      const match = /ready at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), output: () => output, exit });
      }
    };
    child.stdout?.on('data', check);
    void exit.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    });
  });
};

describe('server/main.ts', () => {
  let dataDir = '';
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'oxygen-main-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const env = () => ({ DATA_DIR: dataDir, CONSOLE_DIR: path.join(dataDir, 'no-console') });

  it('starts, prints the generated password once, serves, and exits 0 on SIGTERM', async () => {
    const server = await start(env());
    const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });

    const login = await fetch(`http://127.0.0.1:${server.port}/upstream/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'admin', Code: 'Wrong2026' }),
    });
    expect(await login.json()).toMatchObject({ code: 20000, data: { State: false } });

    const notices = server.output().match(/password: \S+/g) ?? [];
    expect(notices).toHaveLength(1);
    const password = notices[0]?.slice('password: '.length) ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);

    server.child.kill('SIGTERM');
    expect(await server.exit).toEqual({ code: 0, signal: null });
    // The password went to stdout once, never through the logger.
    expect(server.output().split(password).length - 1).toBe(1);
  });

  it('does not print a password again on the next start; --demo adds the demo accounts; SIGINT exits 0', async () => {
    const server = await start(env(), ['--demo']);
    expect(server.output()).not.toMatch(/password: /);
    expect(server.output()).toContain('demo accounts created: first, second, client');
    expect(server.output()).toContain('demo fleet added: 12 devices, 14 assignments, 3600 state records, 60 orders');
    const login = await fetch(`http://127.0.0.1:${server.port}/upstream/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'client', Code: 'Client2026' }),
    });
    expect(await login.json()).toMatchObject({ code: 20000, data: { State: true, Level: 3 } });
    server.child.kill('SIGINT');
    expect(await server.exit).toEqual({ code: 0, signal: null });
  });

  it('with WORKERS=2 prepares the store once, answers from two workers, and stops them all on SIGTERM (exit 0)', async () => {
    const server = await start({ ...env(), WORKERS: '2' }, ['--demo']);
    expect(server.output()).toContain('2 workers');
    // The store was prepared before (earlier tests): the primary found it ready, no worker touched it.
    expect(server.output()).toContain('demo fleet already present');
    expect(server.output().match(/demo accounts/g) ?? []).toHaveLength(1);
    // Each worker logs its own "Server listening" from its own process: it may reach the pipe just after the primary's "ready".
    const listeningLines = () => server.output().match(/"pid":(\d+)[^\n]*Server listening/g) ?? [];
    for (let wait = 0; wait < 50 && listeningLines().length < 2; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const listening = listeningLines();
    expect(listening).toHaveLength(2);
    const workerPids = listening.map((line) => Number(/"pid":(\d+)/.exec(line)?.[1]));
    expect(workerPids).not.toContain(server.child.pid);

    // Sign in through one worker, use the token through the others (sessions live in the store).
    const base = `http://127.0.0.1:${server.port}`;
    const login = await fetch(`${base}/upstream/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'client', Code: 'Client2026' }),
    });
    const signedIn = (await login.json()) as { code: number; data: { token: string } };
    expect(signedIn.code).toBe(20000);
    for (let round = 0; round < 6; round += 1) {
      const info = await fetch(`${base}/upstream/api/user/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${signedIn.data.token}`, connection: 'close' },
        body: '{}',
      });
      expect(await info.json()).toMatchObject({ code: 20000, data: { Account: 'client' } });
    }

    server.child.kill('SIGTERM');
    expect(await server.exit).toEqual({ code: 0, signal: null });
    for (const pid of workerPids) expect(() => process.kill(pid, 0)).toThrow();
  });

  it('refuses a bad configuration with exit 1, naming the variable', async () => {
    await expect(start({ ...env(), TOKEN_MAX_HOURS: 'forever' })).rejects.toThrow(/exited \(1\)[\s\S]*TOKEN_MAX_HOURS/);
  });
});
