import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Result } from 'autocannon';
import type { CpuShares } from './cpu';
import type { Deployment } from './deployment';

/** The benchmark's results: one JSON file per run under bench/results/, its summary printed. */

export const TARGET = { requestsPerSecond: 5_000, p99Ms: 50 } as const;

export interface Machine {
  os: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  sqlite?: string;
}

export const machine = (sqlite?: string): Machine => {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    ...(sqlite === undefined ? {} : { sqlite }),
  };
};

export interface Row {
  name: string;
  description: string;
  /** Counted against the target; false for the ceiling and informational scenarios. */
  target: boolean;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p97_5: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The server process's CPU time per answered request, µs (Linux /proc). */
  serverCpuUsPerRequest?: number;
  /** The machine's 1-minute load average at the end of the run: above the core count, other work competed. */
  load: number;
  /** requests/s as a share of the ceiling's, measured in the same run. */
  ofCeiling?: number;
}

export interface Measured {
  result: Result;
  serverCpuUs?: number;
  load: number;
}

export const toRow = (name: string, description: string, target: boolean, { result, serverCpuUs, load }: Measured): Row => ({
  name,
  description,
  target,
  requests: result.requests.total,
  requestsPerSecond: Math.round(result.requests.average),
  latencyMs: {
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    max: result.latency.max,
    average: Math.round(result.latency.average * 100) / 100,
  },
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  ...(serverCpuUs === undefined ? {} : { serverCpuUsPerRequest: serverCpuUs }),
  load,
});

/** What a row misses of the target, in words; empty when it meets it (or is not counted). */
export const misses = (row: Row): string[] => {
  const problems: string[] = [];
  if (row.non2xx > 0 || row.errors > 0 || row.timeouts > 0) {
    problems.push(`${row.name}: ${row.non2xx} non-2xx answers, ${row.errors} errors, ${row.timeouts} timeouts`);
  }
  if (!row.target) return problems;
  if (row.requestsPerSecond < TARGET.requestsPerSecond) {
    const short = TARGET.requestsPerSecond - row.requestsPerSecond;
    problems.push(
      `${row.name}: ${row.requestsPerSecond} req/s is ${short} (${((short / TARGET.requestsPerSecond) * 100).toFixed(1)} %) below ${TARGET.requestsPerSecond}`,
    );
  }
  if (row.latencyMs.p99 > TARGET.p99Ms) {
    const over = row.latencyMs.p99 - TARGET.p99Ms;
    problems.push(`${row.name}: p99 ${row.latencyMs.p99} ms is ${over} ms (${((over / TARGET.p99Ms) * 100).toFixed(0)} %) above ${TARGET.p99Ms} ms`);
  }
  return problems;
};

const ms = (value: number): string => (value >= 10 ? value.toFixed(0) : value.toFixed(1));

/** The results as a Markdown table (also printed: it reads as plain text). */
const table = (rows: readonly Row[]): string => {
  const lines = [
    '| scenario | counted | req/s | of ceiling | p50 ms | p97.5 ms | p99 ms | max ms | requests | non-2xx | server CPU µs/req | load |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const row of rows) {
    const counted = row.name === 'ceiling' ? 'ceiling' : row.target ? (misses(row).length === 0 ? 'yes: met' : 'yes: MISSED') : 'info';
    const share = row.ofCeiling === undefined ? '' : `${(row.ofCeiling * 100).toFixed(0)} %`;
    lines.push(
      `| ${row.name} | ${counted} | ${row.requestsPerSecond} | ${share} | ${ms(row.latencyMs.p50)} | ${ms(row.latencyMs.p97_5)} | ${ms(row.latencyMs.p99)} | ${ms(row.latencyMs.max)} | ${row.requests} | ${row.non2xx + row.errors} | ${row.serverCpuUsPerRequest ?? ''} | ${row.load.toFixed(1)} |`,
    );
  }
  return lines.join('\n');
};

/** One configuration's measurements (bench/deployment.ts). */
export interface ApiRun {
  configuration: string;
  deployment: Deployment;
  data: Record<string, unknown>;
  rows: Row[];
  /** Cores busy by part over the list scenarios (warm-ups included), and where the time went. */
  cpu: CpuShares;
  bottleneck: string;
  statsYear?: Record<string, unknown>;
  misses: string[];
}

export interface Report {
  date: string;
  machine: Machine;
  settings: Record<string, unknown>;
  target: typeof TARGET;
  ceiling: Row;
  runs: ApiRun[];
  met: boolean;
  misses: string[];
}

/** A positive number from the environment, or `fallback`; anything else stops the benchmark naming the variable. */
export const numberSetting = (name: string, fallback: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number (got "${value}")`);
  return parsed;
};

/**
 * Writes `report` as bench/results/<kind>-<date>.json and prints `summary(file)` (the JSON's path relative
 * to bench/), the run in a few lines of Markdown, ready for the benchmark's "Latest result" in
 * bench/README.md when the run is one to keep; returns the JSON's path. The README is a guide written by
 * people: no run rewrites it.
 */
export const writeResults = (benchDir: string, kind: string, report: { date: string }, summary: (file: string) => string[]): string => {
  const resultsDir = path.join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${kind}-${report.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\n${summary(path.relative(benchDir, file)).join('\n')}\n\n`);
  return file;
};

/** The counted scenarios' requests/s and p99, one column per configuration. */
const sideBySide = (runs: readonly ApiRun[]): string[] => {
  const names = [...new Set(runs.flatMap((run) => run.rows.map((row) => row.name)))];
  return [
    `| scenario: req/s, p99 ms | ${runs.map((run) => run.configuration).join(' | ')} |`,
    `|---|${runs.map(() => '--:').join('|')}|`,
    ...names.map((name) => `| ${name} | ${runs.map((run) => run.rows.find((row) => row.name === name)).map((row) => (row === undefined ? '' : `${row.requestsPerSecond}, ${ms(row.latencyMs.p99)}`)).join(' | ')} |`),
  ];
};

/** The run in a few lines of Markdown: each configuration's table, side by side when there are several. */
export const apiSummary = (report: Report, file = 'not written'): string[] => {
  const m = report.machine;
  return [
    `Run: **${report.date}** (${file}), ${report.met ? '**target met**' : '**target MISSED**'}.`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}${m.sqlite === undefined ? '' : `, SQLite ${m.sqlite}`}.`,
    `Load: ${String(report.settings.connections)} connections, ${String(report.settings.durationSeconds)} s per scenario after a ${String(report.settings.warmupSeconds)} s warm-up, autocannon in the benchmark's process (its connections taking the instances in turn), each server in its own child process (${String(report.settings.workers ?? 1)} worker processes each, WORKERS).`,
    '',
    ...report.runs.flatMap((run) => [`${run.configuration}:`, '', table([report.ceiling, ...run.rows]), '', `Bottleneck: ${run.bottleneck}.`, '']),
    ...(report.runs.length > 1 ? [...sideBySide(report.runs), ''] : []),
    ...(report.misses.length === 0 ? [] : ['Missed:', '', ...report.misses.map((miss) => `- ${miss}`), '']),
  ];
};

/** Writes bench/results/<kind>-<date>.json and prints its summary; returns the JSON's path. */
export const writeReport = (benchDir: string, kind: string, report: Report): string => writeResults(benchDir, kind, report, (file) => apiSummary(report, file));

/** Prints what missed the targets, or that none did, and answers the benchmark's exit code (1: missed). */
export const verdict = (misses: readonly string[]): number => {
  if (misses.length === 0) {
    process.stdout.write('targets met\n');
    return 0;
  }
  process.stdout.write(`TARGET MISSED:\n${misses.map((miss) => `  - ${miss}\n`).join('')}`);
  return 1;
};

/** Runs a benchmark's `main` and exits with the code it answers; a failure is printed and exits 1. */
export const runBenchmark = (name: string, main: () => Promise<number>): void => {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
};
