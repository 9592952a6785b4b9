import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { FilterValue, ListBody, Range } from '../../src/resources/query';
import type { FieldConfig } from '../../src/resources/types';
import { parameter } from '../db/database';
import type { Column, Listing } from './listing';
import { narrowScopesPlugin } from './narrow';

/**
 * A list body's filter in SQL, with the meaning the console's adapter and the mocks give it
 * (src/resources/query.ts, applyListQuery), on SQLite and PostgreSQL alike:
 * - a string on a text field matches case-insensitively anywhere in the text (LIKE, escaped);
 * - a list matches any of its values exactly (getMany's id filter); an empty list matches nothing;
 * - `{ gte, lte }` on a number or time is an inclusive range;
 * - anything else matches exactly; a value of the wrong type for the column matches nothing.
 */

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
    case 'json':
      return undefined;
  }
};

/** `%text%` for LIKE, with LIKE's own characters escaped by a backslash. */
const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

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

/** A filter planned apart from its values, so the SQL of each shape is compiled once (./compiled.ts). */
export interface FilterPlan {
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
export const planFilter = (listing: Listing, filter: ListBody['filter'], values: unknown[]): FilterPlan => {
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

/** One term's SQL, value i bound as `parameter(i)`: the SQL is compiled once for every call of its shape. */
const termCondition = (term: Term): Expression<SqlBool> => {
  const ref = sql.ref(term.col.ref);
  switch (term.kind) {
    case 'in':
      return sql<SqlBool>`${ref} in (${sql.join(Array.from({ length: term.count }, (_, offset) => parameter(term.at + offset)))})`;
    case 'equals':
      return sql<SqlBool>`${ref} = ${parameter(term.at)}`;
    case 'contains':
      return sql<SqlBool>`lower(${ref}) like ${parameter(term.at)} escape ${sql.lit('\\')}`;
    case 'range': {
      const bounds: RawBuilder<SqlBool>[] = [];
      if (term.gte !== undefined) bounds.push(sql<SqlBool>`${ref} >= ${parameter(term.gte)}`);
      if (term.lte !== undefined) bounds.push(sql<SqlBool>`${ref} <= ${parameter(term.lte)}`);
      return sql<SqlBool>`(${sql.join(bounds, sql` and `)})`;
    }
  }
};

/** The base with the filter's conditions (every one must hold) and its scope subqueries narrowed to the pins. */
export const filtered = <D, TB extends keyof D>(base: SelectQueryBuilder<D, TB, object>, plan: FilterPlan) => {
  const parts = plan.terms.map((term) => termCondition(term));
  const where = parts.length === 0 ? base : base.where(sql<SqlBool>`${sql.join(parts, sql` and `)}`);
  if (plan.pins.size === 0) return where;
  return where.withPlugin(narrowScopesPlugin(new Map([...plan.pins].map(([ref, indexes]) => [ref, indexes.map((index) => parameter(index))]))));
};
