import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { createHttpClient, UpstreamError } from '../../src/providers/httpClient';
import type { TokenStore } from '../../src/providers/tokenStore';
import { createUpstreamProvider } from '../../src/providers/upstream';
import { accountsConfig } from '../../src/resources/accounts/config';
import { devicesConfig } from '../../src/resources/devices/config';
import { recordId, type WireRecord } from '../../src/resources/model';
import { ordersConfig } from '../../src/resources/orders/config';
import { applyListQuery, type ListAnswer, type ListBody } from '../../src/resources/query';
import { stateRecordsConfig } from '../../src/resources/state-records/config';
import type { ResourceConfig } from '../../src/resources/types';
import { listingProblems } from '../../server/lists/listing';
import { accountListing } from '../../server/accounts/list';
import { deviceListing } from '../../server/devices/list';
import { orderListing } from '../../server/orders/list';
import { stateRecordListing } from '../../server/telemetry/list';
import { listPath } from '../../server/lists/route';
import { DEMO } from './http';
import { MINUTE, seedFleet, T0 } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * The same list calls answered by the real server: the console's own upstream
 * adapter (src/providers/upstream.ts) talks to the server, and the server answers what the mocks'
 * applyListQuery answers for the same body.
 */

const CONFIGS = [devicesConfig, stateRecordsConfig, ordersConfig, accountsConfig];

/** fetch over app.inject, so the console's HttpClient reaches the app without a port. */
const injectFetch =
  (app: FastifyInstance): typeof fetch =>
  async (input, init) => {
    const response = await app.inject({
      method: 'POST',
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      payload: typeof init?.body === 'string' ? init.body : undefined,
    });
    return new Response(response.body, { status: response.statusCode, headers: { 'content-type': 'application/json' } });
  };

const memoryTokens = (): TokenStore => {
  let token: string | null = null;
  return { get: () => token, set: (value) => (token = value), clear: () => (token = null) };
};

describe('listings cover the configurations', () => {
  it('every readable field has a column, every filterable or sortable field can be filtered or sorted', () => {
    for (const listing of [deviceListing, stateRecordListing, orderListing, accountListing]) {
      expect(listingProblems(listing())).toEqual([]);
    }
  });

  it('names what a configuration asks of the server that it cannot do', () => {
    const listing = deviceListing();
    const config = {
      ...listing.config,
      fields: { ...listing.config.fields, Secret: { kind: 'text', maxLength: 8, views: ['list', 'filter'] } },
    } as ResourceConfig;
    expect(listingProblems({ ...listing, config })).toEqual([
      'devices.Secret has no column',
      'devices.Secret is filterable or sortable but has no column',
    ]);
  });

  it('serves each resource at the list path of its configuration', () => {
    expect(CONFIGS.map(listPath)).toEqual(['/list/get_OCProperty', '/list/get_OCState', '/list/get_Records', '/get_Admins']);
  });
});

describe.each(STORE_KINDS)("the console's upstream adapter against the server (%s)", (kind) => {
  const store = useStore(kind);
  beforeAll(async () => {
    await seedFleet(store.context());
  });

  const console_ = async (account: keyof typeof DEMO = 'admin') => {
    const app = await store.app();
    const tokens = memoryTokens();
    const http = createHttpClient({ baseUrl: '/upstream', tokens, locale: () => 'en-US', fetch: injectFetch(app) });
    const signIn = await http.post<{ token: string }>('/login', DEMO[account]);
    tokens.set(signIn.token);
    return { app, http, provider: createUpstreamProvider(http, CONFIGS) };
  };

  it('getList: page, sort and react-admin filters (range bounds, empty inputs) as the console sends them', async () => {
    const { provider } = await console_();
    const result = await provider.getList('state-records', {
      pagination: { page: 2, perPage: 5 },
      sort: { field: 'Time', order: 'DESC' },
      filter: { Time_gte: T0 + MINUTE, Time_lte: T0 + 3 * MINUTE, SS: 'F', HmHR_gte: '' },
    });
    // SS 'F' is every third reading: only T0 + 3 minutes in the window, one per device.
    expect(result.total).toBe(6);
    expect(result.data).toHaveLength(1);
    expect(result.data[0]).toMatchObject({ SS: 'F', Time: T0 + 3 * MINUTE });
    expect(result.data[0]?.id).toBe(JSON.stringify([result.data[0]?.Id, result.data[0]?.Time]));

    const devices = await provider.getList('devices', { pagination: { page: 1, perPage: 3 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    expect(devices.data.map((device) => device.id)).toEqual(['OC-C2', 'OC-C1', 'OC-B2']);
    expect(devices.total).toBe(6);
  });

  it('getOne, getMany and getManyReference through the list endpoint, composite ids included', async () => {
    const { provider } = await console_();
    const id = JSON.stringify(['OC-B2', T0 + 2 * MINUTE]);
    expect((await provider.getOne('state-records', { id })).data).toMatchObject({ id, Id: 'OC-B2', Time: T0 + 2 * MINUTE });
    const many = await provider.getMany('devices', { ids: ['OC-A1', 'OC-C2'] });
    expect(many.data.map((device) => device.id).sort()).toEqual(['OC-A1', 'OC-C2']);
    const readings = await provider.getManyReference('state-records', {
      target: 'Id',
      id: 'OC-A2',
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'Time', order: 'ASC' },
      filter: {},
    });
    expect(readings.total).toBe(5);
    expect(readings.data.every((record) => record.Id === 'OC-A2')).toBe(true);
    const accounts = await provider.getMany('accounts', { ids: ['first', 'client'] });
    expect(accounts.data.map((account) => account.id).sort()).toEqual(['client', 'first']);
  });

  it('a record out of scope is "not found" for the console, exactly like one that does not exist', async () => {
    const { provider } = await console_('client');
    await expect(provider.getOne('devices', { id: 'OC-C1' })).rejects.toMatchObject({ status: 404 });
    await expect(provider.getOne('devices', { id: 'OC-NONE' })).rejects.toMatchObject({ status: 404 });
    expect((await provider.getOne('devices', { id: 'OC-A1' })).data.id).toBe('OC-A1');
  });

  it('a refused body reaches the console as an UpstreamError with code 40000 and the msg naming the field', async () => {
    const { provider } = await console_();
    const failure = await provider
      .getList('state-records', { pagination: { page: 1, perPage: 10 }, sort: { field: 'HmBP', order: 'ASC' }, filter: {} })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ code: CODES.badInput, status: 400 });
    expect((failure as UpstreamError).message).toMatch(/^cannot sort by HmBP/);
  });

  describe('answers as the mocks do (applyListQuery over the same records)', () => {
    const bodies: Record<string, ListBody[]> = {
      devices: [
        { current: 1, pageSize: 10, filter: { Location: 'hall' } },
        { current: 1, pageSize: 10, filter: { Location: '_' } },
        { current: 1, pageSize: 10, filter: { Id: ['OC-A1', 'OC-C1'], Online: true } },
        { current: 1, pageSize: 10, filter: { Type: { gte: 2, lte: 4 }, State: ['Stop', 'Repair'] } },
        { current: 1, pageSize: 10, filter: { LastSeen: { lte: T0 + 3000 } } },
        { current: 2, pageSize: 4, sort: { field: 'UpdateTime', order: 'DESC' } },
        { current: 1, pageSize: 10, sort: { field: 'LastSeen', order: 'ASC' } },
      ],
      'state-records': [
        { current: 1, pageSize: 50, filter: { Time: { gte: T0 + MINUTE } }, sort: { field: 'RCPi02', order: 'DESC' } },
        { current: 3, pageSize: 4, filter: { Id: 'OC-B1' }, sort: { field: 'Time', order: 'ASC' } },
        { current: 1, pageSize: 50, filter: { SS: 'S', RCPi02: { gte: 20.5, lte: 21.5 } }, sort: { field: 'HmHR', order: 'ASC' } },
        { current: 1, pageSize: 50, filter: { Id: ['OC-A1', 'OC-A2'], Time: [T0, T0 + 4 * MINUTE] } },
      ],
      orders: [
        { current: 1, pageSize: 50, filter: { IsUsed: true }, sort: { field: 'Time', order: 'DESC' } },
        { current: 1, pageSize: 50, filter: { OpenId: 'OPENID1' }, sort: { field: 'SetT', order: 'ASC' } },
        { current: 1, pageSize: 3, sort: { field: 'FinishTime', order: 'DESC' } },
      ],
      accounts: [
        { current: 1, pageSize: 10, filter: { Level: [2, 3] }, sort: { field: 'Level', order: 'DESC' } },
        { current: 1, pageSize: 10, filter: { SubAdmin: 'second' } },
      ],
    };

    it.each(CONFIGS.map((config) => [config.name, config] as const))('%s', async (_name, config) => {
      const { http } = await console_();
      const path = listPath(config);
      const all = (await http.post<ListAnswer>(path, { current: 1, pageSize: 1000 })).list;
      expect(all.length).toBeGreaterThan(0);
      const key = (record: WireRecord) => String(recordId(config, record));
      for (const body of bodies[config.name] ?? []) {
        const server = await http.post<ListAnswer>(path, body);
        const mock = applyListQuery(config, all, body);
        const label = JSON.stringify(body);
        expect(server.total, label).toBe(mock.total);
        expect(server.list.length, label).toBe(mock.list.length);
        if (body.sort) {
          // Ties may be ordered differently (the server breaks them by id); the sorted values may not.
          const field = body.sort.field;
          expect(server.list.map((record) => record[field]), label).toEqual(mock.list.map((record) => record[field]));
        } else {
          expect(server.list.map(key).sort(), label).toEqual(mock.list.map(key).sort());
        }
      }
    });
  });
});
