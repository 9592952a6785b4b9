import type { Compilable, Kysely, SelectQueryBuilder } from 'kysely';
import { parameter, reusable, runReusable, type ReusableQuery } from '../db/database';
import type { DB } from '../db/schema';
import type { Viewer } from '../scope/service';

/**
 * Each list query compiled once per shape and store, then bound with every call's values: the SQL
 * Kysely compiles, without Kysely's building and compiling on every call (about an eighth of a list
 * request's CPU). A shape is what the SQL depends on: the viewer's level, the filter's fields and kinds,
 * the sort, count or page, and the page size; the values are the viewer's id, the filter's values and
 * the offset.
 */

/**
 * A list's base query: `from` builds it with `parameter(i)` standing for `values[i]`; `builder` (the
 * function behind `from`) and `key` name what it builds apart from those values, so equal names must
 * mean equal SQL.
 */
export interface ListSource<D, TB extends keyof D> {
  db: Kysely<DB>;
  builder: object;
  key: string;
  values: readonly unknown[];
  from: () => SelectQueryBuilder<D, TB, object>;
}

/** Builds the rows a viewer sees, before filters: a module-level function that names the tables and applies server/scope. */
export type VisibleRows<D, TB extends keyof D> = (db: Kysely<DB>, viewer: Viewer) => SelectQueryBuilder<D, TB, object>;

/**
 * The base of a list limited to what `viewer` sees, built by `build`. Scope depends on the viewer's
 * level and id only, so the SQL is cached per level with the id bound as a value: `build` may branch on
 * the level, never on the id.
 */
export const viewerSource = <D, TB extends keyof D>(db: Kysely<DB>, viewer: Viewer, build: VisibleRows<D, TB>): ListSource<D, TB> => ({
  db,
  builder: build,
  key: `level ${viewer.level}`,
  values: [viewer.id],
  from: () => build(db, { id: parameter<number>(0), level: viewer.level }),
});

/** Compiled list queries kept per store (Kysely instance) and builder, least recently used dropped beyond this. */
const LIST_QUERY_CACHE_SIZE = 1000;

const compiledLists = new WeakMap<Kysely<DB>, WeakMap<object, Map<string, ReusableQuery>>>();

/** The compiled query of `key` for this source's store and builder, compiled from `build()` the first time. */
const compiledList = (source: { db: Kysely<DB>; builder: object }, key: string, build: () => Compilable<unknown>): ReusableQuery => {
  let byBuilder = compiledLists.get(source.db);
  if (byBuilder === undefined) {
    byBuilder = new WeakMap();
    compiledLists.set(source.db, byBuilder);
  }
  let queries = byBuilder.get(source.builder);
  if (queries === undefined) {
    queries = new Map();
    byBuilder.set(source.builder, queries);
  }
  let query = queries.get(key);
  if (query !== undefined) {
    // Most recently used last: Map keeps insertion order.
    queries.delete(key);
  } else {
    query = reusable(build().compile(), { arrays: true });
    const oldest = queries.size >= LIST_QUERY_CACHE_SIZE ? queries.keys().next().value : undefined;
    if (oldest !== undefined) queries.delete(oldest);
  }
  queries.set(key, query);
  return query;
};

/** The rows of the source's query of shape `key` (compiled from `build()` the first time), bound with `values`; arrays on SQLite. */
export const runCompiled = async (
  source: { db: Kysely<DB>; builder: object },
  key: string,
  build: () => Compilable<unknown>,
  values: readonly unknown[],
): Promise<readonly unknown[]> => (await runReusable(source.db, compiledList(source, key, build), values)).rows;
