import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { cpuTimeMs } from './children';
import { PG_ADMIN_URL } from './store';

/**
 * Where a run's CPU went, by part (each server instance, the run database's PostgreSQL backends,
 * Mosquitto, the chambers), in cores busy over the run, beside the machine's own busy share; and, for a
 * profiled instance (BENCH_CPU_PROF), the functions that took most of its time. The "bottleneck" line
 * of bench:ingest and bench:api.
 */

export interface Part {
  name: string;
  pids: () => Promise<number[]>;
}

/** This machine's Mosquitto (its process, found by name; none when it runs elsewhere). */
export const mosquittoPart = (): Part => ({
  name: 'Mosquitto (the whole broker)',
  pids: async () =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'mosquitto';
        } catch {
          return false;
        }
      })
      .map(Number),
});

/** The PostgreSQL backends the servers opened on `database` (their pool names itself oxygen-console). */
export const postgresPart = (database: string): Part => ({
  name: 'PostgreSQL (the servers\u2019 backends)',
  pids: async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and application_name = 'oxygen-console'", [database]);
      return rows.map((row) => row.pid);
    } finally {
      await client.end();
    }
  },
});

/** The machine's busy CPU time in all, ms (/proc/stat: everything but idle and iowait). */
const machineBusyMs = (): number => {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const busy = fields.reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return busy * 10;
};

export interface CpuShares {
  /** Cores busy over the run, by part. */
  parts: { name: string; cores: number }[];
  /** The whole machine's, every other process included. */
  machineCores: number;
}

/**
 * Starts counting; `stop` answers the cores each part kept busy since. A part's processes are asked for
 * again at the stop (a pool opens backends under load): one born meanwhile counts all its time, one gone
 * by then counts nothing.
 */
export const measureCpu = async (parts: readonly Part[]) => {
  const timesOf = async (part: Part): Promise<Map<number, number>> =>
    new Map((await part.pids()).flatMap((pid) => {
      const ms = cpuTimeMs(pid);
      return ms === undefined ? [] : [[pid, ms] as const];
    }));
  const before = await Promise.all(parts.map(timesOf));
  const machineBefore = machineBusyMs();
  const started = performance.now();
  return {
    stop: async (): Promise<CpuShares> => {
      const after = await Promise.all(parts.map(timesOf));
      const seconds = (performance.now() - started) / 1000;
      const cores = (ms: number): number => Math.round((ms / 1000 / seconds) * 100) / 100;
      const used = (index: number): number => [...(after[index] ?? [])].reduce((sum, [pid, ms]) => sum + ms - (before[index]?.get(pid) ?? 0), 0);
      return {
        parts: parts.map((part, index) => ({ name: part.name, cores: cores(used(index)) })),
        machineCores: cores(machineBusyMs() - machineBefore),
      };
    },
  };
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The functions with the most self time in the profiles `pid` wrote to `dir` (node --cpu-prof), with their share. */
export const profileTop = (dir: string, pid: number, count = 5): string[] => {
  const files = readdirSync(dir).filter((file) => file.endsWith('.cpuprofile') && file.includes(`.${pid}.`));
  const self = new Map<string, number>();
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    const names = new Map(profile.nodes.map((node) => [node.id, `${node.callFrame.functionName || '(anonymous)'} ${path.basename(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`]));
    profile.samples.forEach((id, index) => {
      const name = names.get(id) ?? '?';
      if (!name.startsWith('(idle)')) self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
    });
  }
  const all = [...self.values()].reduce((sum, value) => sum + value, 0);
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]) => `${name.replace(/ :0$/, '')} ${((time / all) * 100).toFixed(1)} %`);
};

/** One line: the parts by cores busy, the busiest first, and the machine's; then the profile's functions, if any. */
export const bottleneckLine = (shares: CpuShares, cores: number, profile: string[] = []): string =>
  `${[...shares.parts]
    .sort((a, b) => b.cores - a.cores)
    .map((part) => `${part.name} ${part.cores}`)
    .join(', ')} cores busy; the machine ${shares.machineCores} of ${cores}` + (profile.length === 0 ? '' : `; profiled instance's self time: ${profile.join(', ')}`);
