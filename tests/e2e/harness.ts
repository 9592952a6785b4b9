import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

/** A free TCP port on loopback: the project never assumes 8080 or 1883 are free (Mosquitto holds 1883). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

export interface RunningServer {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the real server as it ships (`npm run build`'s compiled server and console, run with plain node as
 * `npm start` does), SQLite in a temp dir, on free ports; test:e2e builds first.
 */
export const startServer = async (args: string[] = ['--demo'], env: Record<string, string> = {}): Promise<RunningServer> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'oxygen-e2e-'));
  const port = await freePort();
  const mqttPort = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js', ...args], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${url}/healthz`).then((response) => response.ok, () => false);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`server did not start in 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/**
 * A POST to the running server (a call of the upstream contract or of the REST API) that must succeed:
 * the upstream's answer is its envelope's `data`, the REST API's the body itself.
 */
export const postTo = async <T>(serverUrl: string, path: string, body: unknown, token?: string): Promise<T> => {
  const response = await fetch(`${serverUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  const answer = (await response.json()) as { data?: T } & T;
  return path.startsWith('/upstream') ? (answer.data as T) : answer;
};

/** Debian's Chromium, headless, with the flags this closed network needs; never a downloaded browser. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });

/**
 * The demo server and Chromium for one spec file: started before its tests (in parallel), stopped after.
 * `env` is read then, so a spec may pick its own ports first.
 */
export const serverAndBrowserForThisFile = (env: () => Promise<Record<string, string>> | Record<string, string> = () => ({})) => {
  const running = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [running.server, running.browser] = await Promise.all([startServer(['--demo'], await env()), launchChromium()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.stop();
  });
  return running;
};

/** Fills the Chinese login page's form the way a person does: both fields, then the button. */
export const fillSignIn = async (page: Page, account: string, password: string) => {
  await page.getByLabel('用户名', { exact: true }).fill(account);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
};

/** Signs in on the Chinese login page at `url` and waits for the workplace. */
export const signIn = async (page: Page, url: string, account: string, password: string) => {
  await page.goto(`${url}/login`);
  await fillSignIn(page, account, password);
  await page.waitForURL('**/dashboard/workplace');
};

export interface RunningConsole {
  url: string;
  stop: () => Promise<void>;
}

/** `npm run dev:mock` on a free port: the console alone, every call answered by msw in the browser; `env` adds build variables. */
export const startMockConsole = async (env: Record<string, string> = {}): Promise<RunningConsole> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const vite = spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--mode', 'mock', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  vite.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  vite.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!(await fetch(url).then((response) => response.ok, () => false))) {
    if (vite.exitCode !== null || Date.now() > deadline) throw new Error(`vite --mode mock did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    stop: async () => {
      if (vite.exitCode !== null) return;
      const exited = new Promise((resolve) => vite.once('exit', resolve));
      vite.kill('SIGTERM');
      await exited;
    },
  };
};
