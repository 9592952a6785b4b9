import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { createHttpClient, UpstreamError } from '../../src/providers/httpClient';
import type { TokenStore } from '../../src/providers/tokenStore';
import { createUpstreamProvider } from '../../src/providers/upstream';
import { devicesConfig } from '../../src/resources/devices/config';
import type { WireRecord } from '../../src/resources/model';
import type { ListAnswer } from '../../src/resources/query';
import { recordSchema } from '../../src/resources/schema';
import type { ResourceConfig } from '../../src/resources/types';
import { deviceEditProblems, updateDevice } from '../../server/devices/update';
import { AppError } from '../../server/http/envelope';
import { upstreamPath } from '../../server/lists/route';
import { call, DEMO, envelope } from './http';
import { FLEET_ASSIGNMENTS, snapshot, T0, type DemoName, useFleetApp } from './fleet';
import { fakeClock, STORE_KINDS, useStore } from './stores';

const UPDATE = '/device/update_OCProperty';
const LIST = '/list/get_OCProperty';

/** A valid edit of OC-B2 (South Two, Type 3, Lab_1): every field changes. */
const EDIT = { Id: 'OC-B2', name: 'South Two (rebuilt)', Type: 4, Location: 'Hall C' } as const;

describe('the device update and its configuration', () => {
  it('is served at the update path of the configuration and writes exactly the fields of the edit form', () => {
    expect(upstreamPath(devicesConfig, 'update')).toBe(UPDATE);
    expect(deviceEditProblems()).toEqual([]);
  });

  it('names an edit form field the server cannot write', () => {
    const config = {
      ...devicesConfig,
      fields: { ...devicesConfig.fields, State: { ...devicesConfig.fields.State, views: ['list', 'edit'] } },
    } as ResourceConfig;
    expect(deviceEditProblems(config)).toEqual(['devices.State is edited but has no column to write']);
  });
});

describe.each(STORE_KINDS)('device update (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const fleet = useFleetApp(store, clock.now);

  const post = async (body: unknown, who: DemoName | null = 'admin', lang = 'en-US') => {
    const response = await call(fleet.app, UPDATE, body, { ...(who === null ? {} : { token: fleet.tokens[who] }), lang });
    return { http: response.statusCode, ...envelope<WireRecord | null>(response) };
  };
  const listed = async (id: string, who: DemoName = 'admin'): Promise<WireRecord | undefined> => {
    const response = await call(fleet.app, LIST, { filter: { Id: [id] } }, { token: fleet.tokens[who] });
    return envelope<ListAnswer>(response).data.list[0];
  };
  const auditRows = () => store.context().db.selectFrom('audit_log').selectAll().orderBy('id').execute();
  /** Runs `refused` and checks that no data table changed and no audit entry was written. */
  const unchanged = async <T>(refused: () => Promise<T>): Promise<T> => {
    const before = await snapshot(store.context());
    const entries = await auditRows();
    const result = await refused();
    expect(await snapshot(store.context())).toBe(before);
    expect(await auditRows()).toEqual(entries);
    return result;
  };

  it('an admin updates name, Type and Location; the answer is the list row and the list shows it', async () => {
    const before = await listed('OC-B2');
    const { db } = store.context();
    const otherRows = () => db.selectFrom('devices').selectAll().where('id', '!=', 'OC-B2').orderBy('id').execute();
    const othersBefore = await otherRows();
    const result = await post(EDIT);
    expect(result).toMatchObject({ http: 200, status: 'ok', code: CODES.ok, msg: 'success' });
    expect(result.data).toEqual({ ...before, name: EDIT.name, Type: EDIT.Type, Location: EDIT.Location, UpdateTime: clock.now() });
    expect(recordSchema(devicesConfig).strict().safeParse(result.data).success).toBe(true);
    expect(await listed('OC-B2')).toEqual(result.data);
    // The fields the form does not show are kept, and no other device is touched.
    expect(result.data).toMatchObject({ State: 'Repair', Emergency: true, Permission: 'Close' });
    const others = (await call(fleet.app, LIST, { pageSize: 100, filter: { Location: 'Hall C' } }, { token: fleet.tokens.admin })).json<{
      data: ListAnswer;
    }>().data.list;
    expect(others.map((record) => record.Id)).toEqual(['OC-B2']);
    expect(await otherRows()).toEqual(othersBefore);
  });

  it("records 'device.update' with name, Type and Location before and after, in the same transaction", async () => {
    const { db } = store.context();
    const admin = await db.selectFrom('accounts').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow();
    const response = await call(fleet.app, UPDATE, EDIT, { token: fleet.tokens.admin, address: '198.51.100.7' });
    expect(response.statusCode).toBe(200);
    // Sign-ins are audited too; this test looks at the device's entries.
    const entries = (await auditRows()).filter((row) => row.target_type === 'device');
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      at: clock.now(),
      actor_id: admin.id,
      actor_account: 'admin',
      action: 'device.update',
      target_type: 'device',
      target_id: 'OC-B2',
      device_id: 'OC-B2',
      address: '198.51.100.7',
    });
    expect(JSON.parse(entry?.before ?? 'null')).toEqual({ name: 'South Two', Type: 3, Location: 'Lab_1' });
    expect(JSON.parse(entry?.after ?? 'null')).toEqual({ name: EDIT.name, Type: EDIT.Type, Location: EDIT.Location });
  });

  it('stores the texts trimmed, as the shared schema reads them, and answers in the caller language', async () => {
    const result = await post({ ...EDIT, Id: ' OC-B2 ', name: '  南厅二号  ', Location: ' 北京 B 区 ' }, 'admin', 'zh-CN');
    expect(result).toMatchObject({ code: CODES.ok, msg: '成功' });
    expect(await listed('OC-B2')).toMatchObject({ Id: 'OC-B2', name: '南厅二号', Location: '北京 B 区' });
  });

  it.each(['first', 'second', 'client'] as const)('%s may not edit devices, even its own: 40300, nothing written', async (who) => {
    expect(FLEET_ASSIGNMENTS[who]).toContain('OC-A1');
    const result = await unchanged(() => post({ ...EDIT, Id: 'OC-A1' }, who));
    expect(result).toMatchObject({ http: 403, status: 'fail', code: CODES.forbidden, msg: 'access denied', data: null });
    // The guard answers before the body is read: a bad body is refused the same way.
    expect(await unchanged(() => post({ Id: '' }, who))).toMatchObject({ code: CODES.forbidden });
  });

  it('an unknown device is 40400 and nothing is written', async () => {
    const result = await unchanged(() => post({ ...EDIT, Id: 'OC-Z9' }));
    expect(result).toMatchObject({ http: 404, status: 'fail', code: CODES.notFound, msg: 'not found', data: null });
  });

  it('a device out of the caller scope is "not found" exactly like a missing one (the scope service decides)', async () => {
    // The policy lets only the super administrator edit, who sees every device; the service still
    // applies the scope, so the rule holds should the policy ever open edits to lower levels.
    const ctx = { ...store.context(), now: clock.now };
    const first = await ctx.db.selectFrom('accounts').select(['id', 'level']).where('account', '=', 'first').executeTakeFirstOrThrow();
    const viewer = { id: first.id, level: 1 as const };
    const actor = { id: first.id, account: 'first', address: '192.0.2.1' };
    const failure = async (Id: string) => unchanged(() => updateDevice(ctx, viewer, actor, { ...EDIT, Id }).catch((error: unknown) => error));
    const outOfScope = await failure('OC-C1');
    const missing = await failure('OC-Z9');
    for (const error of [outOfScope, missing]) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: CODES.notFound, key: 'notFound', statusCode: 404 });
    }
    const updated = await updateDevice(ctx, viewer, actor, { ...EDIT, Id: 'OC-B1' });
    expect(updated).toMatchObject({ Id: 'OC-B1', name: EDIT.name, Type: EDIT.Type, Location: EDIT.Location, UpdateTime: clock.now() });
  });

  it.each<[string, unknown, string]>([
    ['an unknown field', { ...EDIT, State: 'Work' }, 'unknown field: State'],
    ['a field the form does not show', { ...EDIT, UpdateTime: 0 }, 'unknown field: UpdateTime'],
    ['Type above 5', { ...EDIT, Type: 6 }, 'Type must be at most 5'],
    ['Type below 1', { ...EDIT, Type: 0 }, 'Type must be at least 1'],
    ['Type not whole', { ...EDIT, Type: 2.5 }, 'Type must be a whole number'],
    ['Type as text', { ...EDIT, Type: '3' }, 'Type must be a number'],
    ['Type missing', { Id: 'OC-B2', name: 'x', Location: 'y' }, 'Type cannot be empty'],
    ['name too long', { ...EDIT, name: 'n'.repeat(65) }, 'name must be at most 64 characters'],
    ['name empty', { ...EDIT, name: '   ' }, 'name cannot be empty'],
    ['name not text', { ...EDIT, name: 7 }, 'name must be a string'],
    ['Location too long', { ...EDIT, Location: 'l'.repeat(129) }, 'Location must be at most 128 characters'],
    ['Location null', { ...EDIT, Location: null }, 'Location must be a string'],
    ['Id too long', { ...EDIT, Id: 'I'.repeat(33) }, 'Id must be at most 32 characters'],
    ['Id with a space', { ...EDIT, Id: 'OC B2' }, 'Id is invalid'],
    ['Id not text', { ...EDIT, Id: 42 }, 'Id must be a string'],
    ['a list for a body', [EDIT], 'body must be an object'],
  ])('%s is 40000 naming the field, nothing written', async (_case, body, msg) => {
    const result = await unchanged(() => post(body));
    expect(result).toEqual({ http: 400, data: null, status: 'fail', code: CODES.badInput, msg });
  });

  it('a body that is not JSON is 40000', async () => {
    const response = await unchanged(() =>
      fleet.app.inject({
        method: 'POST',
        url: `/upstream${UPDATE}`,
        headers: { authorization: `Bearer ${fleet.tokens.admin}`, 'content-type': 'application/json', 'accept-language': 'en-US' },
        payload: '{"Id":',
      }),
    );
    expect(envelope(response)).toMatchObject({ code: CODES.badInput, msg: 'the request body is not valid JSON' });
  });

  it.each<[string, unknown]>([
    ['an empty Id', { ...EDIT, Id: '' }],
    ['a blank Id', { ...EDIT, Id: '   ' }],
    ['a null Id', { ...EDIT, Id: null }],
    ['no Id', { name: EDIT.name, Type: EDIT.Type, Location: EDIT.Location }],
    ['no Id and other faults', { Type: 9, extra: true }],
    ['an empty object', {}],
    ['no body', undefined],
  ])("%s is code 401 'device ID cannot be empty', nothing written", async (_case, body) => {
    const result = await unchanged(() => post(body));
    expect(result).toEqual({ http: 400, data: null, status: 'fail', code: CODES.emptyDeviceId, msg: 'device ID cannot be empty' });
    expect(await post(body, 'admin', 'zh-CN')).toMatchObject({ code: CODES.emptyDeviceId, msg: '设备ID不能为空' });
  });

  it('signed out (no token, an unknown token) is 50008 before the body is read, nothing written', async () => {
    for (const body of [EDIT, { Id: '' }, { nonsense: true }]) {
      const result = await unchanged(() => post(body, null));
      expect(result).toEqual({ http: 401, data: null, status: 'fail', code: CODES.notSignedIn, msg: 'not logged in' });
    }
    const forged = await unchanged(() => call(fleet.app, UPDATE, EDIT, { token: 'not-a-token', lang: 'en-US' }));
    expect(envelope(forged)).toMatchObject({ code: CODES.notSignedIn });
  });

  describe("through the console's own upstream adapter", () => {
    const memoryTokens = (): TokenStore => {
      let token: string | null = null;
      return { get: () => token, set: (value) => (token = value), clear: () => (token = null) };
    };
    const injectFetch =
      (target: FastifyInstance): typeof fetch =>
      async (input, init) => {
        const response = await target.inject({
          method: 'POST',
          url: String(input),
          headers: Object.fromEntries(new Headers(init?.headers).entries()),
          payload: typeof init?.body === 'string' ? init.body : undefined,
        });
        return new Response(response.body, { status: response.statusCode, headers: { 'content-type': 'application/json' } });
      };
    const provider = async (account: keyof typeof DEMO) => {
      const tokenStore = memoryTokens();
      const http = createHttpClient({ baseUrl: '/upstream', tokens: tokenStore, locale: () => 'en-US', fetch: injectFetch(fleet.app) });
      tokenStore.set((await http.post<{ token: string }>('/login', DEMO[account])).token);
      return createUpstreamProvider(http, [devicesConfig]);
    };

    it("react-admin's update sends the edit form and gets the saved record back", async () => {
      const admin = await provider('admin');
      const { data: previousData } = await admin.getOne('devices', { id: 'OC-A2' });
      const { data } = await admin.update('devices', {
        id: 'OC-A2',
        data: { ...previousData, name: 'North Two B', Location: 'Hall A, west' },
        previousData,
      });
      expect(data).toEqual({ ...previousData, name: 'North Two B', Location: 'Hall A, west', UpdateTime: clock.now() });
      expect((await admin.getOne('devices', { id: 'OC-A2' })).data).toEqual(data);
    });

    it('a refused edit reaches the console as an UpstreamError with the code', async () => {
      const first = await provider('first');
      const { data: previousData } = await first.getOne('devices', { id: 'OC-A2' });
      const failure = await first
        .update('devices', { id: 'OC-A2', data: { ...previousData, name: 'Mine' }, previousData })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(UpstreamError);
      expect(failure).toMatchObject({ code: CODES.forbidden, status: 403 });
    });
  });
});
