import { SqliteAdapter, sql, type AliasedRawBuilder, type Compilable, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { readableEntries, type WireRecord } from '../../src/resources/model';
import type { FilterValue, ListAnswer, ListBody, Range } from '../../src/resources/query';
import type { FieldConfig, ResourceConfig } from '../../src/resources/types';
import { filterableFields, sortableFields } from '../../src/resources/query';
import { parameter, reusable, rowsAsArrays, runReusable, type ReusableQuery } from '../db/database';
import type { DB } from '../db/schema';
import type { Viewer } from '../scope/service';
import { narrowScopesPlugin } from './narrow';

/**
 * Paged lists in SQL with the meaning the console's adapter and the mocks give them
 * (src/resources/query.ts, applyListQuery), on SQLite and PostgreSQL alike:
 * - a string on a text field matches case-insensitively anywhere in the text (LIKE, escaped);
 * - a list matches any of its values exactly (getMany's id filter); an empty list matches nothing;
 * - `{ gte, lte }` on a number or time is an inclusive range;
 * - anything else matches exactly; a value of the wrong type for the column matches nothing;
 * - sorting puts missing values last in either order, then orders by the id fields (same direction)
 *   so pages never overlap; without a sort, the configuration's defaultSort applies.
 * A Listing maps each wire field of a resource to its column; the wire names live only here.
 */

/** How a column stores a wire value: text, a number (times included) or a 0/1 flag read as a boolean. */
export type ColumnType = 'text' | 'number' | 'flag';

export interface Column {
  /** The column as the list's query names it: `alias.column`. */
  ref: string;
  type: ColumnType;
  /** Missing values are sorted last; NOT NULL columns skip that clause so their indexes serve the order. */
  nullable: boolean;
}

export const column = (ref: string, type: ColumnType, nullable = false): Column => ({ ref, type, nullable });

export interface ListingOptions {
  /** Wire fields not read from a column: the service fills them in (e.g. an account's DeviceIds). */
  computed?: readonly string[];
}

export interface Listing {
  config: ResourceConfig;
  columns: Readonly<Record<string, Column>>;
  computed: readonly string[];
}

/** Which column types can hold a field of each kind. */
const compatible = (field: FieldConfig, type: ColumnType): boolean => {
  switch (field.kind) {
    case 'text':
    case 'bloodPressure':
    case 'password':
      return type === 'text';
    case 'number':
    case 'datetime':
      return type === 'number';
    case 'boolean':
      return type === 'flag';
    case 'enum':
      return field.choices.every((choice) => (typeof choice === 'number' ? type === 'number' : type === 'text'));
    case 'reference':
      return type === 'text' || type === 'number';
  }
};

/**
 * The problems of a listing against its configuration: every readable field needs a column (or is
 * computed), every column a field of a compatible kind, and every filterable or sortable field a
 * column. Empty when the server serves the configuration exactly; a test checks each resource.
 */
export const listingProblems = (listing: Listing): string[] => {
  const { config, columns, computed } = listing;
  const name = config.name;
  const problems: string[] = [];
  const readable = new Map(readableEntries(config));
  for (const source of readable.keys()) {
    if (!Object.hasOwn(columns, source) && !computed.includes(source)) problems.push(`${name}.${source} has no column`);
  }
  for (const [source, col] of Object.entries(columns)) {
    const field = readable.get(source);
    if (field === undefined) problems.push(`${name}.${source} has a column but is not a readable field`);
    else if (!compatible(field, col.type)) problems.push(`${name}.${source} (${field.kind}) cannot live in a ${col.type} column`);
  }
  for (const source of new Set([...filterableFields(config), ...sortableFields(config)])) {
    if (!Object.hasOwn(columns, source)) problems.push(`${name}.${source} is filterable or sortable but has no column`);
  }
  return problems;
};

/**
 * A listing, checked lazily (on first use, i.e. when the route is registered): a configuration the
 * server cannot serve stops the server at start with the field named, never a wrong answer later.
 */
export const defineListing = (
  config: ResourceConfig,
  columns: Record<string, Column>,
  options: ListingOptions = {},
): (() => Listing) => {
  let checked: Listing | undefined;
  return () => {
    if (checked !== undefined) return checked;
    const listing: Listing = { config, columns, computed: options.computed ?? [] };
    const problems = listingProblems(listing);
    if (problems.length > 0) throw new Error(`The server cannot list ${config.name}: ${problems.join('; ')}`);
    checked = listing;
    return listing;
  };
};

const isRange = (value: FilterValue): value is Range => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value as the column stores it, or undefined when it cannot match anything there. */
const stored = (col: Column, value: unknown): string | number | undefined => {
  switch (col.type) {
    case 'text':
      return typeof value === 'string' ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'flag':
      if (typeof value === 'boolean') return value ? 1 : 0;
      return value === 0 || value === 1 ? value : undefined;
  }
};

/** `%text%` for LIKE, with LIKE's own characters escaped by a backslash. */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The values of a list filter as the column stores them, without duplicates; those no row can hold dropped. */
const storedList = (col: Column, value: readonly unknown[]): (string | number)[] => [
  ...new Set(value.map((item) => stored(col, item)).filter((item) => item !== undefined)),
];

/** A text field's string filter is a case-insensitive "contains"; every other scalar matches exactly. */
const isContains = (field: FieldConfig, col: Column, value: FilterValue): value is string =>
  field.kind === 'text' && typeof value === 'string' && col.type === 'text';

/** Each filtered field with its column; the body schema allows only filterable fields, each with a column. */
const filterEntries = (listing: Listing, filter: ListBody['filter']): [string, FieldConfig, Column, FilterValue][] => {
  const entries: [string, FieldConfig, Column, FilterValue][] = [];
  for (const [source, value] of Object.entries(filter ?? {})) {
    if (value === undefined) continue;
    const col = listing.columns[source];
    const field = listing.config.fields[source];
    if (col === undefined || field === undefined) throw new Error(`${listing.config.name}: no column to filter ${source}`);
    entries.push([source, field, col, value]);
  }
  return entries;
};

/**
 * One field's condition: its kind fixes the SQL, and it binds the plan's values from index `at`
 * (a range: the indexes of its bounds).
 */
type Term =
  | { kind: 'in'; col: Column; at: number; count: number }
  | { kind: 'equals'; col: Column; at: number }
  | { kind: 'contains'; col: Column; at: number }
  | { kind: 'range'; col: Column; gte: number | undefined; lte: number | undefined };

/** A filter planned apart from its values, so the SQL of each shape is compiled once (runCachedList). */
interface FilterPlan {
  /** The SQL's shape: the fields in order, each with its kind (and how many values, which bounds). */
  key: string;
  terms: Term[];
  /**
   * Columns the filter pins to a few exact values (a list, or a scalar that matches exactly) → the
   * indexes of those values: their scope subqueries are narrowed to them (./narrow.ts).
   */
  pins: Map<string, number[]>;
  /** Some field's condition matches no row (an empty list, a value its column cannot hold). */
  matchesNothing: boolean;
}

/**
 * Plans the filter, appending the values it binds to `values`: a string on a text field matches
 * case-insensitively anywhere in it, a list any of its values, `{ gte, lte }` an inclusive range
 * (without bounds: everything), anything else exactly.
 */
const planFilter = (listing: Listing, filter: ListBody['filter'], values: unknown[]): FilterPlan => {
  const terms: Term[] = [];
  const keys: string[] = [];
  const pins = new Map<string, number[]>();
  let matchesNothing = false;
  const bind = (value: unknown): number => values.push(value) - 1;
  for (const [source, field, col, value] of filterEntries(listing, filter)) {
    if (Array.isArray(value)) {
      const list = storedList(col, value);
      if (list.length === 0) matchesNothing = true;
      else {
        const indexes = list.map(bind);
        terms.push({ kind: 'in', col, at: indexes[0] ?? 0, count: indexes.length });
        pins.set(col.ref, indexes);
        keys.push(`${source} in ${indexes.length}`);
      }
    } else if (isRange(value)) {
      if (value.gte === undefined && value.lte === undefined) continue;
      const gte = value.gte === undefined ? undefined : bind(value.gte);
      const lte = value.lte === undefined ? undefined : bind(value.lte);
      terms.push({ kind: 'range', col, gte, lte });
      keys.push(`${source} ${gte === undefined ? '' : '>='}${lte === undefined ? '' : '<='}`);
    } else if (isContains(field, col, value)) {
      terms.push({ kind: 'contains', col, at: bind(containsPattern(value)) });
      keys.push(`${source} like`);
    } else {
      const exact = stored(col, value);
      if (exact === undefined) matchesNothing = true;
      else {
        const at = bind(exact);
        terms.push({ kind: 'equals', col, at });
        pins.set(col.ref, [at]);
        keys.push(`${source} =`);
      }
    }
  }
  return { key: keys.join(', '), terms, pins, matchesNothing };
};

/** Value i of a query: a placeholder when the SQL is compiled for reuse, else the value itself. */
type Param = <T>(index: number) => T;

const termCondition = (term: Term, param: Param): Expression<SqlBool> => {
  const ref = sql.ref(term.col.ref);
  switch (term.kind) {
    case 'in':
      return sql<SqlBool>`${ref} in (${sql.join(Array.from({ length: term.count }, (_, offset) => param(term.at + offset)))})`;
    case 'equals':
      return sql<SqlBool>`${ref} = ${param(term.at)}`;
    case 'contains':
      return sql<SqlBool>`lower(${ref}) like ${param(term.at)} escape ${sql.lit('\\')}`;
    case 'range': {
      const bounds: RawBuilder<SqlBool>[] = [];
      if (term.gte !== undefined) bounds.push(sql<SqlBool>`${ref} >= ${param(term.gte)}`);
      if (term.lte !== undefined) bounds.push(sql<SqlBool>`${ref} <= ${param(term.lte)}`);
      return sql<SqlBool>`(${sql.join(bounds, sql` and `)})`;
    }
  }
};

/** The base with the filter's conditions (every one must hold) and its scope subqueries narrowed to the pins. */
const filtered = <D, TB extends keyof D>(base: SelectQueryBuilder<D, TB, object>, plan: FilterPlan, param: Param) => {
  const parts = plan.terms.map((term) => termCondition(term, param));
  const where = parts.length === 0 ? base : base.where(sql<SqlBool>`${sql.join(parts, sql` and `)}`);
  if (plan.pins.size === 0) return where;
  return where.withPlugin(narrowScopesPlugin(new Map([...plan.pins].map(([ref, indexes]) => [ref, indexes.map((index) => param(index))]))));
};

const idFieldsOf = (config: ResourceConfig): string[] => (typeof config.id === 'string' ? [config.id] : [...config.id]);

/** What a listing's queries reuse on every call: its SELECT list, its tie-breakers, its ORDER BY items. */
interface Prepared {
  columns: [string, Column][];
  /** The wire names, in SELECT order. */
  names: string[];
  /** Every column under its wire name. */
  selection: AliasedRawBuilder<unknown, string>[];
  /** The id fields that can be sorted by, the tie-breakers after the sort field. */
  tieBreakers: string[];
  orderItems: Map<string, RawBuilder<unknown>[]>;
}

const preparedListings = new WeakMap<Listing, Prepared>();

const prepared = (listing: Listing): Prepared => {
  let found = preparedListings.get(listing);
  if (found === undefined) {
    const { config } = listing;
    found = {
      columns: Object.entries(listing.columns),
      names: Object.keys(listing.columns),
      selection: Object.entries(listing.columns).map(([source, col]) => sql.ref(col.ref).as(source)),
      tieBreakers: sortableFields(config).filter((source) => idFieldsOf(config).includes(source)),
      orderItems: new Map(),
    };
    preparedListings.set(listing, found);
  }
  return found;
};

/** The sort a body asks for (the configuration's default sort without one), as `asc Time`. */
const sortKey = (listing: Listing, sort: ListBody['sort']): string => {
  const { defaultSort } = listing.config;
  return `${(sort?.order ?? defaultSort.order) === 'DESC' ? 'desc' : 'asc'} ${sort?.field ?? defaultSort.field}`;
};

/** ORDER BY terms of a sort: the sort field (missing values last), then the id fields as tie-breakers, each column named by `refOf`. */
const orderTerms = (listing: Listing, key: string, refOf: (source: string, col: Column) => string): RawBuilder<unknown>[] => {
  const [order = 'asc', field = ''] = key.split(' ');
  const direction = sql.raw(order);
  const keys = [...new Set([field, ...prepared(listing).tieBreakers])];
  return keys.map((source) => {
    const col = listing.columns[source];
    if (col === undefined) throw new Error(`${listing.config.name}: no column to sort by ${source}`);
    const ref = sql.ref(refOf(source, col));
    return col.nullable ? sql`${ref} ${direction} nulls last` : sql`${ref} ${direction}`;
  });
};

/** ORDER BY items of a list's query (its columns), kept per listing and sort. */
export const orderItems = (listing: Listing, sort: ListBody['sort']): RawBuilder<unknown>[] => {
  const cache = prepared(listing);
  const key = sortKey(listing, sort);
  const known = cache.orderItems.get(key);
  if (known !== undefined) return known;
  const items = orderTerms(listing, key, (_source, col) => col.ref);
  // Sort fields are allow-listed by the body schema, so this holds at most two entries per sortable field.
  cache.orderItems.set(key, items);
  return items;
};

const COUNT_COLUMNS = ['total'];

const countQuery = <D, TB extends keyof D>(query: SelectQueryBuilder<D, TB, object>) => query.select(sql<number>`count(*)`.as('total'));

/**
 * The page size written into the SQL as a number, not bound: SQLite (3.47 on) reads a bound LIMIT's
 * value while preparing and marks the statement expired whenever that parameter is bound again, so a
 * cached page statement with `limit ?` was prepared anew on every call (20–60 µs a list request,
 * bench/README.md). A page size is therefore part of a page query's shape (runCachedList's key).
 */
const pageSizeLiteral = (pageSize: number): RawBuilder<number> => {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error(`not a page size: ${String(pageSize)}`);
  return sql.lit(pageSize);
};

interface PageSlice {
  pageSize: number;
  /** The index of the offset's value. */
  offset: number;
}

/** One page of `pageSize` rows: every column under its wire name (or `selection`), sorted, `offset` the value at that index. */
const pageQuery = <D, TB extends keyof D>(
  query: SelectQueryBuilder<D, TB, object>,
  listing: Listing,
  sort: ListBody['sort'],
  page: PageSlice,
  param: Param,
  selection = prepared(listing).selection,
) => {
  let ordered = query.select(selection);
  for (const item of orderItems(listing, sort)) ordered = ordered.orderBy(item);
  return ordered.limit(pageSizeLiteral(page.pageSize)).offset(param<number>(page.offset));
};

/** A row (its columns in SELECT order) under wire names as the wire carries it: flags as booleans, numbers as numbers. */
const toWire = (columns: readonly [string, Column][], row: readonly unknown[]): WireRecord => {
  const record: WireRecord = {};
  for (let index = 0; index < columns.length; index += 1) {
    const [source, col] = columns[index] as [string, Column];
    const value = row[index];
    if (value === null || value === undefined) record[source] = null;
    else if (col.type === 'flag') record[source] = Number(value) !== 0;
    else if (col.type === 'number') record[source] = typeof value === 'number' ? value : Number(value);
    else record[source] = String(value);
  }
  return record;
};

/** A page as a list's answer carries it, and how many records it holds. */
interface Page<L> {
  list: L;
  length: number;
}

/**
 * The answer from the two queries: the whole match counted, one page read. The first page is read
 * first: when it is not full it is the whole match, and its length is the total (getOne, getMany and
 * short lists never count). Any other page is read only when it lies before the end, so no offset
 * beyond the data ever reaches the store.
 */
const answer = async <L>(body: ListBody, count: () => Promise<number>, page: () => Promise<Page<L>>, empty: L): Promise<{ list: L; total: number }> => {
  const offset = (body.current - 1) * body.pageSize;
  if (offset === 0) {
    const { list, length } = await page();
    return { list, total: length < body.pageSize ? length : await count() };
  }
  const total = await count();
  if (offset >= total) return { list: empty, total };
  return { list: (await page()).list, total };
};

/** Rows of a page query (arrays in SELECT order) as wire records. */
const recordsPage = (listing: Listing, rows: readonly unknown[]): Page<WireRecord[]> => {
  const { columns, names } = prepared(listing);
  const list = rowsAsArrays(rows, names).map((row) => toWire(columns, row));
  return { list, length: list.length };
};

/**
 * Answers a validated list body from `base`: a query over the resource's tables, already limited to
 * the caller's scope, without a SELECT list. Builds and compiles the queries on every call; the hot
 * lists use runCachedList, which compiles each shape once.
 */
export const runList = async <D, TB extends keyof D>(
  base: SelectQueryBuilder<D, TB, object>,
  listing: Listing,
  body: ListBody,
): Promise<ListAnswer> => {
  const values: unknown[] = [];
  const plan = planFilter(listing, body.filter, values);
  if (plan.matchesNothing) return { list: [], total: 0 };
  const page = { pageSize: body.pageSize, offset: values.push((body.current - 1) * body.pageSize) - 1 };
  const param: Param = <T>(index: number) => values[index] as T;
  const query = filtered(base, plan, param);
  return answer(
    body,
    async () => Number(rowsAsArrays(await countQuery(query).execute(), COUNT_COLUMNS)[0]?.[0] ?? 0),
    async () => recordsPage(listing, await pageQuery(query, listing, body.sort, page, param).execute()),
    [],
  );
};

/**
 * A list's base query for runCachedList: `from` builds it with `param(i)` standing for `values[i]`;
 * `builder` (the function behind `from`) and `key` name what it builds apart from those values, so
 * equal names must mean equal SQL.
 */
export interface ListSource<D, TB extends keyof D> {
  db: Kysely<DB>;
  builder: object;
  key: string;
  values: readonly unknown[];
  from: (param: Param) => SelectQueryBuilder<D, TB, object>;
}

/**
 * The base of a list limited to what `viewer` sees, built by `build` (a module-level function: it names
 * the tables and applies server/scope). Scope depends on the viewer's level and id only, so the SQL is
 * cached per level with the id bound as a value: `build` may branch on the level, never on the id.
 */
export const viewerSource = <D, TB extends keyof D>(
  db: Kysely<DB>,
  viewer: Viewer,
  build: (db: Kysely<DB>, viewer: Viewer) => SelectQueryBuilder<D, TB, object>,
): ListSource<D, TB> => ({
  db,
  builder: build,
  key: `level ${viewer.level}`,
  values: [viewer.id],
  from: (param) => build(db, { id: param<number>(0), level: viewer.level }),
});

/** Compiled list queries kept per store (Kysely instance) and builder, least recently used dropped beyond this. */
export const LIST_QUERY_CACHE_SIZE = 1000;

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

/**
 * A list answered as the wire's JSON text (`list`: the page, a JSON array), rendered by the store
 * itself: no value, array or record object per row, and no JSON.stringify of them, which were most of
 * a page's cost in the server (bench/README.md, sixth round). Same records as ListAnswer's, in the
 * same order; numbers may be written differently (SQLite writes a stored 60.0 as `60.0`), never with
 * another value.
 */
export interface RenderedList {
  list: string;
  total: number;
}

/** How a cached list reads its page: the name of that form (part of the query's key), its query, and its rows read. */
interface PageForm<L> {
  name: string;
  /** The page of `query` (filtered, nothing selected yet), its values placeholders (`parameter`). */
  build: <D, TB extends keyof D>(db: Kysely<DB>, query: SelectQueryBuilder<D, TB, object>, listing: Listing, sort: ListBody['sort'], page: PageSlice) => Compilable<unknown>;
  /** The page query's rows as the store answered them (arrays on SQLite, objects on PostgreSQL). */
  read: (listing: Listing, rows: readonly unknown[]) => Page<L>;
  empty: L;
}

const RECORDS: PageForm<WireRecord[]> = {
  name: 'records',
  build: (_db, query, listing, sort, page) => pageQuery(query, listing, sort, page, parameter),
  read: recordsPage,
  empty: [],
};

/** A wire value of a rendered page: a flag as JSON true or false (SQLite has no booleans), anything else as stored. */
const renderedValue = (sqlite: boolean, col: Column, ref: Expression<unknown>): Expression<unknown> => {
  if (col.type !== 'flag') return ref;
  return sqlite
    ? sql`case when ${ref} is null then null when ${ref} <> 0 then json('true') else json('false') end`
    : sql`case when ${ref} is null then null else ${ref} <> 0 end`;
};

/**
 * The page query wrapped in one aggregate: the page's records as a JSON array in the page's own
 * order (the aggregate's ORDER BY repeats the sort over the page's columns), and how many there are.
 * The page's columns are named by position (c0, c1, …): SQLite's names ignore case, and a listing may
 * hold both `id` and `Id` (orders).
 */
const JSON_PAGE: PageForm<string> = {
  name: 'json',
  build: (db, query, listing, sort, page) => {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    const { columns } = prepared(listing);
    const position = new Map(columns.map(([source], index) => [source, `p.c${index}`]));
    const ref = (source: string) => position.get(source) ?? source;
    const selection = columns.map(([, col], index) => sql.ref(col.ref).as(`c${index}`));
    const pairs = columns.flatMap(([source, col]) => [sql.lit(source), renderedValue(sqlite, col, sql.ref(ref(source)))]);
    const order = sql.join(orderTerms(listing, sortKey(listing, sort), ref));
    const list = sqlite
      ? sql<string>`json_group_array(json_object(${sql.join(pairs)}) order by ${order})`
      : sql<string>`coalesce(json_agg(json_build_object(${sql.join(pairs)}) order by ${order})::text, '[]')`;
    return db.selectFrom(pageQuery(query, listing, sort, page, parameter, selection).as('p')).select([list.as('list'), sql<number>`count(*)`.as('n')]);
  },
  read: (_listing, rows) => {
    const [list = '[]', length = 0] = rowsAsArrays(rows, ['list', 'n'])[0] ?? [];
    return { list: String(list), length: Number(length) };
  },
  empty: '[]',
};

/**
 * runList with each query shape (the source's key, the filter's fields and kinds, the sort, the page
 * size, the page's form) built and compiled once per store, then bound with the call's values: the same
 * SQL runList would build, without Kysely's building and compiling on every call. Rows are read as
 * arrays. `total`, when the caller knows the size of the match without counting it
 * (server/devices/list.ts), replaces the count query.
 */
const cachedList = async <D, TB extends keyof D, L>(
  source: ListSource<D, TB>,
  listing: Listing,
  body: ListBody,
  total: number | undefined,
  form: PageForm<L>,
): Promise<{ list: L; total: number }> => {
  const values = [...source.values];
  const plan = planFilter(listing, body.filter, values);
  if (plan.matchesNothing) return { list: form.empty, total: 0 };
  const page = { pageSize: body.pageSize, offset: values.push((body.current - 1) * body.pageSize) - 1 };
  const query = () => filtered(source.from(parameter), plan, parameter);
  const shape = `${source.key} | ${plan.key}`;
  const read = async (key: string, build: () => Compilable<unknown>) => (await runReusable(source.db, compiledList(source, key, build), values)).rows;
  return answer(
    body,
    async () => total ?? Number(rowsAsArrays(await read(`${shape} | count`, () => countQuery(query())), COUNT_COLUMNS)[0]?.[0] ?? 0),
    async () =>
      form.read(
        listing,
        await read(`${shape} | ${sortKey(listing, body.sort)} | page of ${body.pageSize} as ${form.name}`, () =>
          form.build(source.db, query(), listing, body.sort, page),
        ),
      ),
    form.empty,
  );
};

/** runCachedList or renderCachedList: how a resource's list function is asked to answer. */
export type CachedListRunner<A> = <D, TB extends keyof D>(source: ListSource<D, TB>, listing: Listing, body: ListBody, total?: number) => Promise<A>;

/** A list's answer as wire records (compiled once per shape: cachedList). */
export const runCachedList: CachedListRunner<ListAnswer> = (source, listing, body, total) => cachedList(source, listing, body, total, RECORDS);

/** A list's answer with its page rendered as JSON by the store (the list routes: RenderedList). */
export const renderCachedList: CachedListRunner<RenderedList> = (source, listing, body, total) => cachedList(source, listing, body, total, JSON_PAGE);
