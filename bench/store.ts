import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { Env } from '../server/config';
import { openSqlite } from '../server/db/sqlite';

/**
 * The store a benchmark seeds and its servers run on (BENCH_STORE): SQLite in a fresh DATA_DIR, or a fresh
 * database on this machine's PostgreSQL (BENCH_PG_URL, a connection that may create and drop one),
 * created here and dropped by `drop`, as the server tests do. The seeds write their bulk rows through
 * `bulk` (the same rows, in the same order, on either store); the benchmarks count the readings the
 * servers stored through `readings`.
 */

export type StoreKind = 'sqlite' | 'postgres';

export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Rows written in bulk: a writer per table, and the transaction they are committed in. */
export interface Bulk {
  /** A writer of `table`'s rows, its values in the order of `columns`. */
  into: (table: string, columns: readonly string[]) => (...values: unknown[]) => void;
  /** Runs `fill`, which calls the writers, and commits what it wrote as one transaction. */
  transaction: (fill: () => void) => Promise<void>;
  /** Ends the writes, the store left as a fleet's would be after a while (checkpointed; vacuumed and analysed). */
  close: () => Promise<void>;
}

/** The readings the servers stored: the newest row's id, and the rows after an id with their distinct (device, Time). */
export interface Readings {
  newest: () => Promise<number>;
  after: (id: number) => Promise<{ rows: number; distinct: number }>;
  close: () => Promise<void>;
}

export interface BenchStore {
  kind: StoreKind;
  /** DATA_DIR (SQLite's file, and CONSOLE_DIR's empty place on either store). */
  dataDir: string;
  /** What a server on this store needs in its environment. */
  env: Env;
  /** The PostgreSQL database's name (its backends are the servers' share of PostgreSQL's CPU). */
  database?: string;
  bulk: () => Promise<Bulk>;
  readings: () => Promise<Readings>;
  /** Deletes the store: the data directory, and the PostgreSQL database. */
  drop: () => Promise<void>;
}

const READINGS_AFTER = `select count(*) as "rows", (select count(*) from (select 1 from state_records where id > ? group by device_id, time) as keys) as "distinct"
  from state_records where id > ?`;

const sqliteBulk = (file: string): Bulk => {
  // Synchronous off while seeding: a store that does not survive a crash is made again.
  const connection = openSqlite(file, 'OFF');
  return {
    into: (table, columns) => {
      const statement = connection.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
      return (...values) => statement.run(...values);
    },
    transaction: async (fill) => connection.transaction(fill)(),
    close: async () => {
      connection.pragma('wal_checkpoint(TRUNCATE)');
      connection.close();
    },
  };
};

/** SQLite in `dataDir` (the benchmarks that run on SQLite alone make their directory themselves). */
export const sqliteStore = (dataDir: string): BenchStore => {
  const file = path.join(dataDir, 'oxygen.db');
  return {
    kind: 'sqlite',
    dataDir,
    env: { DATA_DIR: dataDir },
    bulk: async () => sqliteBulk(file),
    readings: async () => {
      const reader = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
      const newest = reader.prepare('select coalesce(max(id), 0) as id from state_records');
      const after = reader.prepare(READINGS_AFTER);
      return {
        newest: async () => (newest.get() as { id: number }).id,
        after: async (id) => after.get(id, id) as { rows: number; distinct: number },
        close: async () => {
          reader.close();
        },
      };
    },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
};

const ROWS_PER_STATEMENT = 20_000;

/** Rows sent as one array per column (`insert … select * from unnest(…)`): a statement of 20,000 rows has one parameter a column. */
const postgresBulk = async (url: string): Promise<Bulk> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const tables: { table: string; columns: readonly string[]; rows: unknown[][] }[] = [];
  const arrayTypes = async (table: string): Promise<Map<string, string>> => {
    const { rows } = await client.query<{ column_name: string; udt_name: string }>('select column_name, udt_name from information_schema.columns where table_name = $1', [table]);
    return new Map(rows.map((row) => [row.column_name, `${row.udt_name}[]`]));
  };
  const flush = async (): Promise<void> => {
    for (const { table, columns, rows } of tables) {
      const types = await arrayTypes(table);
      const text = `insert into ${table} (${columns.join(', ')}) select * from unnest(${columns.map((column, index) => `$${index + 1}::${types.get(column) ?? 'text[]'}`).join(', ')})`;
      for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(from, from + ROWS_PER_STATEMENT);
        await client.query(text, columns.map((_, index) => chunk.map((row) => row[index] ?? null)));
      }
      rows.length = 0;
    }
  };
  return {
    into: (table, columns) => {
      const buffer = { table, columns, rows: [] as unknown[][] };
      tables.push(buffer);
      return (...values) => buffer.rows.push(values);
    },
    transaction: async (fill) => {
      fill();
      await client.query('begin');
      try {
        await flush();
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    },
    close: async () => {
      // PostgreSQL's autovacuum would vacuum and analyse the new rows itself within a minute or so (a
      // million inserted rows pass its insert threshold), in the middle of the measurement; done now, the
      // servers plan on the statistics and the visibility map they would have by then (without the map a
      // count reads every matching row's page instead of the index alone).
      await client.query('vacuum (analyze)');
      await client.end();
    },
  };
};

const adminQuery = async (text: string): Promise<void> => {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(text);
  } catch (error) {
    throw new Error(`PostgreSQL at ${PG_ADMIN_URL} (BENCH_PG_URL): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
};

const postgresStore = async (dataDir: string): Promise<BenchStore> => {
  const database = `oxygen_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(`create database ${database}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return {
    kind: 'postgres',
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    database,
    bulk: () => postgresBulk(url.toString()),
    readings: async () => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      let number = 0;
      const text = READINGS_AFTER.replace(/\?/g, () => `$${(number += 1)}`);
      return {
        newest: async () => Number((await client.query<{ id: string }>('select coalesce(max(id), 0) as id from state_records')).rows[0]?.id ?? 0),
        after: async (id) => {
          const row = (await client.query<{ rows: string; distinct: string }>(text, [id, id])).rows[0];
          return { rows: Number(row?.rows ?? 0), distinct: Number(row?.distinct ?? 0) };
        },
        close: () => client.end(),
      };
    },
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await adminQuery(`drop database if exists ${database} with (force)`);
    },
  };
};

/** A fresh, empty store of `kind` (the seeds migrate it); `drop` deletes it. */
export const openStore = async (kind: StoreKind, prefix: string): Promise<BenchStore> => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  if (kind === 'sqlite') return sqliteStore(dataDir);
  try {
    return await postgresStore(dataDir);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
};
