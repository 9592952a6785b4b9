import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The built console the browser benchmarks serve (bench:console, bench:monitor). */

const newestChange = (entry: string): number => {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
};

/** Builds the console (npm run build) when there is none in `consoleDir`, or when its sources changed after the last build. */
export const ensureBuilt = (root: string, consoleDir: string): void => {
  const index = path.join(consoleDir, 'index.html');
  const sources = ['src', 'index.html', 'vite.config.ts'].map((name) => path.join(root, name));
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestChange))) return;
  console.log('building the console (npm run build) …');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
};
