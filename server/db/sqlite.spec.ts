import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite';

describe('a SQLite connection whose temporary files stay in memory (the ingest writer)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'oxygen-sqlite-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps them in memory only when asked: every other connection keeps them on disk', () => {
    const file = path.join(dir, 'store.sqlite');
    const writer = openSqlite(file, 'NORMAL', { tempInMemory: true });
    const other = openSqlite(file, 'NORMAL');
    // temp_store: 0 is the build's default (files), 2 is memory.
    expect(writer.pragma('temp_store', { simple: true })).toBe(2);
    expect(other.pragma('temp_store', { simple: true })).toBe(0);
    writer.close();
    other.close();
  });

  it('rolls back a statement that fails midway, past a statement journal of 64 KiB, and keeps what the transaction did before it', () => {
    const connection = openSqlite(path.join(dir, 'store.sqlite'), 'NORMAL', { tempInMemory: true });
    connection.exec('create table parents (id text primary key)');
    connection.exec('create table children (id integer primary key, parent text not null references parents (id), payload text not null)');
    connection.exec("insert into parents values ('a')");
    const rows = 300;
    const insert = connection.prepare('insert into children (parent, payload) values (?, ?)');
    connection.transaction(() => {
      for (let row = 0; row < rows; row += 1) insert.run('a', 'x'.repeat(1_000));
    })();
    connection.transaction(() => {
      insert.run('a', 'kept');
      // Rewrites every row (about 75 pages of 4 KiB that existed before it, so a journal of some 300 KiB)
      // before the last one's parent is found missing.
      expect(() => connection.prepare(`update children set payload = 'y', parent = case when id = ${rows} then 'missing' else parent end`).run()).toThrow(/FOREIGN KEY/);
    })();
    expect(connection.prepare("select count(*) from children where payload = 'y'").pluck().get()).toBe(0);
    expect(connection.prepare('select count(*) from children').pluck().get()).toBe(rows + 1);
    connection.close();
  });
});
