import { z } from 'zod';
import { fieldEntries, fieldOf, idFields, sourcesIn, type WireRecord } from './model';
import { fieldSchema } from './schema';
import type { FieldConfig, ResourceConfig } from './types';

/**
 * The paged list call of the upstream contract, `{ current, pageSize, sort, filter }` → `{ list, total }`,
 * and what its filter means. The console builds it, the mocks answer it with applyListQuery, and the
 * server validates it with listBodySchema and answers it in SQL with the same meaning:
 * - a string on a text field matches case-insensitively anywhere in the text;
 * - a list matches any of its values exactly (how getMany asks for records by id);
 * - `{ gte, lte }` on a number or time is an inclusive range;
 * - anything else matches exactly; a many-valued field matches when it holds the value.
 */

/** docs/product.md: paged lists default to page 1 of 10. */
export const DEFAULT_PAGE = { current: 1, pageSize: 10 } as const;
/** react-admin's CSV export asks for up to 1000 records at once. */
export const MAX_PAGE_SIZE = 1000;

export interface Range {
  gte?: number;
  lte?: number;
}
export type FilterValue = string | number | boolean | readonly (string | number)[] | Range;
export type SortOrder = 'ASC' | 'DESC';

export interface ListBody {
  current: number;
  pageSize: number;
  sort?: { field: string; order: SortOrder };
  filter?: Record<string, FilterValue>;
}

export interface ListAnswer<T = WireRecord> {
  list: T[];
  total: number;
  /**
   * Set when the match holds more records than the resource counts (ResourceConfig.countUpTo): `total` is
   * then a lower bound (at least one record beyond this page when the page is full), not the size.
   */
  totalIsLowerBound?: true;
}

/**
 * How far a list of a resource with `countUpTo` counts its match for a page at `offset`: one past
 * countUpTo, or one past the page when it lies deeper (so whether another page follows is always known).
 */
export const countLimit = (countUpTo: number, offset: number, pageSize: number): number => Math.max(countUpTo, offset + pageSize) + 1;

/** The total of a match counted up to `limit` (undefined: counted in full): exact, or a lower bound when the count reached it. */
export const listTotal = (matched: number, limit: number | undefined): Pick<ListAnswer, 'total' | 'totalIsLowerBound'> =>
  limit === undefined || matched < limit ? { total: matched } : { total: matched, totalIsLowerBound: true };

/** react-admin's filter inputs name range bounds `<source>_gte` and `<source>_lte`; the wire nests them. */
const RANGE_BOUND = /^(.+)_(gte|lte)$/;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** react-admin's filter values as the wire carries them: range bounds nested, empty inputs dropped. */
export const toWireFilter = (filter: Record<string, unknown>): Record<string, unknown> => {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (isEmpty(value)) continue;
    const bound = RANGE_BOUND.exec(key);
    if (bound?.[1] && bound[2]) wire[bound[1]] = { ...(wire[bound[1]] as Range | undefined), [bound[2]]: value };
    else wire[key] = value;
  }
  return wire;
};

const scalarSchema = (field: FieldConfig): z.ZodType => {
  if (field.kind === 'text') return z.string().max(field.maxLength);
  if (field.kind === 'reference') return z.union([z.string(), z.number()]);
  return fieldSchema(field);
};

const filterValueSchema = (field: FieldConfig): z.ZodType => {
  const scalar = scalarSchema(field);
  const options: z.ZodType[] = [scalar, z.array(scalar).max(MAX_PAGE_SIZE)];
  if (field.kind === 'number' || field.kind === 'datetime') {
    options.push(z.strictObject({ gte: z.number().optional(), lte: z.number().optional() }));
  }
  return z.union(options);
};

const oneOf = (values: string[]) => z.string().refine((value) => values.includes(value), { params: { messageKey: 'oneOf' } });

/** The fields a list may be sorted by: the id fields and those the configuration shows in `sort`. */
export const sortableFields = (config: ResourceConfig): string[] => [...new Set([...idFields(config), ...sourcesIn(config, 'sort')])];

/** The fields a list may be filtered by: the id fields (getMany asks by id) and those shown in `filter`. */
export const filterableFields = (config: ResourceConfig): string[] => [...new Set([...idFields(config), ...sourcesIn(config, 'filter')])];

/** The list body the resource accepts: sort and filter only on the fields its configuration allows. */
export const listBodySchema = (config: ResourceConfig) => {
  const filterable = filterableFields(config);
  const sortable = sortableFields(config);
  return z.strictObject({
    current: z.number().int().min(1).default(DEFAULT_PAGE.current),
    pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE.pageSize),
    sort: z.strictObject({ field: oneOf(sortable), order: z.enum(['ASC', 'DESC']) }).optional(),
    filter: z
      .strictObject(
        Object.fromEntries(
          fieldEntries(config)
            .filter(([source]) => filterable.includes(source))
            .map(([source, field]) => [source, filterValueSchema(field).optional()]),
        ),
      )
      .optional(),
  });
};

const isRange = (value: unknown): value is Range => typeof value === 'object' && value !== null && !Array.isArray(value);

const matches = (actual: unknown, wanted: unknown, field: FieldConfig | undefined): boolean => {
  if (Array.isArray(actual)) return actual.some((item) => matches(item, wanted, field));
  if (Array.isArray(wanted)) return wanted.includes(actual);
  if (isRange(wanted)) {
    if (typeof actual !== 'number') return false;
    return (wanted.gte === undefined || actual >= wanted.gte) && (wanted.lte === undefined || actual <= wanted.lte);
  }
  if (field?.kind === 'text' && typeof wanted === 'string' && typeof actual === 'string') {
    return actual.toLowerCase().includes(wanted.toLowerCase());
  }
  return actual === wanted;
};

/** Numbers by value, anything else by code point, as the server's binary collation orders text. */
const compare = (a: unknown, b: unknown): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** One sort key in a direction; missing values last in either order, as SQL's NULLS LAST. */
const byField = (field: string, order: SortOrder) => (a: WireRecord, b: WireRecord) => {
  const [x, y] = [a[field], b[field]];
  if (isEmpty(x) || isEmpty(y)) return Number(isEmpty(x)) - Number(isEmpty(y));
  return (order === 'DESC' ? -1 : 1) * compare(x, y);
};

/**
 * Answers a list body from records in memory, with the meaning above. Without a sort the resource's
 * default sort applies, and ties are broken by the id fields in the same direction, so pages never
 * overlap (the server orders the same way).
 */
export const applyListQuery = (config: ResourceConfig, records: readonly WireRecord[], body: ListBody): ListAnswer => {
  const filter = Object.entries(body.filter ?? {});
  const found = records.filter((record) =>
    filter.every(([source, wanted]) => matches(record[source], wanted, fieldOf(config, source))),
  );
  const { field, order } = body.sort ?? config.defaultSort;
  const keys = [field, ...idFields(config).filter((source) => source !== field)].map((source) => byField(source, order));
  found.sort((a, b) => keys.reduce((result, key) => result || key(a, b), 0));
  const start = (body.current - 1) * body.pageSize;
  const list = found.slice(start, start + body.pageSize);
  // Counted as the server counts (server/lists/answer.ts): a short first page is its own total.
  const limit = config.countUpTo === undefined || (start === 0 && list.length < body.pageSize) ? undefined : countLimit(config.countUpTo, start, body.pageSize);
  return { list, ...listTotal(limit === undefined ? found.length : Math.min(found.length, limit), limit) };
};
