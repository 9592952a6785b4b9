import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FilterValue, ListBody } from '../../src/resources/query';
import { filterableFields, sortableFields } from '../../src/resources/query';
import type { FieldConfig } from '../../src/resources/types';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { deviceListing, listDevices } from '../devices/list';
import { listOrders, orderListing } from '../orders/list';
import type { Viewer } from '../scope/service';
import { listStateRecords, stateRecordListing } from '../telemetry/list';
import { asLevel } from '../accounts/levels';
import { ALL_DEVICES, HOUR, MINUTE, seedFleet, T0 } from '../../tests/server/fleet';
import { STORE_KINDS, useStore } from '../../tests/server/stores';
import { asRecords, type RenderedList } from './answer';
import type { Listing } from './listing';

/**
 * The lists compile each query shape once and bind the values of every later call (./compiled.ts). Two
 * bodies of one shape must therefore mean the same SQL with other values: checked by answering random
 * bodies, for every account (same levels, other ids), through the shared cache and through a store
 * handle of its own for each call (a new Kysely instance: an empty cache, so every query is compiled
 * for that very body), on both stores. The same context answers all of them, so later runs hit entries
 * compiled for earlier bodies and other accounts. The rendered page must parse to records of the
 * listing's fields, as many as it says it holds.
 */

type List = (ctx: AppContext, viewer: Viewer, body: ListBody) => Promise<RenderedList>;

/** The lists as the routes call them. */
const lists: Record<string, [List, () => Listing]> = {
  devices: [listDevices, deviceListing],
  'state-records': [listStateRecords, stateRecordListing],
  orders: [listOrders, orderListing],
};

/** The same store through a new Kysely instance, whose compiled queries start empty (they are kept per instance). */
const freshHandle = (db: Kysely<DB>): Kysely<DB> => db.withPlugin({ transformQuery: ({ node }) => node, transformResult: ({ result }) => Promise.resolve(result) });

const ids = fc.uniqueArray(fc.constantFrom(...ALL_DEVICES, 'OC-Z9'), { maxLength: 3 });
const time = fc.integer({ min: -48 * 60, max: 10 }).map((minutes) => T0 + minutes * MINUTE);
const small = fc.integer({ min: 0, max: 5 });
const rangeOf = (bound: fc.Arbitrary<number>) => fc.record({ gte: bound, lte: bound }, { requiredKeys: [] });

/** A filter value of the field's kind, as the console sends them (and a few that match nothing). */
const valueOf = (source: string, field: FieldConfig): fc.Arbitrary<FilterValue> => {
  if (source === 'Id') return fc.oneof(ids, fc.constantFrom(...ALL_DEVICES, 'OC-Z9', 'oc-a', ''));
  switch (field.kind) {
    case 'datetime':
      return fc.oneof(rangeOf(time), fc.constant(T0 - HOUR), fc.constant({}));
    case 'number':
      return fc.oneof(rangeOf(small), small, fc.constant({}));
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.oneof(fc.constantFrom(...field.choices), fc.array(fc.constantFrom(...field.choices), { maxLength: 2 }));
    default:
      return fc.oneof(fc.constantFrom('a', 'Hall', '_', '%', 'lab', '1'), fc.array(fc.constantFrom('ORD-0001', 'oOpenId3', 'x'), { maxLength: 2 }));
  }
};

const bodyOf = (listing: Listing): fc.Arbitrary<ListBody> => {
  const { config } = listing;
  const filters = Object.fromEntries(
    filterableFields(config).map((source) => {
      const field = config.fields[source];
      if (field === undefined) throw new Error(`${config.name}.${source} has no field`);
      return [source, valueOf(source, field)];
    }),
  );
  return fc.record(
    {
      current: fc.integer({ min: 1, max: 3 }),
      pageSize: fc.integer({ min: 1, max: 4 }),
      sort: fc.record({ field: fc.constantFrom(...sortableFields(config)), order: fc.constantFrom('ASC' as const, 'DESC' as const) }),
      filter: fc.record(filters, { requiredKeys: [] }) as fc.Arbitrary<Record<string, FilterValue>>,
    },
    { requiredKeys: ['current', 'pageSize'] },
  );
};

describe.each(STORE_KINDS)('compiled once, bound per call: the same answers as compiling every query for its body (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;
  const viewers: Viewer[] = [];

  beforeAll(async () => {
    ctx = store.context();
    await seedFleet(ctx);
    for (const row of await ctx.db.selectFrom('accounts').select(['id', 'level']).execute()) viewers.push({ id: row.id, level: asLevel(row.level) });
  });

  it.each(Object.keys(lists))('%s', async (name) => {
    const [list, listing] = lists[name] ?? [];
    if (list === undefined || listing === undefined) throw new Error(`no list ${name}`);
    const fields = Object.keys(listing().columns);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...viewers), bodyOf(listing()), async (viewer, body) => {
        const expected = await list({ ...ctx, db: freshHandle(ctx.db) }, viewer, body);
        const answer = await list(ctx, viewer, body);
        expect(answer, JSON.stringify(body)).toEqual(expected);
        const { list: records } = asRecords(answer);
        expect(records.length, `length: ${JSON.stringify(body)}`).toBe(answer.length);
        for (const record of records) expect(Object.keys(record)).toEqual(fields);
      }),
      { numRuns: 150 },
    );
  });
});
