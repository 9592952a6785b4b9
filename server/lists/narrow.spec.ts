import fc from 'fast-check';
import { Kysely, SqliteDialect, sql, type SqlBool } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FilterValue, ListBody } from '../../src/resources/query';
import type { RenderedList } from './answer';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { listDevices } from '../devices/list';
import { listOrders } from '../orders/list';
import { deviceScope, type Viewer } from '../scope/service';
import { listStateRecords } from '../telemetry/list';
import { asLevel } from '../accounts/levels';
import { ALL_DEVICES, FLEET_ASSIGNMENTS, MINUTE, READINGS_PER_DEVICE, seedFleet, T0 } from '../../tests/server/fleet';
import { STORE_KINDS, useStore } from '../../tests/server/stores';
import { narrowScopesPlugin } from './narrow';

/**
 * Narrowing a scope subquery to the values a filter pins (./narrow.ts) must never change an answer:
 * the SQL it writes, where it must leave a query alone, and (both stores) lists of a scoped account
 * compared with the super administrator's answer for the same filter limited to that account's devices.
 */

const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
const scoped: Viewer = { id: 7, level: 1 };
const pins = new Map([['r.device_id', ['OC-A1', 'OC-B1']]]);
const base = db.selectFrom('state_records as r').select('r.id');
const narrowed = (query: typeof base, pinned = pins): string => query.withPlugin(narrowScopesPlugin(pinned)).compile().sql;

describe('narrowScopes', () => {
  const scope = deviceScope(db, scoped);
  if (scope === undefined) throw new Error('a Level 1 account has a scope');

  it("adds the pinned values to a top-level scope subquery's own WHERE, and keeps the filter", () => {
    const query = base.where('r.device_id', 'in', scope).where(sql<SqlBool>`r.device_id in ('OC-A1', 'OC-B1')`);
    expect(narrowed(query)).toBe(
      'select "r"."id" from "state_records" as "r" where "r"."device_id" in (select "account_devices"."device_id" from "account_devices" ' +
        'where "account_devices"."account_id" = ? and "account_devices"."device_id" in (?, ?)) and r.device_id in (\'OC-A1\', \'OC-B1\')',
    );
  });

  it('turns the scope subquery into an EXISTS for a single pinned value', () => {
    const query = base.where('r.device_id', 'in', scope).where(sql<SqlBool>`r.device_id = 'OC-A1'`);
    expect(narrowed(query, new Map([['r.device_id', ['OC-A1']]]))).toBe(
      'select "r"."id" from "state_records" as "r" where exists (select "account_devices"."device_id" from "account_devices" ' +
        'where "account_devices"."account_id" = ? and "account_devices"."device_id" = ?) and r.device_id = \'OC-A1\'',
    );
  });

  it('leaves alone: other columns, conditions under OR, subqueries with a limit, queries without pins', () => {
    const cases = [
      base.where('r.ss', 'in', db.selectFrom('account_devices').select('account_devices.device_id')),
      base.where((eb) => eb.or([eb('r.device_id', 'in', scope), eb('r.time', '=', 1)])),
      base.where('r.device_id', 'in', scope.limit(5)),
    ];
    for (const query of cases) expect(narrowed(query)).toBe(query.compile().sql);
    const plain = base.where('r.device_id', 'in', scope);
    expect(narrowed(plain, new Map())).toBe(plain.compile().sql);
  });
});

describe.each(STORE_KINDS)('narrowed scopes answer as the super administrator does (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;
  const viewers: Record<string, Viewer> = {};

  beforeAll(async () => {
    ctx = store.context();
    await seedFleet(ctx);
    for (const row of await ctx.db.selectFrom('accounts').select(['id', 'account', 'level']).execute()) {
      viewers[row.account] = { id: row.id, level: asLevel(row.level) };
    }
  });

  const lists: readonly [string, (ctx: AppContext, viewer: Viewer, body: ListBody) => Promise<RenderedList>, boolean][] = [
    ['devices', listDevices, false],
    ['state records', listStateRecords, true],
    ['orders', listOrders, true],
  ];
  const ids = fc.uniqueArray(fc.constantFrom(...ALL_DEVICES, 'OC-Z9'), { maxLength: 4 });

  it('for every pinned filter (a list, or one exact Id), with and without a time range', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(FLEET_ASSIGNMENTS)),
        fc.constantFrom(...lists),
        ids,
        fc.boolean(),
        // Minutes from T0: orders lie up to 40 hours before it, readings the first minutes after it.
        fc.option(fc.record({ gte: fc.integer({ min: -48 * 60, max: READINGS_PER_DEVICE }), lte: fc.integer({ min: -48 * 60, max: READINGS_PER_DEVICE }) })),
        async (who, [name, list, hasTime], wanted, single, range) => {
          const viewer = viewers[who];
          if (viewer === undefined) throw new Error(`no account ${who}`);
          const visible = FLEET_ASSIGNMENTS[who] ?? [];
          // A single Id is an exact match on references (state records, orders); on devices it is a text search.
          const asSingle = single && hasTime && wanted.length === 1;
          const Id = asSingle ? (wanted[0] ?? '') : wanted;
          const time: Record<string, FilterValue> =
            hasTime && range !== null ? { Time: { gte: T0 + range.gte * MINUTE, lte: T0 + range.lte * MINUTE } } : {};
          const body: ListBody = { current: 1, pageSize: 100, filter: { Id, ...time } };
          const reference: ListBody = { ...body, filter: { Id: wanted.filter((id) => visible.includes(id)), ...time } };
          const got = await list(ctx, viewer, body);
          const admin = viewers.admin;
          if (admin === undefined) throw new Error('no super administrator');
          const expected = await list(ctx, admin, reference);
          expect(got, `${name} as ${who}: ${JSON.stringify(body)}`).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
