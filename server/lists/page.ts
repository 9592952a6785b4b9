import { SqliteAdapter, sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { parameter, rowsAsArrays } from '../db/database';
import type { DB } from '../db/schema';
import type { Column, Listing } from './listing';
import { orderTerms } from './sort';

/**
 * The two queries of a list, over its filtered base (./filter.ts): how many rows match, and one page
 * of them as the wire's JSON text, written by the store itself. No value, array or record object is
 * built per row and nothing is stringified by the server, which were most of a page's cost
 * (docs/performance.md). Numbers may be spelt differently from JSON.stringify's (SQLite writes
 * a stored 60.0 as `60.0`), never with another value.
 */

export const countQuery = <D, TB extends keyof D>(query: SelectQueryBuilder<D, TB, object>) => query.select(sql<number>`count(*)`.as('total'));


/** The count of a count query's rows (arrays on SQLite, objects on PostgreSQL). */
export const readCount = (rows: readonly unknown[]): number => Number(rowsAsArrays(rows, ['total'])[0]?.[0] ?? 0);

/**
 * The page size written into the SQL as a number, not bound: SQLite (3.47 on) reads a bound LIMIT's
 * value while preparing and marks the statement expired whenever that parameter is bound again, so a
 * cached page statement with `limit ?` was prepared anew on every call (20–60 µs a list request,
 * docs/performance.md). A page size is therefore part of a page query's shape.
 */
const pageSizeLiteral = (pageSize: number): RawBuilder<number> => {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error(`not a page size: ${String(pageSize)}`);
  return sql.lit(pageSize);
};

/**
 * How many rows match, counting no further than `limit`: a number is written into the SQL (like the page
 * size, part of the shape: the usual limit), a parameter's index is bound (a page deeper than it).
 */
export const cappedCountQuery = <D, TB extends keyof D>(db: Kysely<DB>, query: SelectQueryBuilder<D, TB, object>, limit: number | { index: number }) =>
  db
    .selectFrom(query.select(sql.lit(1).as('one')).limit(typeof limit === 'number' ? pageSizeLiteral(limit) : parameter<number>(limit.index)).as('m'))
    .select(sql<number>`count(*)`.as('total'));

export interface PageSlice {
  /** The order, as ./sort.ts's sortKey spells it. */
  sort: string;
  pageSize: number;
  /** The index of the offset's value. */
  offset: number;
}

/**
 * A wire value of a rendered page: a flag as JSON true or false (SQLite has no booleans), a JSON column
 * as the value it holds (not as a string), anything else as stored.
 */
const renderedValue = (sqlite: boolean, col: Column, ref: Expression<unknown>): Expression<unknown> => {
  if (col.type === 'json') return sqlite ? sql`json(${ref})` : sql`cast(${ref} as json)`;
  if (col.type !== 'flag') return ref;
  return sqlite
    ? sql`case when ${ref} is null then null when ${ref} <> 0 then json('true') else json('false') end`
    : sql`case when ${ref} is null then null else ${ref} <> 0 end`;
};

/**
 * One page of the query wrapped in one aggregate: the page's records as a JSON array in the page's own
 * order (the aggregate's ORDER BY repeats the sort over the page's columns), and how many there are.
 * The page's columns are named by position (c0, c1, …): SQLite's names ignore case, and a listing may
 * hold both `id` and `Id` (orders).
 */
export const renderedPageQuery = <D, TB extends keyof D>(db: Kysely<DB>, query: SelectQueryBuilder<D, TB, object>, listing: Listing, page: PageSlice) => {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const columns = Object.entries(listing.columns);
  const position = new Map(columns.map(([source], index) => [source, `p.c${index}`]));
  let ordered = query.select(columns.map(([, col], index) => sql.ref(col.ref).as(`c${index}`)));
  for (const item of orderTerms(listing, page.sort, (_source, col) => col.ref)) ordered = ordered.orderBy(item);
  const rows = ordered.limit(pageSizeLiteral(page.pageSize)).offset(parameter<number>(page.offset));
  const pairs = columns.flatMap(([source, col]) => [sql.lit(source), renderedValue(sqlite, col, sql.ref(position.get(source) ?? source))]);
  const order = sql.join(orderTerms(listing, page.sort, (source) => position.get(source) ?? source));
  const list = sqlite
    ? sql<string>`json_group_array(json_object(${sql.join(pairs)}) order by ${order})`
    : sql<string>`coalesce(json_agg(json_build_object(${sql.join(pairs)}) order by ${order})::text, '[]')`;
  return db.selectFrom(rows.as('p')).select([list.as('list'), sql<number>`count(*)`.as('n')]);
};

/** A rendered page's JSON text and how many records it holds, from its query's one row. */
export const readRenderedPage = (rows: readonly unknown[]): { list: string; length: number } => {
  const [list = '[]', length = 0] = rowsAsArrays(rows, ['list', 'n'])[0] ?? [];
  return { list: String(list), length: Number(length) };
};
