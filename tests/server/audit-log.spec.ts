import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_ACTIONS, type AuditEntry, type AuditTargetType } from '../../src/domain/audit';
import { CODES } from '../../src/domain/envelope';
import { createDataProvider } from '../../src/providers/dataProvider';
import { createHttpClient } from '../../src/providers/httpClient';
import type { TokenStore } from '../../src/providers/tokenStore';
import { RESOURCE_CONFIGS } from '../../src/resources/configs';
import { auditLogConfig } from '../../src/resources/audit-log/config';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../server/audit/trail';
import { auditListing } from '../../server/audit/list';
import { listingProblems } from '../../server/lists/listing';
import { restPath } from '../../server/rest/list';
import { DEMO } from './http';
import { demoTokens, FLEET_ASSIGNMENTS, seedFleet, T0, type DemoName } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * The audit log under /api/v1: read scope per role (built from entries of several accounts and devices,
 * each role must see exactly its set), ra-data-simple-rest's list shape, and the query's validation.
 */

const ENTRY_KEYS = ['action', 'actor', 'address', 'after', 'at', 'before', 'deviceId', 'id', 'targetId', 'targetType'];
const DEVICES = [null, 'OC-A1', 'OC-A2', 'OC-B1', 'OC-C1', 'OC-GONE'] as const;
/** Actors: the demo chain, `sibling` (Level 2 under first), `other` (Level 1 under admin), the system, an unknown name. */
const ACTORS = ['admin', 'first', 'second', 'client', 'sibling', 'other', 'system', 'ghost'] as const;
type ActorName = (typeof ACTORS)[number];
/** Who is in whose subtree (itself included), by name. */
const SUBTREES: Record<Exclude<DemoName, 'admin'>, readonly ActorName[]> = {
  first: ['first', 'second', 'client', 'sibling'],
  second: ['second', 'client'],
  client: ['client'],
};

const targetTypeOf = (action: string): AuditTargetType =>
  action.startsWith('device.') ? 'device' : action.startsWith('order.') ? 'order' : 'account';

describe('the audit log resource', () => {
  it('is served at the configuration path, with every field in a column', () => {
    expect(restPath(auditLogConfig)).toBe('/audit-log');
    expect(listingProblems(auditListing())).toEqual([]);
  });
});

describe.each(STORE_KINDS)('audit log (%s)', (kind) => {
  const store = useStore(kind);
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;
  let idOf: Record<string, number>;
  /** Every entry written, as the API must answer it. */
  let entries: AuditEntry[];
  /** The actor id of each entry. */
  let actorIds: Map<number, number | null>;

  // Every test only reads: the fixture is built once per store, each test gets its own app on it.
  beforeAll(async () => {
    await store.wipe();
    const ctx = store.context();
    await seedFleet(ctx);
    const first = await ctx.db.selectFrom('accounts').select('id').where('account', '=', 'first').executeTakeFirstOrThrow();
    const admin = await ctx.db.selectFrom('accounts').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow();
    const extra = (account: string, level: number, subId: number) => ({
      account,
      password_hash: 'not-a-hash',
      level,
      sub_id: subId,
      must_change_code: 0,
      disabled: 0,
      avatar: '',
      created_at: T0,
      updated_at: T0,
    });
    await ctx.db.insertInto('accounts').values([extra('sibling', 2, first.id), extra('other', 1, admin.id)]).execute();
    const accounts = await ctx.db.selectFrom('accounts').select(['id', 'account']).execute();
    idOf = Object.fromEntries(accounts.map((row) => [row.account, row.id]));

    tokens = await demoTokens(await store.app());
    // Only the entries below: sign-ins are audited too, and are not what this file checks.
    await ctx.db.deleteFrom('audit_log').execute();

    const actorOf = (name: ActorName): AuditActor =>
      name === 'system' ? SYSTEM_ACTOR : { id: name === 'ghost' ? null : (idOf[name] ?? null), account: name, address: `10.0.0.${ACTORS.indexOf(name)}` };
    let n = 0;
    for (const actor of ACTORS) {
      for (const device of DEVICES) {
        const action = AUDIT_ACTIONS[n % AUDIT_ACTIONS.length] ?? 'device.update';
        await recordAudit(
          ctx.db,
          actorOf(actor),
          {
            action,
            targetType: targetTypeOf(action),
            targetId: device ?? `${actor}-${n}`,
            deviceId: device,
            ...(n % 3 === 0 ? {} : { before: { n, name: `before ${n}` } }),
            ...(n % 4 === 0 ? {} : { after: { n: n + 1, list: [1, 2] } }),
          },
          // Not in id order, so sorting by time and by id differ.
          T0 + ((n * 7) % 48) * 1000,
        );
        n += 1;
      }
    }
    const rows = await ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    actorIds = new Map(rows.map((row) => [Number(row.id), row.actor_id]));
    entries = rows.map((row) => ({
      id: Number(row.id),
      at: Number(row.at),
      actor: row.actor_account,
      action: row.action as AuditEntry['action'],
      targetType: row.target_type as AuditTargetType,
      targetId: row.target_id,
      deviceId: row.device_id,
      address: row.address,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    }));
  });

  beforeEach(async () => {
    app = await store.app();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const get = (url: string, who: DemoName | null = 'admin', lang = 'en-US') =>
    app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { ...(who === null ? {} : { authorization: `Bearer ${tokens[who]}` }), 'accept-language': lang },
    });
  const query = (params: Record<string, unknown>) =>
    `?${Object.entries(params)
      .map(([name, value]) => `${name}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
      .join('&')}`;
  const list = async (params: Record<string, unknown>, who: DemoName = 'admin') => {
    const response = await get(`/audit-log${query(params)}`, who);
    expect(response.statusCode, response.body).toBe(200);
    return { records: response.json<AuditEntry[]>(), range: response.headers['content-range'] };
  };
  const error = (response: LightMyRequestResponse) => ({ http: response.statusCode, body: response.json<unknown>() });

  /** docs/product.md: admin all; user and lowUser their subtree's; client its own; and only entries whose device they see. */
  const visibleTo = (who: DemoName, entry: AuditEntry): boolean => {
    if (who === 'admin') return true;
    const actorId = actorIds.get(entry.id) ?? null;
    const actorOk = SUBTREES[who].some((name) => idOf[name] === actorId);
    const deviceOk = entry.deviceId === null || (FLEET_ASSIGNMENTS[who] ?? []).includes(entry.deviceId);
    return actorOk && deviceOk;
  };
  const expectedIds = (who: DemoName) => entries.filter((entry) => visibleTo(who, entry)).map((entry) => entry.id);

  describe('read scope', () => {
    it.each<[DemoName, number]>([
      ['admin', 48],
      ['first', 16],
      ['second', 6],
      ['client', 2],
    ])('%s lists exactly the entries it may read (%i), nothing more', async (who, count) => {
      const { records, range } = await list({ sort: ['id', 'ASC'], range: [0, 999] }, who);
      expect(records.map((record) => record.id)).toEqual(expectedIds(who));
      expect(records).toHaveLength(count);
      expect(range).toBe(`audit-log 0-${count - 1}/${count}`);
      expect(records).toEqual(entries.filter((entry) => visibleTo(who, entry)));
    });

    it('a client reads only its own entries, an administrator none of the system, of an unknown name or above it', async () => {
      const actorsSeen = async (who: DemoName) => [...new Set((await list({ range: [0, 999] }, who)).records.map((r) => r.actor))].sort();
      expect(await actorsSeen('client')).toEqual(['client']);
      expect(await actorsSeen('second')).toEqual(['client', 'second']);
      expect(await actorsSeen('first')).toEqual(['client', 'first', 'second', 'sibling']);
      expect(await actorsSeen('admin')).toEqual([...ACTORS].sort());
      const devicesSeen = async (who: DemoName) =>
        [...new Set((await list({ range: [0, 999] }, who)).records.map((r) => r.deviceId ?? '-'))].sort();
      expect(await devicesSeen('client')).toEqual(['-', 'OC-A1']);
      expect(await devicesSeen('second')).toEqual(['-', 'OC-A1', 'OC-A2']);
      expect(await devicesSeen('first')).toEqual(['-', 'OC-A1', 'OC-A2', 'OC-B1']);
    });

    it.each(['admin', 'first', 'second', 'client'] as const)(
      '%s: one entry by id; one out of scope is answered exactly like one that does not exist',
      async (who) => {
        const missing = error(await get('/audit-log/999999', who));
        expect(missing).toEqual({ http: 404, body: { message: 'not found', code: CODES.notFound } });
        for (const entry of entries) {
          const response = await get(`/audit-log/${entry.id}`, who);
          if (visibleTo(who, entry)) {
            expect(response.statusCode).toBe(200);
            expect(response.json()).toEqual(entry);
          } else {
            expect(error(response), `entry ${entry.id} for ${who}`).toEqual(missing);
          }
        }
      },
    );

    it('filters never reach past the scope', async () => {
      const allIds = entries.map((entry) => entry.id);
      for (const who of ['first', 'second', 'client'] as const) {
        expect((await list({ filter: { id: allIds } }, who)).records.map((r) => r.id)).toEqual(
          [...expectedIds(who)].sort((a, b) => {
            const [x, y] = [entries.find((e) => e.id === a)?.at ?? 0, entries.find((e) => e.id === b)?.at ?? 0];
            return y - x || b - a;
          }),
        );
        expect((await list({ filter: { deviceId: 'OC-C1' } }, who)).records).toEqual([]);
        expect((await list({ filter: { deviceId: 'OC-GONE' } }, who)).records).toEqual([]);
        expect((await list({ filter: { actor: 'other' } }, who)).records).toEqual([]);
        expect((await list({ filter: { actor: 'system' } }, who)).records).toEqual([]);
        const { range } = await list({ filter: { actor: 'admin' }, range: [0, 9] }, who);
        expect(range).toBe('audit-log */0');
      }
    });
  });

  describe('the list, as ra-data-simple-rest reads it', () => {
    it('answers AuditEntry records: before and after parsed from their JSON', async () => {
      const { records } = await list({ sort: ['id', 'ASC'], range: [0, 4] });
      for (const record of records) expect(Object.keys(record).sort()).toEqual(ENTRY_KEYS);
      expect(records[0]).toMatchObject({ actor: 'admin', before: null, after: null, deviceId: null, address: '10.0.0.0' });
      expect(records[1]).toMatchObject({ deviceId: 'OC-A1', targetId: 'OC-A1', before: { n: 1, name: 'before 1' }, after: { n: 2, list: [1, 2] } });
    });

    it('pages by range with Content-Range, newest first by default', async () => {
      const newestFirst = [...entries].sort((a, b) => b.at - a.at || b.id - a.id);
      const page1 = await list({ range: [0, 9] });
      expect(page1.records.map((r) => r.id)).toEqual(newestFirst.slice(0, 10).map((e) => e.id));
      expect(page1.range).toBe('audit-log 0-9/48');
      const page2 = await list({ range: [10, 19] });
      expect(page2.records.map((r) => r.id)).toEqual(newestFirst.slice(10, 20).map((e) => e.id));
      expect(page2.range).toBe('audit-log 10-19/48');
      const last = await list({ range: [40, 49] });
      expect(last.records).toHaveLength(8);
      expect(last.range).toBe('audit-log 40-47/48');
      const past = await list({ range: [50, 59] });
      expect(past.records).toEqual([]);
      expect(past.range).toBe('audit-log */48');
      // No range (react-admin's getMany): everything up to 1000.
      expect((await list({})).records).toHaveLength(48);
    });

    it.each<[string, 'ASC' | 'DESC', (a: AuditEntry, b: AuditEntry) => number]>([
      ['at', 'ASC', (a, b) => a.at - b.at || a.id - b.id],
      ['id', 'DESC', (a, b) => b.id - a.id],
      ['actor', 'ASC', (a, b) => (a.actor < b.actor ? -1 : a.actor > b.actor ? 1 : a.id - b.id)],
      ['action', 'DESC', (a, b) => (a.action < b.action ? 1 : a.action > b.action ? -1 : b.id - a.id)],
    ])('sorts by %s %s (ties by id in the same direction)', async (field, order, compare) => {
      const { records } = await list({ sort: [field, order], range: [0, 999] });
      expect(records.map((r) => r.id)).toEqual([...entries].sort(compare).map((e) => e.id));
    });

    it.each<[string, Record<string, unknown>, (entry: AuditEntry) => boolean]>([
      ['action (exact)', { action: 'device.update' }, (e) => e.action === 'device.update'],
      ['targetType', { targetType: 'order' }, (e) => e.targetType === 'order'],
      ['actor (contains, any case)', { actor: 'SEC' }, (e) => e.actor === 'second'],
      ['targetId (contains)', { targetId: 'ghost-' }, (e) => e.targetId.startsWith('ghost-')],
      ['deviceId (contains)', { deviceId: 'oc-a' }, (e) => e.deviceId === 'OC-A1' || e.deviceId === 'OC-A2'],
      ['deviceId (a list: exact)', { deviceId: ['OC-B1', 'OC-GONE'] }, (e) => e.deviceId === 'OC-B1' || e.deviceId === 'OC-GONE'],
      ['at from', { at_gte: T0 + 40_000 }, (e) => e.at >= T0 + 40_000],
      ['at to', { at_lte: T0 + 5_000 }, (e) => e.at <= T0 + 5_000],
      ['at range and actor', { at_gte: T0 + 10_000, at_lte: T0 + 30_000, actor: 'first' }, (e) => e.at >= T0 + 10_000 && e.at <= T0 + 30_000 && e.actor === 'first'],
      ['empty values are no filter', { action: '', actor: null }, () => true],
    ])('filters by %s', async (_case, filter, wanted) => {
      const { records, range } = await list({ filter, sort: ['id', 'ASC'], range: [0, 999] });
      const expected = entries.filter(wanted).map((e) => e.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(records.map((r) => r.id)).toEqual(expected);
      expect(range).toBe(`audit-log 0-${expected.length - 1}/${expected.length}`);
    });

    it.each<[string, Record<string, string>, string]>([
      ['sort that is not JSON', { sort: '[at' }, 'sort is not valid JSON'],
      ['sort on a field not allowed', { sort: '["address","ASC"]' }, 'cannot sort by address: sort must be one of id, at, actor, action'],
      ['sort with a bad order', { sort: '["at","UP"]' }, 'sort must be ["field", "ASC" or "DESC"]'],
      ['sort as an object', { sort: '{"field":"at"}' }, 'sort must be ["field", "ASC" or "DESC"]'],
      ['range that is not JSON', { range: '0-9' }, 'range is not valid JSON'],
      ['range too large', { range: '[0,1000]' }, 'range asks for 1001 records; at most 1000 at once'],
      ['range backwards', { range: '[9,0]' }, 'range must be [first, last]: whole numbers, 0 <= first <= last'],
      ['range negative', { range: '[-10,-1]' }, 'range must be [first, last]: whole numbers, 0 <= first <= last'],
      ['range not whole', { range: '[0,9.5]' }, 'range must be [first, last]: whole numbers, 0 <= first <= last'],
      ['range of three', { range: '[0,9,19]' }, 'range must be [first, last]: whole numbers, 0 <= first <= last'],
      ['range not on a page', { range: '[5,14]' }, 'range must start at a multiple of its length (10)'],
      ['filter that is not JSON', { filter: '{action:1}' }, 'filter is not valid JSON'],
      ['filter as a list', { filter: '[]' }, 'filter must be a JSON object'],
      ['filter on an unknown field', { filter: '{"secret":"x"}' }, 'unknown field: filter.secret'],
      ['filter on a field not offered', { filter: '{"address":"10."}' }, 'unknown field: filter.address'],
      ['filter on an unknown range', { filter: '{"id_gte":"a"}' }, 'filter.id is invalid'],
      ['filter on an unknown action', { filter: '{"action":"device.explode"}' }, 'filter.action is invalid'],
      ['filter with a time as text', { filter: '{"at_gte":"yesterday"}' }, 'filter.at is invalid'],
      ['an unknown parameter', { page: '2' }, 'unknown field: page'],
    ])('%s is 400/40000 naming the parameter', async (_case, params, message) => {
      const response = await get(`/audit-log?${new URLSearchParams(params).toString()}`);
      expect(error(response)).toEqual({ http: 400, body: { message, code: CODES.badInput } });
    });

    it('names the parameter in Chinese for a Chinese caller', async () => {
      const response = await get(`/audit-log?${new URLSearchParams({ range: '[0,1000]' }).toString()}`, 'admin', 'zh-CN');
      expect(error(response)).toEqual({ http: 400, body: { message: 'range 请求 1001 条记录，一次最多 1000 条', code: CODES.badInput } });
    });

    it('an id that is not a number is 400 naming it', async () => {
      expect(error(await get('/audit-log/abc'))).toEqual({ http: 400, body: { message: 'id must be a number', code: CODES.badInput } });
    });

    it('signed out is 401/50008, before the query is read', async () => {
      for (const url of ['/audit-log', '/audit-log?range=oops', '/audit-log/1']) {
        expect(error(await get(url, null))).toEqual({ http: 401, body: { message: 'not logged in', code: CODES.notSignedIn } });
      }
      expect(error(await get('/audit-log', null, 'zh-CN')).body).toEqual({ message: '未登录或登录已过期', code: CODES.notSignedIn });
    });
  });

  describe("through the console's own data provider (ra-data-simple-rest)", () => {
    const memoryTokens = (token: string | null): TokenStore => {
      let current = token;
      return { get: () => current, set: (value) => (current = value), clear: () => (current = null) };
    };
    /** fetch against the app, as the browser would call the same origin. */
    const injectFetch: typeof fetch = async (input, init) => {
      const response = await app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: String(input),
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        payload: typeof init?.body === 'string' ? init.body : undefined,
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(name, String(value));
      return new Response(response.body, { status: response.statusCode, headers });
    };
    const provider = (who: DemoName | null) => {
      vi.stubGlobal('fetch', injectFetch);
      const tokenStore = memoryTokens(who === null ? null : tokens[who]);
      const http = createHttpClient({ baseUrl: '/upstream', tokens: tokenStore, locale: () => 'en-US', fetch: injectFetch });
      return createDataProvider({ http, restBase: '/api/v1', tokens: tokenStore, resources: RESOURCE_CONFIGS });
    };

    it('getList pages, sorts and filters (react-admin filter names), with the total from Content-Range', async () => {
      const admin = provider('admin');
      const { data, total } = await admin.getList('audit-log', {
        pagination: { page: 2, perPage: 5 },
        sort: { field: 'at', order: 'ASC' },
        filter: { at_gte: T0 + 10_000, targetType: 'device' },
      });
      const expected = entries.filter((e) => e.at >= T0 + 10_000 && e.targetType === 'device').sort((a, b) => a.at - b.at || a.id - b.id);
      expect(total).toBe(expected.length);
      expect(data.map((record) => record.id)).toEqual(expected.slice(5, 10).map((e) => e.id));
    });

    it('getOne and getMany, within the caller scope', async () => {
      const second = provider('second');
      const [mine] = expectedIds('second');
      expect((await second.getOne('audit-log', { id: mine ?? 0 })).data).toEqual(entries.find((e) => e.id === mine));
      const { data } = await second.getMany('audit-log', { ids: entries.map((e) => e.id) });
      expect(data.map((record) => record.id).sort((a, b) => Number(a) - Number(b))).toEqual(expectedIds('second'));
      const hidden = entries.find((e) => !visibleTo('second', e));
      // src/providers/rest.ts sends no Accept-Language of its own (a browser adds its own): the default, zh-CN, here.
      await expect(second.getOne('audit-log', { id: hidden?.id ?? 0 })).rejects.toMatchObject({ status: 404, message: '请求的资源不存在' });
    });

    it('a lost session is an HttpError with status 401 (the authProvider signs out) and the server message', async () => {
      const failure = await provider(null)
        .getList('audit-log', { pagination: { page: 1, perPage: 10 }, sort: { field: 'at', order: 'DESC' }, filter: {} })
        .catch((caught: unknown) => caught);
      expect(failure).toMatchObject({ status: 401, body: { code: CODES.notSignedIn } });
    });
  });

  it('the demo accounts still sign in (the fixture keeps them)', () => {
    expect(Object.keys(tokens).sort()).toEqual(Object.keys(DEMO).sort());
  });
});
