import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { SqliteSynchronous } from '../config';

/**
 * A SQLite connection as every part of the server opens it. Apart from database.ts (Kysely and pg) so
 * that a thread needing only a connection loads only better-sqlite3: the checkpoint thread so costs the
 * process 33–35 MB, against 60 MB through database.ts (measured on 2026-11-25).
 */

const SQLITE_BUSY_TIMEOUT_MS = 5000;
/**
 * WAL frames after which a commit checkpoints (SQLite's default is 1,000). Sustained ingestion dirties
 * about one page a reading (each device's newest leaf of the state records' device index) and rewrites the
 * same few thousand pages again and again; a checkpoint copies each page once however many frames hold it,
 * so a larger interval copies and fsyncs far less (docs/ingest.md, "Checkpoints"; docs/performance.md,
 * bench:ingest). Where ingestion runs, the checkpoint thread (checkpointer.ts) keeps the WAL below it, so this is
 * the backstop. Every connection gets the same value: one with a smaller one would run the deferred
 * checkpoint itself, on its own thread.
 */
const SQLITE_WAL_CHECKPOINT_FRAMES = 20_000;
/** How much of the database file SQLite reads through a memory map (256 MiB). */
const SQLITE_MMAP_BYTES = 256 * 1024 * 1024;
/** SQLite's page cache per connection, KiB (32 MiB; the default is 2 MB). */
const SQLITE_CACHE_KIB = 32 * 1024;

export interface OpenSqliteOptions {
  /**
   * Temporary files in memory (`temp_store = MEMORY`). For the ingest writer's connection: every multi-row
   * insert of a batch may abort (the readings' foreign key and NOT NULL), so SQLite keeps a statement
   * journal of the pages it changes, about one index leaf a reading. Past 64 KiB that journal is a
   * temporary file written page by page: 15 % of the inserts' time in perf (docs/performance.md, "The
   * ingest path, statement journals"). The writer's statements are bounded (512 rows, 8 rollup buckets),
   * so its journals are a few MB at most; other connections keep temp files on disk, where a large sort
   * of a list or an export may spill.
   */
  tempInMemory?: boolean;
}

/** Opens a SQLite file with the pragmas every connection must have. */
export const openSqlite = (file: string, synchronous: SqliteSynchronous, options: OpenSqliteOptions = {}): SqliteDatabase.Database => {
  mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SqliteDatabase(file);
  if (options.tempInMemory === true) connection.pragma('temp_store = MEMORY');
  connection.pragma('journal_mode = WAL');
  connection.pragma(`synchronous = ${synchronous}`);
  connection.pragma('foreign_keys = ON');
  connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  connection.pragma(`wal_autocheckpoint = ${SQLITE_WAL_CHECKPOINT_FRAMES}`);
  // Reads: the file memory-mapped (pages read in place, no read() call and copy per page) and a larger
  // page cache than the default 2 MB for the B-tree pages lists walk. Measured by `npm run bench:api`
  // (docs/performance.md): about 10 % less CPU per state-record page. Per connection; the server holds one.
  connection.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  connection.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  return connection;
};
