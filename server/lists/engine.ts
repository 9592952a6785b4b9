import { sql, type AliasedRawBuilder, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { readableEntries, type WireRecord } from '../../src/resources/model';
import type { FilterValue, ListAnswer, ListBody, Range } from '../../src/resources/query';
import type { FieldConfig, ResourceConfig } from '../../src/resources/types';
import { filterableFields, sortableFields } from '../../src/resources/query';
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

const NOTHING = sql<SqlBool>`1 = 0`;
const EVERYTHING = sql<SqlBool>`1 = 1`;

/** `%text%` for LIKE, with LIKE's own characters escaped by a backslash. */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The values of a list filter as the column stores them, without duplicates; those no row can hold dropped. */
const storedList = (col: Column, value: readonly unknown[]): (string | number)[] => [
  ...new Set(value.map((item) => stored(col, item)).filter((item) => item !== undefined)),
];

/** A text field's string filter is a case-insensitive "contains"; every other scalar matches exactly. */
const isContains = (field: FieldConfig, col: Column, value: FilterValue): value is string =>
  field.kind === 'text' && typeof value === 'string' && col.type === 'text';

const condition = (field: FieldConfig, col: Column, value: FilterValue): Expression<SqlBool> => {
  const ref = sql.ref(col.ref);
  if (Array.isArray(value)) {
    const values = storedList(col, value);
    return values.length === 0 ? NOTHING : sql<SqlBool>`${ref} in (${sql.join(values)})`;
  }
  if (isRange(value)) {
    const bounds: RawBuilder<SqlBool>[] = [];
    if (value.gte !== undefined) bounds.push(sql<SqlBool>`${ref} >= ${value.gte}`);
    if (value.lte !== undefined) bounds.push(sql<SqlBool>`${ref} <= ${value.lte}`);
    return bounds.length === 0 ? EVERYTHING : sql<SqlBool>`(${sql.join(bounds, sql` and `)})`;
  }
  if (isContains(field, col, value)) {
    return sql<SqlBool>`lower(${ref}) like ${containsPattern(value)} escape ${sql.lit('\\')}`;
  }
  const exact = stored(col, value);
  return exact === undefined ? NOTHING : sql<SqlBool>`${ref} = ${exact}`;
};

/** Each filtered field with its column; the body schema allows only filterable fields, each with a column. */
const filterEntries = (listing: Listing, filter: ListBody['filter']): [FieldConfig, Column, FilterValue][] => {
  const entries: [FieldConfig, Column, FilterValue][] = [];
  for (const [source, value] of Object.entries(filter ?? {})) {
    if (value === undefined) continue;
    const col = listing.columns[source];
    const field = listing.config.fields[source];
    if (col === undefined || field === undefined) throw new Error(`${listing.config.name}: no column to filter ${source}`);
    entries.push([field, col, value]);
  }
  return entries;
};

/** The filter as one condition (every field's condition must hold); undefined when there is none. */
export const filterCondition = (listing: Listing, filter: ListBody['filter']): Expression<SqlBool> | undefined => {
  const parts = filterEntries(listing, filter).map(([field, col, value]) => condition(field, col, value));
  return parts.length === 0 ? undefined : sql<SqlBool>`${sql.join(parts, sql` and `)}`;
};

/**
 * The columns the filter pins to a few exact values (`alias.column` → the values as stored): a list, or
 * a scalar that matches exactly (not a text "contains", not a range). Their scope subqueries can be
 * narrowed to these values (./narrow.ts).
 */
export const pinnedColumns = (listing: Listing, filter: ListBody['filter']): Map<string, (string | number)[]> => {
  const pins = new Map<string, (string | number)[]>();
  for (const [field, col, value] of filterEntries(listing, filter)) {
    if (Array.isArray(value)) pins.set(col.ref, storedList(col, value));
    else if (!isRange(value) && !isContains(field, col, value)) {
      const exact = stored(col, value);
      pins.set(col.ref, exact === undefined ? [] : [exact]);
    }
  }
  return pins;
};

const idFieldsOf = (config: ResourceConfig): string[] => (typeof config.id === 'string' ? [config.id] : [...config.id]);

/** What a listing's queries reuse on every call: its SELECT list, its tie-breakers, its ORDER BY items. */
interface Prepared {
  columns: [string, Column][];
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
      selection: Object.entries(listing.columns).map(([source, col]) => sql.ref(col.ref).as(source)),
      tieBreakers: sortableFields(config).filter((source) => idFieldsOf(config).includes(source)),
      orderItems: new Map(),
    };
    preparedListings.set(listing, found);
  }
  return found;
};

/** ORDER BY items: the sort field (missing values last), then the id fields as tie-breakers. */
export const orderItems = (listing: Listing, sort: ListBody['sort']): RawBuilder<unknown>[] => {
  const { config } = listing;
  const field = sort?.field ?? config.defaultSort.field;
  const order = (sort?.order ?? config.defaultSort.order) === 'DESC' ? 'desc' : 'asc';
  const cache = prepared(listing);
  const key = `${order} ${field}`;
  const known = cache.orderItems.get(key);
  if (known !== undefined) return known;
  const direction = sql.raw(order);
  const keys = [...new Set([field, ...cache.tieBreakers])];
  const items = keys.map((source) => {
    const col = listing.columns[source];
    if (col === undefined) throw new Error(`${config.name}: no column to sort by ${source}`);
    const ref = sql.ref(col.ref);
    return col.nullable ? sql`${ref} ${direction} nulls last` : sql`${ref} ${direction}`;
  });
  // Sort fields are allow-listed by the body schema, so this holds at most two entries per sortable field.
  cache.orderItems.set(key, items);
  return items;
};

/** A row under wire names as the wire carries it: flags as booleans, numbers as numbers. */
const toWire = (listing: Listing, row: Record<string, unknown>): WireRecord => {
  const record: WireRecord = {};
  for (const [source, col] of prepared(listing).columns) {
    const value = row[source];
    if (value === null || value === undefined) record[source] = null;
    else if (col.type === 'flag') record[source] = Number(value) !== 0;
    else if (col.type === 'number') record[source] = typeof value === 'number' ? value : Number(value);
    else record[source] = String(value);
  }
  return record;
};

/**
 * Answers a validated list body from `base`: a query over the resource's tables, already limited to
 * the caller's scope, without a SELECT list. Counts the whole match, then reads one page (skipped when
 * the page lies past the end, so no offset beyond the data ever reaches the store).
 */
export const runList = async <D, TB extends keyof D>(
  base: SelectQueryBuilder<D, TB, object>,
  listing: Listing,
  body: ListBody,
): Promise<ListAnswer> => {
  const condition = filterCondition(listing, body.filter);
  const pins = pinnedColumns(listing, body.filter);
  const where = condition === undefined ? base : base.where(condition);
  const filtered = pins.size === 0 ? where : where.withPlugin(narrowScopesPlugin(pins));
  const counted = (await filtered.select(sql<number>`count(*)`.as('total')).executeTakeFirst()) as { total?: unknown } | undefined;
  const total = Number(counted?.total ?? 0);
  const offset = (body.current - 1) * body.pageSize;
  if (offset >= total) return { list: [], total };
  let query = filtered.select(prepared(listing).selection);
  for (const item of orderItems(listing, body.sort)) query = query.orderBy(item);
  const rows = (await query.limit(body.pageSize).offset(offset).execute()) as Record<string, unknown>[];
  return { list: rows.map((row) => toWire(listing, row)), total };
};
