import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCheckpointer, type CheckpointReport } from './checkpointer';
import { openSqlite } from './sqlite';

/** Waits for a report that `wanted` accepts (checkpoints run every few milliseconds here, once the thread has loaded). */
const reportOf = (reports: CheckpointReport[], wanted: (report: CheckpointReport) => boolean, from = 0): Promise<CheckpointReport> =>
  vi.waitFor(
    () => {
      const found = reports.slice(from).find(wanted);
      if (found === undefined) throw new Error(`no such checkpoint among ${JSON.stringify(reports.slice(from))}`);
      return found;
    },
    { timeout: 10_000, interval: 5 },
  );

describe('the checkpoint thread: the WAL copied into the database file beside the writer (SQLite)', () => {
  let dir: string;
  let file: string;
  let writer: SqliteDatabase.Database;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'oxygen-checkpoint-'));
    file = path.join(dir, 'store.sqlite');
    // Its autocheckpoint (20,000 frames) is never reached here: every copy below is the thread's.
    writer = openSqlite(file, 'NORMAL');
    writer.exec('create table readings (id integer primary key, payload text not null)');
  });
  afterEach(() => {
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `transactions` commits of 10 rows of about a page each. */
  const write = (transactions: number): void => {
    const insert = writer.prepare('insert into readings (payload) values (?)');
    for (let transaction = 0; transaction < transactions; transaction += 1) {
      writer.transaction(() => {
        for (let row = 0; row < 10; row += 1) insert.run('o'.repeat(3000) + String(transaction * 10 + row));
      })();
    }
  };

  it('copies what the writer commits into the database file, and restarts a long WAL', async () => {
    const reports: CheckpointReport[] = [];
    const before = statSync(file).size;
    const checkpointer = startCheckpointer(file, 'NORMAL', { intervalMs: 10, restartFrames: 200, onReport: (report) => reports.push(report) });
    try {
      write(5);
      const copied = await reportOf(reports, (report) => report.log > 0);
      expect(copied).toMatchObject({ busy: 0, checkpointed: copied.log, restarted: false });
      expect(statSync(file).size).toBeGreaterThan(before);

      write(30);
      const restarted = await reportOf(reports, (report) => report.restarted);
      expect(restarted.log).toBeGreaterThanOrEqual(200);
      expect(restarted.checkpointed).toBe(restarted.log);
      // Every page is in the database file: about 350 rows of a page each.
      expect(statSync(file).size).toBeGreaterThan(before + 300 * 4096);

      // Idle, nothing is restarted again: the log is the one already restarted, all copied.
      const idleFrom = reports.length;
      await reportOf(reports, () => true, idleFrom + 3);
      expect(reports.slice(idleFrom + 1).filter((report) => report.restarted)).toEqual([]);

      // The next transaction writes the WAL from its beginning: its log is that transaction's frames alone.
      const from = reports.length;
      write(1);
      const after = await reportOf(reports, (report) => report.log > 0 && report.log < restarted.log, from);
      expect(after.log).toBeLessThan(30);
      expect(writer.prepare('select count(*) as n from readings').get()).toEqual({ n: 360 });
    } finally {
      await checkpointer.stop();
    }
  });

  it('a reader of the log holds a restart back only briefly: the writer goes on committing', async () => {
    const reports: CheckpointReport[] = [];
    // Checkpoints far apart compared with the restart's wait (100 ms), as in service (1 s).
    const checkpointer = startCheckpointer(file, 'NORMAL', { intervalMs: 250, restartFrames: 20, onReport: (report) => reports.push(report) });
    const reader = openSqlite(file, 'NORMAL');
    try {
      write(10);
      // A read transaction left open on the log, as a long export streaming rows keeps one.
      reader.exec('begin');
      reader.prepare('select count(*) from readings').get();
      write(10);
      await reportOf(reports, (report) => report.busy === 1);
      const slowest = Math.max(
        ...Array.from({ length: 20 }, () => {
          const started = performance.now();
          write(1);
          return performance.now() - started;
        }),
      );
      // A restart waiting out its reader would hold the writer for the 5 s busy_timeout and fail the write.
      expect(slowest).toBeLessThan(2000);
      reader.exec('commit');
      await reportOf(reports, (report) => report.restarted, reports.length);
    } finally {
      reader.close();
      await checkpointer.stop();
    }
  });

  it('a thread that fails is reported once, and stops', async () => {
    const errors: Error[] = [];
    // A directory where the database file should be: the thread's connection cannot open it.
    const checkpointer = startCheckpointer(dir, 'NORMAL', { intervalMs: 10, onError: (error) => errors.push(error) });
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 });
    await checkpointer.stop();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/SQLITE_CANTOPEN/);
  });

  it('stops: no checkpoint after stop, and the store is the writer\'s alone', async () => {
    const reports: CheckpointReport[] = [];
    const checkpointer = startCheckpointer(file, 'NORMAL', { intervalMs: 10, onReport: (report) => reports.push(report) });
    await reportOf(reports, () => true);
    await checkpointer.stop();
    const seen = reports.length;
    write(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reports.length).toBe(seen);
    // Nothing copies the WAL now: an exclusive checkpoint succeeds at once, nobody else holding it.
    expect(writer.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
  });
});
