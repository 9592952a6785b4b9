import { spawn } from 'node:child_process';

/**
 * `npm run test:unit+server`: the unit and the server projects at the same time, as two vitest processes
 * (one vitest run would take them one after the other: projects of different worker counts never share a
 * group). The server project mostly waits on its stores, brokers and clocks (about 0.6 of a core over its
 * ten minutes), so the unit files take the cores it leaves. Each project's output is printed whole once it
 * ends, so the two never interleave; the exit code is the first failure's.
 */

const PROJECTS = ['unit', 'server'] as const;

const run = (project: (typeof PROJECTS)[number]) =>
  new Promise<number>((resolve) => {
    let output = '';
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code, signal) => {
      process.stdout.write(`\n== vitest --project ${project}\n${output}`);
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });

const codes = await Promise.all(PROJECTS.map(run));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
