import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/node';
import { RESOURCE_CONFIGS } from '../resources/configs';
import { MOCK_TOTAL } from '../../mocks/seed';
import { mockSession, REST, UPSTREAM } from '../../tests/unit/resources/fixtures';
import { createUpstreamProvider, UnsupportedCallError } from './upstream';
import { UpstreamError } from './httpClient';

const server = createMockServer(UPSTREAM, REST);
/** What the console sent, path and body, in order (sign-in aside). */
let sending: Promise<{ path: string; body: unknown }>[] = [];
const sentCalls = () => Promise.all(sending);
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    const path = new URL(request.url).pathname.replace('/upstream', '');
    if (path !== '/login') sending.push(request.clone().json().then((body: unknown) => ({ path, body })));
  });
});
beforeEach(() => {
  sending = [];
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const provider = async (account = 'admin') => createUpstreamProvider((await mockSession(account)).http, RESOURCE_CONFIGS);
const page = { page: 1, perPage: 10 };

describe('upstream adapter: lists', () => {
  it('maps page/perPage, sort and filter into the POST body and { list, total } back', async () => {
    const upstream = await provider();
    const result = await upstream.getList('state-records', {
      pagination: { page: 2, perPage: 5 },
      sort: { field: 'Time', order: 'DESC' },
      filter: { Time_gte: 0, Time_lte: Date.UTC(2027, 0, 1), SS: 'F', HmHR_gte: '' },
    });
    expect(await sentCalls()).toEqual([
      {
        path: '/list/get_OCState',
        body: { current: 2, pageSize: 5, sort: { field: 'Time', order: 'DESC' }, filter: { Time: { gte: 0, lte: Date.UTC(2027, 0, 1) }, SS: 'F' } },
      },
    ]);
    expect(result.data).toHaveLength(5);
    expect(result.data.every((record) => record.SS === 'F')).toBe(true);
    expect(result.total).toBeLessThan(MOCK_TOTAL);
    const times = result.data.map((record) => Number(record.Time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('pages a match too large to count by previous and next, without a total, when the answer says its total is a lower bound', async () => {
    const record = { Id: 'OC-1', Time: 1 };
    server.use(
      mock.post(`${UPSTREAM}/list/get_OCState`, () =>
        HttpResponse.json({ data: { list: [record], total: 10_001, totalIsLowerBound: true }, status: 'ok', msg: '', code: 20000 }),
      ),
    );
    const upstream = await provider();
    const first = await upstream.getList('state-records', { pagination: { page: 1, perPage: 1 }, sort: { field: 'Time', order: 'DESC' }, filter: {} });
    expect(first).toEqual({ data: [{ ...record, id: expect.any(String) }], pageInfo: { hasPreviousPage: false, hasNextPage: true } });
    const last = await upstream.getList('state-records', { pagination: { page: 10_001, perPage: 1 }, sort: { field: 'Time', order: 'DESC' }, filter: {} });
    expect(last.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false });
    expect(last.total).toBeUndefined();
  });

  it('gives every record react-admin\'s id from its id field(s)', async () => {
    const upstream = await provider();
    const { data: devices, total } = await upstream.getList('devices', { pagination: page, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect((await sentCalls())[0]?.body).toMatchObject({ sort: { field: 'Id', order: 'ASC' } });
    expect(total).toBe(MOCK_TOTAL);
    expect(devices.every((device) => device.id === device.Id)).toBe(true);
    const { data: records } = await upstream.getList('state-records', { pagination: page, sort: { field: 'Time', order: 'DESC' }, filter: {} });
    expect(records[0]?.id).toBe(JSON.stringify([records[0]?.Id, records[0]?.Time]));
  });

  it('reads one record and many through the list with an id filter', async () => {
    const upstream = await provider();
    const { data: device } = await upstream.getOne('devices', { id: 'Id-007' });
    expect(device).toMatchObject({ id: 'Id-007', Id: 'Id-007' });
    expect((await sentCalls())[0]).toEqual({ path: '/list/get_OCProperty', body: { current: 1, pageSize: 1, filter: { Id: ['Id-007'] } } });
    const { data: many } = await upstream.getMany('devices', { ids: ['Id-002', 'Id-009'] });
    expect(many.map((record) => record.id).sort()).toEqual(['Id-002', 'Id-009']);
    await expect(upstream.getOne('devices', { id: 'nope' })).rejects.toMatchObject({ status: 404 });
  });

  it('keeps exactly the composite ids asked for, though their filter over-matches', async () => {
    const upstream = await provider();
    const { data } = await upstream.getList('state-records', { pagination: { page: 1, perPage: 3 }, sort: { field: 'Time', order: 'DESC' }, filter: {} });
    const ids = [data[0]?.id, data[2]?.id].filter((id) => id !== undefined);
    sending = [];
    const { data: many } = await upstream.getMany('state-records', { ids });
    expect(many.map((record) => record.id)).toEqual(ids);
    expect((await sentCalls())[0]?.body).toMatchObject({ filter: { Id: [...new Set([data[0]?.Id, data[2]?.Id])], Time: [data[0]?.Time, data[2]?.Time] } });
  });

  it('lists the records referring to one record with the target in the filter', async () => {
    const upstream = await provider();
    const { data: orders } = await upstream.getList('orders', { pagination: page, sort: { field: 'Time', order: 'DESC' }, filter: {} });
    const device = String(orders[0]?.Id);
    const { data, total } = await upstream.getManyReference('orders', {
      target: 'Id',
      id: device,
      pagination: page,
      sort: { field: 'Time', order: 'DESC' },
      filter: { IsUsed: true },
    });
    expect((await sentCalls()).at(-1)?.body).toMatchObject({ filter: { IsUsed: true, Id: device } });
    expect(data.every((order) => order.Id === device && order.IsUsed === true)).toBe(true);
    expect(total).toBe(data.length);
  });
});

describe('upstream adapter: writes', () => {
  it('creates through the create endpoint, sending only the form fields, never reading the password back', async () => {
    const upstream = await provider();
    const account = { Account: 'ops7', Code: 'Chamber2026ox', Level: 2, DeviceIds: ['Id-001'], SubAdmin: 'smuggled' };
    const { data } = await upstream.create('accounts', { data: account });
    expect((await sentCalls())[0]).toEqual({ path: '/add_Admin', body: { Account: 'ops7', Code: 'Chamber2026ox', Level: 2, DeviceIds: ['Id-001'] } });
    expect(data).toMatchObject({ id: 'ops7', Account: 'ops7', Level: 2 });
    expect(data).not.toHaveProperty('Code');
    await expect(upstream.getOne('accounts', { id: 'ops7' })).resolves.toMatchObject({ data: { Level: 2 } });
  });

  it('updates through the update endpoint with the id fields and the edit fields only', async () => {
    const upstream = await provider();
    const { data: before } = await upstream.getOne('devices', { id: 'Id-003' });
    sending = [];
    const { data } = await upstream.update('devices', { id: 'Id-003', data: { ...before, Location: 'Hall 9' }, previousData: before });
    expect((await sentCalls())[0]).toEqual({
      path: '/device/update_OCProperty',
      body: { Id: 'Id-003', name: before.name, Type: before.Type, Location: 'Hall 9' },
    });
    expect(data).toMatchObject({ id: 'Id-003', Location: 'Hall 9', State: before.State });
  });

  it('passes on the server\'s refusal of bad input', async () => {
    const upstream = await provider();
    const error = await upstream.update('devices', { id: 'Id-003', data: { Id: 'Id-003', name: 'n', Type: 9, Location: 'x' }, previousData: { id: 'Id-003' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ code: 40000, message: expect.stringContaining('Type') });
  });

  it.each([
    ['delete', (p: Awaited<ReturnType<typeof provider>>) => p.delete('devices', { id: 'Id-001' })],
    ['deleteMany', (p: Awaited<ReturnType<typeof provider>>) => p.deleteMany('devices', { ids: ['Id-001'] })],
    ['create', (p: Awaited<ReturnType<typeof provider>>) => p.create('devices', { data: { Id: 'X' } })],
    ['update', (p: Awaited<ReturnType<typeof provider>>) => p.update('orders', { id: 1, data: {}, previousData: { id: 1 } })],
    ['updateMany', (p: Awaited<ReturnType<typeof provider>>) => p.updateMany('state-records', { ids: [], data: {} })],
  ])('refuses %s where the upstream has no endpoint, naming resource and method, and sends nothing', async (method, call) => {
    const error = await call(await provider()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedCallError);
    expect(String((error as Error).message)).toMatch(new RegExp(`cannot ${method} (devices|orders|state-records)`));
    expect(await sentCalls()).toEqual([]);
  });

  it('refuses resources it does not serve', async () => {
    await expect((await provider()).getList('maintenance-plans', { pagination: page, sort: { field: 'id', order: 'ASC' }, filter: {} })).rejects.toThrow(
      'No resource "maintenance-plans" is configured',
    );
  });
});

describe('upstream adapter: sessions', () => {
  it('gets 50008 "not logged in" for the account list without sign-in', async () => {
    const upstream = await provider('nobody');
    await expect(upstream.getList('accounts', { pagination: page, sort: { field: 'Account', order: 'ASC' }, filter: {} })).rejects.toMatchObject({
      code: 50008,
      message: 'not logged in',
    });
  });
});
