import { sql, type RawBuilder } from 'kysely';
import type { ListBody } from '../../src/resources/query';
import { sortableFields } from '../../src/resources/query';
import type { Column, Listing } from './listing';

/**
 * A list's order: the sort field with missing values last in either order, then the id fields in the
 * same direction so that pages never overlap; without a sort, the configuration's defaultSort.
 */

/** The sort a body asks for (the configuration's default sort without one), as `asc Time`: part of a query's shape. */
export const sortKey = (listing: Listing, sort: ListBody['sort']): string => {
  const { defaultSort } = listing.config;
  return `${(sort?.order ?? defaultSort.order) === 'DESC' ? 'desc' : 'asc'} ${sort?.field ?? defaultSort.field}`;
};

const idFieldsOf = (listing: Listing): string[] => {
  const { id } = listing.config;
  return typeof id === 'string' ? [id] : [...id];
};

/** ORDER BY terms of a sort key: the sort field, then the sortable id fields as tie-breakers, each column named by `refOf`. */
export const orderTerms = (listing: Listing, key: string, refOf: (source: string, col: Column) => string): RawBuilder<unknown>[] => {
  const [order = 'asc', field = ''] = key.split(' ');
  const direction = sql.raw(order);
  const ids = idFieldsOf(listing);
  const tieBreakers = sortableFields(listing.config).filter((source) => ids.includes(source));
  return [...new Set([field, ...tieBreakers])].map((source) => {
    const col = listing.columns[source];
    if (col === undefined) throw new Error(`${listing.config.name}: no column to sort by ${source}`);
    const ref = sql.ref(refOf(source, col));
    // NOT NULL columns skip the clause so that their indexes serve the order.
    return col.nullable ? sql`${ref} ${direction} nulls last` : sql`${ref} ${direction}`;
  });
};
