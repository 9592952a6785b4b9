import { readableEntries } from '../../src/resources/model';
import { filterableFields, sortableFields } from '../../src/resources/query';
import type { FieldConfig, ResourceConfig } from '../../src/resources/types';

/**
 * A Listing maps each wire field of a resource to its column: the wire names live only in the
 * listings (one beside each concern), the SQL of a list in ./filter.ts, ./sort.ts and ./page.ts.
 */

/**
 * How a column stores a wire value: text, a number (times included), a 0/1 flag read as a boolean, or
 * JSON text listed as the value it spells (a reading field: a device's latest reading).
 */
export type ColumnType = 'text' | 'number' | 'flag' | 'json';

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
    case 'reading':
      return type === 'json';
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
