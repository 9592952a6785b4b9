import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type Compilable,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import type { Config, DatabaseTarget } from '../config';
import type { DB } from './schema';
import { openSqlite, type OpenSqliteOptions } from './sqlite';

export type DatabaseKind = DatabaseTarget['kind'];

/** The store: one Kysely instance, the same query code for SQLite and PostgreSQL. */
export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
}

const INT8_OID = 20;

/**
 * int8 (bigint, count(*)) as a JS number: our int8 values are epoch milliseconds and counts, far
 * below 2^53. Set per pool, not globally, so nothing else in the process is affected.
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** How many prepared statements a SQLite connection keeps for reuse (least recently used dropped first). */
const SQLITE_STATEMENT_CACHE_SIZE = 500;

/**
 * Marks a SQL text whose rows are wanted as arrays of column values in SELECT order: SQLite then answers
 * them so (better-sqlite3's `raw` mode) instead of building an object per row, which cost more than
 * reading the rows (25 readings of 17 columns: 190 µs as objects, 125 µs as arrays); PostgreSQL
 * ignores the comment. `rowsAsArrays` gives arrays from either store.
 */
const ROWS_AS_ARRAYS = '/* rows as arrays */ ';

/** A query's rows as arrays of the values of `columns` (its SELECT list's names, in order), whether the store answered arrays or objects. */
export const rowsAsArrays = (rows: readonly unknown[], columns: readonly string[]): unknown[][] =>
  rows.map((row) => (Array.isArray(row) ? (row as unknown[]) : columns.map((column) => (row as Record<string, unknown>)[column])));

/**
 * The connection as Kysely's SQLite driver sees it, with `prepare` answering a cached statement for a
 * SQL text it has prepared before. Kysely's driver calls `prepare(sql)` for every query (then `all` or
 * `run` by `stmt.reader`, or `iterate` for a stream); preparing was 14–16 % of the server's CPU under
 * load. Safe because Kysely's statements are parameterised (parameters are bound on every call, never
 * kept), it sets no statement mode (pluck, raw, expand, safeIntegers; only a text marked ROWS_AS_ARRAYS
 * gets raw mode, and its statement is cached under that text), and SQLite re-prepares a statement by
 * itself when the schema changes. A cached statement still busy (a stream being iterated)
 * is not handed out again: that caller gets a fresh, uncached one.
 */
const withStatementCache = (
  connection: SqliteDatabase.Database,
  size = SQLITE_STATEMENT_CACHE_SIZE,
): Pick<SqliteDatabase.Database, 'prepare' | 'close'> => {
  const statements = new Map<string, SqliteDatabase.Statement>();
  const fresh = (source: string): SqliteDatabase.Statement => {
    const statement = connection.prepare(source);
    return source.startsWith(ROWS_AS_ARRAYS) ? statement.raw(true) : statement;
  };
  return {
    prepare: ((source: string) => {
      const cached = statements.get(source);
      if (cached !== undefined) {
        if (cached.busy) return fresh(source);
        // Most recently used last: Map keeps insertion order.
        statements.delete(source);
        statements.set(source, cached);
        return cached;
      }
      const statement = fresh(source);
      statements.set(source, statement);
      if (statements.size > size) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      return statement;
    }) as SqliteDatabase.Database['prepare'],
    close: () => {
      statements.clear();
      return connection.close();
    },
  };
};

/**
 * Queries built and compiled once, run many times with new values. Kysely builds and compiles every
 * query anew (about an eighth of a list request's CPU), so hot paths build theirs once per store with
 * placeholders, `parameter<T>(i)` standing for value i, and bind the values on each run. The compiled
 * SQL is Kysely's own, so SQLite and PostgreSQL run exactly what the builder would have produced.
 */
class Parameter {
  constructor(readonly index: number) {}
}

/** A placeholder for value `index` of a reusable query, typed as the value it stands for. */
export const parameter = <T>(index: number): T => new Parameter(index) as unknown as T;

export interface ReusableQuery<R = unknown> {
  sql: string;
  /** For each parameter of `sql`, the index of the value it binds. */
  bindings: readonly number[];
  /** Never set: carries the row type to runReusable. */
  readonly rowType?: R;
}

/**
 * A compiled query whose every value is a `parameter`, ready to run with values. A value built in
 * (not a placeholder) throws: it would be bound to every later run. `arrays`: its rows as arrays
 * (ROWS_AS_ARRAYS; read them with `rowsAsArrays`).
 */
export const reusable = <R>(compiled: CompiledQuery<R>, options: { arrays?: boolean } = {}): ReusableQuery<R> => ({
  sql: options.arrays === true ? `${ROWS_AS_ARRAYS}${compiled.sql}` : compiled.sql,
  bindings: compiled.parameters.map((value) => {
    if (value instanceof Parameter) return value.index;
    throw new Error(`a reusable query took a value that is not a parameter: ${String(value)}`);
  }),
});

/**
 * The SQLite connection of a store while nobody holds it (no query, stream or transaction under way
 * through Kysely), else undefined: see runReusable.
 */
const idleSqlite = new WeakMap<Kysely<DB>, () => Pick<SqliteDatabase.Database, 'prepare'> | undefined>();

/**
 * Runs a reusable query with `values` on `db` (a transaction's connection when `db` is a transaction).
 * A read on a SQLite store whose connection nobody holds runs at once, synchronously: nothing can
 * interleave with a synchronous call, so it is exactly what acquiring the connection, running and
 * releasing it would be, without the executor's chain of promises (4 µs a query; 2–9 % of a list
 * request's CPU in the server). createDatabase gives the store's Kysely no plugin or query log this
 * would skip. Anything else goes through Kysely's executor.
 */
export const runReusable = <R>(db: Kysely<DB>, query: ReusableQuery<R>, values: readonly unknown[]): Promise<QueryResult<R>> => {
  const parameters = query.bindings.map((index) => values[index]);
  const idle = idleSqlite.get(db)?.();
  if (idle !== undefined) {
    try {
      const statement = idle.prepare(query.sql);
      if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return db.executeQuery(CompiledQuery.raw(query.sql, parameters) as CompiledQuery<R>);
};

/**
 * A query of a fixed shape, compiled once per store (per Kysely instance: each transaction compiles
 * its own), then run with values: `build` uses `parameter(i)` for value i.
 */
export const compiledOnce = <R>(build: (db: Kysely<DB>) => Compilable<R>) => {
  const compiled = new WeakMap<Kysely<DB>, ReusableQuery<R>>();
  return (db: Kysely<DB>, values: readonly unknown[]): Promise<QueryResult<R>> => {
    let query = compiled.get(db);
    if (query === undefined) {
      query = reusable(build(db).compile());
      compiled.set(db, query);
    }
    return runReusable(db, query, values);
  };
};

/** Kysely's SQLite driver, counting the connections it has lent out (0 or 1: SQLite has one). */
class LendingDriver implements Driver {
  lent = 0;

  constructor(private readonly driver: Driver) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.driver.acquireConnection();
    this.lent += 1;
    return connection;
  }

  /**
   * `begin immediate`: the store has more than one writer (ingestion's writer thread, cluster workers),
   * so a transaction takes the write lock when it begins, waiting for it by busy_timeout. A deferred
   * `begin` that reads first fails with SQLITE_BUSY, without waiting, when it turns to writing after
   * another connection's commit. SQLite has no isolation levels to set.
   */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.required('savepoint')(connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.required('rollbackToSavepoint')(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.required('releaseSavepoint')(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.lent -= 1;
    return this.driver.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  private required(name: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint') {
    const method = this.driver[name];
    if (method === undefined) throw new Error(`the SQLite driver has no ${name}`);
    return method.bind(this.driver);
  }
}

class LendingSqliteDialect extends SqliteDialect {
  driver: LendingDriver | undefined;

  override createDriver(): Driver {
    this.driver = new LendingDriver(super.createDriver());
    return this.driver;
  }
}

export interface CreateDatabaseOptions {
  /** Errors of idle PostgreSQL clients (e.g. the server restarted); they must not crash the process. */
  onPoolError?: (error: Error) => void;
  /** SQLite's connection options (sqlite.ts): the ingest writer's keeps its temporary files in memory. */
  sqlite?: OpenSqliteOptions;
}

/**
 * DATABASE_URL with PostgreSQL's JIT compiling turned off in its connection options: it compiled a chamber's
 * two years of history for about 400 ms to run 35 (docs/performance.md, "Time series on PostgreSQL"); the
 * server's statements read key ranges, where compiling never pays. Options the URL gives are kept before it.
 * (pg takes the URL's parameters over its own config's, so the URL carries it.)
 */
const withoutJit = (url: string): string => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (pg's key=value form): left as given, so JIT stays as the database server sets it.
    return url;
  }
  const own = parsed.searchParams.get('options');
  parsed.searchParams.set('options', own === null || own === '' ? '-c jit=off' : `${own} -c jit=off`);
  return parsed.toString();
};

export const createDatabase = (
  config: Pick<Config, 'database' | 'sqliteSynchronous'>,
  options: CreateDatabaseOptions = {},
): Database => {
  const target = config.database;
  if (target.kind === 'sqlite') {
    let connection: ReturnType<typeof withStatementCache> | undefined;
    const dialect = new LendingSqliteDialect({
      database: async () => (connection = withStatementCache(openSqlite(target.file, config.sqliteSynchronous, options.sqlite))),
    });
    const db = new Kysely<DB>({ dialect });
    // Until Kysely has opened the connection (on its first query), runReusable takes the executor's way.
    idleSqlite.set(db, () => (dialect.driver?.lent === 0 ? connection : undefined));
    return { kind: 'sqlite', db };
  }
  const pool = new pg.Pool({ connectionString: withoutJit(target.url), types: pgTypes, application_name: 'oxygen-console' });
  pool.on('error', (error) => options.onPoolError?.(error));
  return { kind: 'postgres', db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }) };
};
