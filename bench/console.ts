import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { ensureBuilt } from './build';
import { startChild } from './children';
import { machine, numberSetting, writeResults, type Machine } from './report';
import { UNLIMITED } from './seed';

/**
 * npm run bench:console: how fast the console becomes usable on a slow link. The real server (built
 * console, compressed assets) in a child process; Debian's Chromium through playwright-core with a cold
 * cache and the link throttled over CDP; per run, the compressed script bytes the login route transfers
 * and the time from navigation until the sign-in form can be used. Median of BENCH_RUNS (5) runs.
 * BENCH_CONSOLE_DIR measures another build (e.g. an older commit's dist/console) instead of this one.
 */

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');

const TARGET = { scriptKB: 250, usableMs: 2_500 } as const;
/** A slow mobile link: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip (CDP takes bytes per second). */
const LINK = { downloadKbps: 1_600, uploadKbps: 750, latencyMs: 150 } as const;

interface Run {
  /** Transferred bytes (compressed, headers included) of every script the login route loaded. */
  scriptBytes: number;
  scripts: number;
  /** Content-Encoding of the scripts, e.g. ["br"]. */
  encodings: string[];
  usableMs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** The sign-in form is usable: both inputs editable and the sign-in button enabled. */
const usable = async (page: Page) => {
  const account = page.getByLabel('用户名', { exact: true });
  const password = page.getByLabel('密码', { exact: true });
  const button = page.getByRole('button', { name: '登录' });
  await button.waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForFunction(
    () => {
      const inputs = [...document.querySelectorAll('input')];
      const buttons = [...document.querySelectorAll('button')].filter((element) => element.textContent?.trim() === '登录');
      return inputs.length >= 2 && inputs.every((input) => !input.disabled) && buttons.some((element) => !element.disabled);
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  if (!(await account.isEditable()) || !(await password.isEditable()) || !(await button.isEnabled())) {
    throw new Error('the sign-in form showed but is not usable');
  }
};

const measure = async (url: string): Promise<Run> => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    // A fresh context has an empty cache: every run is a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LINK.latencyMs,
      downloadThroughput: (LINK.downloadKbps * 1000) / 8,
      uploadThroughput: (LINK.uploadKbps * 1000) / 8,
    });
    const scripts = new Map<string, { encoding: string }>();
    const transferred = new Map<string, number>();
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      if (type !== 'Script') return;
      const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
      scripts.set(requestId, { encoding: headers['content-encoding'] ?? 'identity' });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => transferred.set(requestId, encodedDataLength));

    const started = performance.now();
    await page.goto(`${url}/login`, { waitUntil: 'commit' });
    await usable(page);
    const usableMs = performance.now() - started;
    // Whatever the route still fetches after it became usable counts too.
    await page.waitForLoadState('networkidle');
    const ids = [...scripts.keys()];
    return {
      scriptBytes: ids.reduce((sum, id) => sum + (transferred.get(id) ?? 0), 0),
      scripts: ids.length,
      encodings: [...new Set([...scripts.values()].map(({ encoding }) => encoding))],
      usableMs: Math.round(usableMs),
    };
  } finally {
    await browser.close();
  }
};

interface ConsoleReport {
  date: string;
  machine: Machine;
  consoleDir: string;
  link: typeof LINK;
  target: typeof TARGET;
  runs: Run[];
  median: { scriptKB: number; usableMs: number };
  met: boolean;
}

const main = async () => {
  const runs = numberSetting('BENCH_RUNS', 5);
  const consoleDir = path.resolve(process.env.BENCH_CONSOLE_DIR ?? path.join(ROOT, 'dist/console'));
  if (!process.env.BENCH_CONSOLE_DIR) ensureBuilt(ROOT, consoleDir);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oxygen-bench-console-'));
  const server = await startChild({
    entry: 'server/main.ts',
    cwd: ROOT,
    // MQTT_PORT=0: the embedded broker on an ephemeral port (1883 may be taken by the machine's own).
    env: { ...UNLIMITED, DATA_DIR: dataDir, CONSOLE_DIR: consoleDir, MQTT_PORT: '0', LOG_LEVEL: 'warn' },
    readyPath: '/healthz',
  });
  try {
    const measured: Run[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const result = await measure(server.url);
      console.log(
        `run ${run}: ${(result.scriptBytes / 1024).toFixed(1)} kB of script in ${result.scripts} files (${result.encodings.join(', ')}), usable after ${result.usableMs} ms`,
      );
      measured.push(result);
    }
    const scriptKB = Math.round((median(measured.map((run) => run.scriptBytes)) / 1024) * 10) / 10;
    const usableMs = Math.round(median(measured.map((run) => run.usableMs)));
    const met = scriptKB <= TARGET.scriptKB && usableMs <= TARGET.usableMs;
    const report: ConsoleReport = {
      date: new Date().toISOString(),
      machine: machine(),
      consoleDir: path.relative(ROOT, consoleDir) || consoleDir,
      link: LINK,
      target: TARGET,
      runs: measured,
      median: { scriptKB, usableMs },
      met,
    };
    const file = writeResults(BENCH_DIR, 'console', report, (relative) => [
      `Run: **${report.date}** (${relative}), ${met ? '**target met**' : '**target MISSED**'}: median of ${runs} cold loads of \`/login\`,`,
      `${scriptKB} kB of compressed script (target ${TARGET.scriptKB} kB), usable after ${usableMs} ms (target ${TARGET.usableMs} ms).`,
    ]);
    console.log(`\nlogin route: ${scriptKB} kB of script, usable after ${usableMs} ms (median of ${runs}); ${met ? 'target met' : 'target MISSED'}`);
    console.log(`results: ${path.relative(ROOT, file)}`);
    if (!met) process.exitCode = 1;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
