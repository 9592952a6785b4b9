import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { accountsConfig } from '../../src/resources/accounts/config';
import { devicesConfig } from '../../src/resources/devices/config';
import type { WireRecord } from '../../src/resources/model';
import { ordersConfig } from '../../src/resources/orders/config';
import { MAX_PAGE_SIZE, type ListAnswer } from '../../src/resources/query';
import { recordSchema } from '../../src/resources/schema';
import { stateRecordsConfig } from '../../src/resources/state-records/config';
import type { ResourceConfig } from '../../src/resources/types';
import { call, envelope } from './http';
import { ALL_DEVICES, demoTokens, FLEET_ASSIGNMENTS, FLEET_ORDERS, MINUTE, READINGS_PER_DEVICE, seedFleet, snapshot, T0, type DemoName } from './fleet';
import { STORE_KINDS, useStore } from './stores';

const DEVICES = '/list/get_OCProperty';
const STATE = '/list/get_OCState';
const ORDERS = '/list/get_Records';
const ADMINS = '/get_Admins';
const ENDPOINTS: readonly [string, ResourceConfig][] = [
  [DEVICES, devicesConfig],
  [STATE, stateRecordsConfig],
  [ORDERS, ordersConfig],
  [ADMINS, accountsConfig],
];

const sorted = <T>(values: T[]) => [...values].sort();

describe.each(STORE_KINDS)('upstream lists (%s)', (kind) => {
  const store = useStore(kind);
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;

  beforeAll(async () => {
    await seedFleet(store.context());
  });

  const ready = async () => {
    app = await store.app();
    tokens = await demoTokens(app);
  };

  /** Posts a list call as `who` and returns the envelope (and the HTTP status). */
  const post = async (path: string, body: unknown, who: DemoName | null = 'admin', lang?: string) => {
    const response = await call(app, path, body, { ...(who === null ? {} : { token: tokens[who] }), ...(lang === undefined ? {} : { lang }) });
    return { http: response.statusCode, ...envelope<ListAnswer>(response) };
  };
  /** The answer of a list call that must succeed. */
  const answer = async (path: string, body: unknown, who: DemoName = 'admin'): Promise<ListAnswer> => {
    const result = await post(path, body, who);
    expect(result, JSON.stringify(result)).toMatchObject({ http: 200, code: CODES.ok });
    return result.data;
  };
  const deviceIds = async (filter: Record<string, unknown>, who: DemoName = 'admin') =>
    sorted((await answer(DEVICES, { pageSize: 100, filter }, who)).list.map((record) => record.Id as string));

  describe('paging', () => {
    it('defaults to page 1 of 10 with no body, an empty body or {}', async () => {
      await ready();
      for (const body of [undefined, {}]) {
        const { list, total } = await answer(STATE, body);
        expect(list).toHaveLength(10);
        expect(total).toBe(ALL_DEVICES.length * READINGS_PER_DEVICE);
      }
      const empty = await app.inject({
        method: 'POST',
        url: `/upstream${STATE}`,
        headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
        payload: '',
      });
      expect(envelope<ListAnswer>(empty).data.list).toHaveLength(10);
    });

    it('pages with current and pageSize: every record once, the total on every page, nothing past the end', async () => {
      await ready();
      const sort = { field: 'Time', order: 'DESC' };
      const seen: string[] = [];
      for (let current = 1; current <= 5; current += 1) {
        const { list, total } = await answer(STATE, { current, pageSize: 7, sort });
        expect(total).toBe(30);
        expect(list).toHaveLength(current < 5 ? 7 : 2);
        seen.push(...list.map((record) => `${String(record.Id)}@${String(record.Time)}`));
      }
      expect(new Set(seen).size).toBe(30);
      expect(await answer(STATE, { current: 6, pageSize: 7, sort })).toEqual({ list: [], total: 30 });
      expect(await answer(STATE, { current: Number.MAX_SAFE_INTEGER, pageSize: MAX_PAGE_SIZE })).toEqual({ list: [], total: 30 });
    });

    it(`caps pageSize at ${MAX_PAGE_SIZE} (react-admin's CSV export asks for that many)`, async () => {
      await ready();
      expect((await answer(STATE, { pageSize: MAX_PAGE_SIZE })).list).toHaveLength(30);
      const refused = await post(STATE, { pageSize: MAX_PAGE_SIZE + 1 }, 'admin', 'en-US');
      expect(refused).toMatchObject({ http: 400, code: CODES.badInput, msg: `pageSize must be at most ${MAX_PAGE_SIZE}`, data: null });
    });
  });

  describe('sorting', () => {
    it('sorts ascending and descending on an allowed field, missing values last either way', async () => {
      await ready();
      for (const order of ['ASC', 'DESC'] as const) {
        const { list } = await answer(STATE, { pageSize: 100, sort: { field: 'RCPi02', order } });
        const values = list.map((record) => record.RCPi02 as number | null);
        expect(values.at(-1)).toBeNull();
        const present = values.slice(0, -1) as number[];
        expect(present.every((value) => typeof value === 'number')).toBe(true);
        expect(present).toEqual([...present].sort((a, b) => (order === 'ASC' ? a - b : b - a)));
      }
      for (const order of ['ASC', 'DESC'] as const) {
        const { list } = await answer(DEVICES, { sort: { field: 'LastSeen', order } });
        const seen = list.map((record) => record.LastSeen);
        expect(seen.slice(-2)).toEqual([null, null]);
        const times = seen.slice(0, -2) as number[];
        expect(times).toEqual([...times].sort((a, b) => (order === 'ASC' ? a - b : b - a)));
      }
    });

    it('sorts text, then breaks ties by the id fields so pages never overlap', async () => {
      await ready();
      const names = async (order: 'ASC' | 'DESC') =>
        (await answer(DEVICES, { sort: { field: 'name', order } })).list.map((record) => record.name);
      expect(await names('ASC')).toEqual(['East One', 'East Two', 'North One', 'North Two', 'South One', 'South Two']);
      expect(await names('DESC')).toEqual(['South Two', 'South One', 'North Two', 'North One', 'East Two', 'East One']);
      // Every reading shares its Time with five others: the device decides within a Time.
      const { list } = await answer(STATE, { pageSize: 12, sort: { field: 'Time', order: 'ASC' } });
      expect(list.map((record) => [record.Time, record.Id])).toEqual(
        [0, 1].flatMap((i) => ALL_DEVICES.map((id) => [T0 + i * MINUTE, id])),
      );
    });

    it("uses the configuration's default sort without one (orders: newest first)", async () => {
      await ready();
      const { list } = await answer(ORDERS, {});
      const times = list.map((record) => record.Time as number);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });
  });

  describe('filters', () => {
    it('matches text anywhere, ignoring case, with LIKE characters taken literally', async () => {
      await ready();
      expect(await deviceIds({ Location: 'HALL A' })).toEqual(['OC-A1', 'OC-A2']);
      expect(await deviceIds({ Location: 'lab' })).toEqual(['OC-B2', 'OC-C1', 'OC-C2']);
      expect(await deviceIds({ Location: '_' })).toEqual(['OC-B2']);
      expect(await deviceIds({ Location: '%' })).toEqual(['OC-C1']);
      expect(await deviceIds({ Location: '\\' })).toEqual([]);
      expect(await deviceIds({ Id: 'a1' })).toEqual(['OC-A1']);
      expect(sorted((await answer(ORDERS, { filter: { OC: '100007' } })).list.map((o) => o.OrderNum as string))).toEqual(['ORD-0007']);
    });

    it('matches a list exactly (getMany); an empty list matches nothing', async () => {
      await ready();
      expect(await deviceIds({ Id: ['OC-A1', 'OC-B1', 'OC-Z9'] })).toEqual(['OC-A1', 'OC-B1']);
      expect(await deviceIds({ Id: ['OC'] })).toEqual([]);
      expect(await deviceIds({ Id: [] })).toEqual([]);
      expect(await deviceIds({ State: ['Stop', 'Repair'] })).toEqual(['OC-A2', 'OC-B2', 'OC-C1']);
      // A state record is named by its device and Time: getOne asks for both.
      const one = await answer(STATE, { filter: { Id: ['OC-B2'], Time: [T0 + 2 * MINUTE] } });
      expect(one.total).toBe(1);
      expect(one.list[0]).toMatchObject({ Id: 'OC-B2', Time: T0 + 2 * MINUTE });
    });

    it('matches enums, numbers, booleans and references exactly', async () => {
      await ready();
      expect(await deviceIds({ State: 'Work' })).toEqual(['OC-A1', 'OC-B1', 'OC-C2']);
      expect(await deviceIds({ Type: 2 })).toEqual(['OC-A2', 'OC-B1']);
      expect(await deviceIds({ Online: true })).toEqual(['OC-A1', 'OC-B1', 'OC-C1', 'OC-C2']);
      expect(await deviceIds({ Online: false })).toEqual(['OC-A2', 'OC-B2']);
      expect(await deviceIds({ Emergency: true })).toEqual(['OC-B2']);
      expect(await deviceIds({ OrderNum: 'ord-0001' })).toEqual(['OC-A1']);
      expect((await answer(STATE, { filter: { Id: 'OC-A1' } })).total).toBe(READINGS_PER_DEVICE);
      // A reference is an id, not text: no partial match.
      expect((await answer(STATE, { filter: { Id: 'OC-A' } })).total).toBe(0);
      expect((await answer(STATE, { filter: { SS: 'M' } })).total).toBe(2 * ALL_DEVICES.length);
      expect((await answer(STATE, { filter: { L: 1 } })).total).toBe(2 * ALL_DEVICES.length);
      const used = await answer(ORDERS, { filter: { IsUsed: true } });
      expect(sorted(used.list.map((o) => o.OrderNum as string))).toEqual(['ORD-0001', 'ORD-0002', 'ORD-0005', 'ORD-0008']);
      expect(used.list.every((o) => o.IsUsed === true)).toBe(true);
      expect((await answer(ORDERS, { filter: { Id: 'OC-C1' } })).total).toBe(2);
    });

    it('matches ranges inclusively, on times and numbers; missing values are outside any range', async () => {
      await ready();
      const window = { gte: T0 + MINUTE, lte: T0 + 3 * MINUTE };
      const { list, total } = await answer(STATE, { pageSize: 100, filter: { Time: window } });
      expect(total).toBe(3 * ALL_DEVICES.length);
      expect(list.every((record) => (record.Time as number) >= window.gte && (record.Time as number) <= window.lte)).toBe(true);
      expect((await answer(STATE, { filter: { Time: { gte: T0 + 4 * MINUTE } } })).total).toBe(ALL_DEVICES.length);
      expect((await answer(STATE, { filter: { Time: {} } })).total).toBe(30);
      expect(await deviceIds({ Type: { gte: 2, lte: 4 } })).toEqual(['OC-A2', 'OC-B1', 'OC-B2', 'OC-C1']);
      expect(await deviceIds({ UpdateTime: { gte: T0 + 2000, lte: T0 + 5000 } })).toEqual(['OC-A1', 'OC-A2', 'OC-B1', 'OC-B2']);
      expect(await deviceIds({ LastSeen: { gte: 0 } })).toEqual(['OC-A1', 'OC-B1', 'OC-B2', 'OC-C2']);
      expect((await answer(STATE, { filter: { HmHR: { gte: 0 } } })).total).toBe(29);
      expect((await answer(ORDERS, { filter: { SetT: { gte: 0 } } })).total).toBe(FLEET_ORDERS.length - 1);
    });

    it('combines filters (all must hold) with sort and paging', async () => {
      await ready();
      expect(await deviceIds({ State: 'Work', Type: { gte: 2 } })).toEqual(['OC-B1', 'OC-C2']);
      const { list, total } = await answer(STATE, {
        current: 2,
        pageSize: 2,
        sort: { field: 'Time', order: 'DESC' },
        filter: { Id: ['OC-A1', 'OC-C2'], Time: { lte: T0 + 3 * MINUTE } },
      });
      expect(total).toBe(8);
      // Ties (same Time) are broken by the id fields in the sort's direction.
      expect(list.map((record) => [record.Id, record.Time])).toEqual([
        ['OC-C2', T0 + 2 * MINUTE],
        ['OC-A1', T0 + 2 * MINUTE],
      ]);
    });

    it('filters accounts by text, level and upper administrator', async () => {
      await ready();
      const accounts = async (filter: Record<string, unknown>) =>
        sorted((await answer(ADMINS, { filter })).list.map((record) => record.Account as string));
      expect(await accounts({ Account: 'C' })).toEqual(['client', 'second']);
      expect(await accounts({ Level: 3 })).toEqual(['client']);
      expect(await accounts({ Level: [1, 2] })).toEqual(['first', 'second']);
      expect(await accounts({ SubAdmin: 'first' })).toEqual(['second']);
      expect(await accounts({ Account: ['admin', 'client'] })).toEqual(['admin', 'client']);
    });
  });

  describe('bad input: 40000 naming the field, nothing written', () => {
    const cases: [string, string, unknown, string][] = [
      ['an unknown sort field', STATE, { sort: { field: 'Nope', order: 'ASC' } }, 'cannot sort by Nope: sort.field must be one of Id, Time,'],
      ['a field that may not be sorted', STATE, { sort: { field: 'HmBP', order: 'DESC' } }, 'cannot sort by HmBP'],
      ['a bad sort order', DEVICES, { sort: { field: 'Id', order: 'UP' } }, 'sort.order must be one of ASC, DESC'],
      ['an unknown filter field', DEVICES, { filter: { Nope: 1 } }, 'unknown field: filter.Nope'],
      ['a field that may not be filtered', STATE, { filter: { RCRH: 60 } }, 'unknown field: filter.RCRH'],
      ['an unknown body key', ORDERS, { current: 1, extra: true }, 'unknown field: extra'],
      ['an unknown key in sort', ORDERS, { sort: { field: 'Time', order: 'ASC', nulls: 'first' } }, 'unknown field: sort.nulls'],
      ['a wrong type', DEVICES, { pageSize: 'ten' }, 'pageSize must be a number'],
      ['a fraction', DEVICES, { current: 1.5 }, 'current must be a whole number'],
      ['page 0', DEVICES, { current: 0 }, 'current must be at least 1'],
      ['pageSize 0', DEVICES, { pageSize: 0 }, 'pageSize must be at least 1'],
      ['a value outside the choices', STATE, { filter: { SS: 'X' } }, 'filter.SS is invalid'],
      ['a text range', STATE, { filter: { Time: { gte: 'yesterday' } } }, 'filter.Time is invalid'],
      ['a range on text', DEVICES, { filter: { Location: { gte: 1 } } }, 'filter.Location is invalid'],
      ['a body that is not an object', ADMINS, [1, 2], 'body must be an object'],
      // orders.id is a 32-bit integer in PostgreSQL: a larger id was a 500 there.
      ['an order id beyond the id range', ORDERS, { filter: { id: 1767596400000 } }, 'filter.id must be at most 2147483647'],
    ];

    it.each(cases)('refuses %s', async (_name, path, body, msg) => {
      await ready();
      const before = await snapshot(app.ctx);
      const refused = await post(path, body, 'admin', 'en-US');
      expect(refused.http).toBe(400);
      expect(refused.code).toBe(CODES.badInput);
      expect(refused.data).toBeNull();
      expect(refused.msg).toContain(msg);
      expect(await snapshot(app.ctx)).toBe(before);
    });

    it('names the field in Chinese too', async () => {
      await ready();
      const refused = await post(STATE, { sort: { field: 'Nope', order: 'ASC' } }, 'admin', 'zh-CN');
      expect(refused.msg).toMatch(/^不能按 Nope 排序：sort\.field 必须是以下之一：Id, Time/);
      expect((await post(STATE, { filter: { Nope: 1 } }, 'admin')).msg).toBe('未知字段：filter.Nope');
    });
  });

  describe('access', () => {
    it.each(ENDPOINTS)('%s: signed out (no, a malformed or an unknown token) is 50008, before the body is looked at', async (path) => {
      await ready();
      const before = await snapshot(app.ctx);
      const signedOut: Record<string, string>[] = [{}, { authorization: 'Bearer nope' }, { authorization: `Bearer ${'x'.repeat(43)}` }];
      for (const headers of signedOut) {
        for (const body of [{}, { extra: 1 }]) {
          const response = await call(app, path, body, { headers, lang: 'en-US' });
          expect(response.statusCode).toBe(401);
          expect(envelope(response)).toEqual({ data: null, status: 'fail', msg: 'not logged in', code: CODES.notSignedIn });
        }
      }
      expect(await snapshot(app.ctx)).toBe(before);
    });

    it('refuses the account list to a client (40300); it lists its devices, readings and orders', async () => {
      await ready();
      expect(await post(ADMINS, {}, 'client')).toMatchObject({ http: 403, code: CODES.forbidden });
      for (const path of [DEVICES, STATE, ORDERS]) expect((await post(path, {}, 'client')).code).toBe(CODES.ok);
    });
  });

  describe('scope', () => {
    it('shows each account only its devices, and their readings and orders (the super administrator: all)', async () => {
      await ready();
      const scopes: [DemoName, readonly string[]][] = [
        ['admin', ALL_DEVICES],
        ['first', FLEET_ASSIGNMENTS.first ?? []],
        ['second', FLEET_ASSIGNMENTS.second ?? []],
        ['client', FLEET_ASSIGNMENTS.client ?? []],
      ];
      for (const [who, devices] of scopes) {
        expect(await deviceIds({}, who), who).toEqual(sorted([...devices]));
        const readings = await answer(STATE, { pageSize: 100 }, who);
        expect(readings.total, who).toBe(devices.length * READINGS_PER_DEVICE);
        expect(new Set(readings.list.map((record) => record.Id)), who).toEqual(new Set(devices));
        const orders = await answer(ORDERS, { pageSize: 100 }, who);
        const expected = FLEET_ORDERS.filter((order) => devices.includes(order.device_id)).map((order) => order.order_num);
        expect(sorted(orders.list.map((record) => record.OrderNum as string)), who).toEqual(sorted(expected));
        expect(orders.total).toBe(expected.length);
      }
    });

    it('never reveals a device out of scope, however it is asked for', async () => {
      await ready();
      expect(await deviceIds({ Id: ['OC-C1', 'OC-C2'] }, 'first')).toEqual([]);
      expect(await deviceIds({ Id: 'OC-C' }, 'first')).toEqual([]);
      expect((await answer(STATE, { filter: { Id: 'OC-B1' } }, 'second')).total).toBe(0);
      expect((await answer(ORDERS, { filter: { Id: ['OC-A2', 'OC-C1'] } }, 'client')).total).toBe(0);
      expect((await answer(ADMINS, { filter: { Account: 'admin' } }, 'first')).total).toBe(0);
    });

    it("lists an administrator's own subtree of accounts, with each one's devices", async () => {
      await ready();
      const admins = async (who: DemoName) => (await answer(ADMINS, { sort: { field: 'Level', order: 'ASC' } }, who)).list;
      expect(await admins('admin')).toEqual([
        { Account: 'admin', Level: 0, SubAdmin: null, SubId: null, DeviceIds: ALL_DEVICES, Disabled: false },
        expect.objectContaining({ Account: 'first', Level: 1, SubAdmin: 'admin', DeviceIds: FLEET_ASSIGNMENTS.first }),
        expect.objectContaining({ Account: 'second', Level: 2, SubAdmin: 'first', DeviceIds: FLEET_ASSIGNMENTS.second }),
        expect.objectContaining({ Account: 'client', Level: 3, SubAdmin: 'second', DeviceIds: FLEET_ASSIGNMENTS.client }),
      ]);
      expect((await admins('first')).map((record) => record.Account)).toEqual(['first', 'second', 'client']);
      expect((await admins('second')).map((record) => record.Account)).toEqual(['second', 'client']);
      const [first] = await admins('first');
      const adminId = (await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow()).id;
      expect(first).toMatchObject({ SubId: adminId, SubAdmin: 'admin' });
    });
  });

  it.each(ENDPOINTS)('%s answers records the shared schema accepts, under the wire names of the configuration', async (path, config) => {
    await ready();
    const { list } = await answer(path, { pageSize: 100 });
    expect(list.length).toBeGreaterThan(0);
    const schema = recordSchema(config).strict();
    for (const record of list as WireRecord[]) {
      const parsed = schema.safeParse(record);
      expect(parsed.success, `${JSON.stringify(record)}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
