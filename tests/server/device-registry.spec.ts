import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { devicesConfig } from '../../src/resources/devices/config';
import type { WireRecord } from '../../src/resources/model';
import type { ListAnswer } from '../../src/resources/query';
import { recordSchema } from '../../src/resources/schema';
import { hashDeviceSecret, verifyDeviceSecret } from '../../server/devices/registry';
import { call, envelope } from './http';
import { snapshot, T0, type DemoName, useFleetApp } from './fleet';
import { fakeClock, STORE_KINDS, useStore } from './stores';

const NEW = { Id: 'OC-N1', name: 'New One', Type: 2, Location: 'Hall N' } as const;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

interface RestOptions {
  who?: DemoName | null;
  lang?: string;
  body?: unknown;
  /** Raw payload (sent as JSON), for malformed bodies. */
  raw?: string;
}

describe.each(STORE_KINDS)('device registration and secrets (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const fleet = useFleetApp(store, clock.now);
  beforeEach(() => clock.advance(1000));

  const rest = (method: 'GET' | 'POST' | 'DELETE', url: string, { who = 'admin', lang = 'en-US', body, raw }: RestOptions = {}) =>
    fleet.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: {
        ...(who === null ? {} : { authorization: `Bearer ${fleet.tokens[who]}` }),
        'accept-language': lang,
        ...(body === undefined && raw === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(raw !== undefined ? { payload: raw } : body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const json = (response: LightMyRequestResponse) => ({ http: response.statusCode, body: response.json<Record<string, unknown>>() });
  const listed = async (id: string): Promise<WireRecord | undefined> =>
    envelope<ListAnswer>(await call(fleet.app, '/list/get_OCProperty', { filter: { Id: [id] } }, { token: fleet.tokens.admin })).data.list[0];
  const deviceEntries = () =>
    store.context().db.selectFrom('audit_log').selectAll().where('target_type', '=', 'device').orderBy('id').execute();
  const unchanged = async <T>(refused: () => Promise<T>): Promise<T> => {
    const before = await snapshot(store.context());
    const entries = await deviceEntries();
    const result = await refused();
    expect(await snapshot(store.context())).toBe(before);
    expect(await deviceEntries()).toEqual(entries);
    return result;
  };
  const storedHash = async (id: string) =>
    (await store.context().db.selectFrom('devices').select('secret_hash').where('id', '=', id).executeTakeFirst())?.secret_hash;
  const verify = (id: string, secret: string) => verifyDeviceSecret(store.context(), id, secret);

  describe('POST /api/v1/devices', () => {
    it('an admin registers a device: 201, the device as the list shows it and its secret, once', async () => {
      const { http, body } = json(await rest('POST', '/devices', { body: NEW }));
      expect(http).toBe(201);
      const { secret, ...device } = body;
      expect(secret).toMatch(SECRET);
      expect(device).toEqual({
        Id: NEW.Id,
        name: NEW.name,
        Type: NEW.Type,
        Location: NEW.Location,
        State: 'Stop',
        Permission: 'Close',
        OrderNum: null,
        Emergency: false,
        Online: false,
        LastSeen: null,
        UpdateTime: clock.now(),
        SessionOC: null,
        InSession: false,
        Reading: null,
      });
      expect(recordSchema(devicesConfig).strict().safeParse(device).success).toBe(true);
      expect(await listed(NEW.Id)).toEqual(device);
      // The list never carries the secret.
      expect(JSON.stringify(await listed(NEW.Id))).not.toContain(String(secret));
    });

    it('keeps only a hash of the secret (sha256), never the secret; verifyDeviceSecret checks it', async () => {
      const { body } = json(await rest('POST', '/devices', { body: NEW }));
      const secret = String(body.secret);
      const hash = await storedHash(NEW.Id);
      expect(hash).toBe(`sha256:${createHash('sha256').update(secret).digest('hex')}`);
      expect(hash).toBe(hashDeviceSecret(secret));
      const everything = JSON.stringify(await store.context().db.selectFrom('devices').selectAll().execute()) +
        JSON.stringify(await store.context().db.selectFrom('audit_log').selectAll().execute());
      expect(everything).not.toContain(secret);
      expect(await verify(NEW.Id, secret)).toBe(true);
      expect(await verify(NEW.Id, `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
      expect(await verify(NEW.Id, '')).toBe(false);
      expect(await verify('OC-A1', secret)).toBe(false);
      expect(await verify('OC-Z9', secret)).toBe(false);
      expect(await verify('', secret)).toBe(false);
    });

    it('issues a different secret for every device', async () => {
      const first = json(await rest('POST', '/devices', { body: NEW })).body.secret;
      const second = json(await rest('POST', '/devices', { body: { ...NEW, Id: 'OC-N2' } })).body.secret;
      expect(first).not.toBe(second);
    });

    it("records 'device.register' with the device's fields, never the secret", async () => {
      await rest('POST', '/devices', { body: NEW });
      const entries = await deviceEntries();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action: 'device.register', actor_account: 'admin', target_id: NEW.Id, device_id: NEW.Id, before: null, at: clock.now() });
      expect(JSON.parse(entries[0]?.after ?? 'null')).toEqual({ name: NEW.name, Type: NEW.Type, Location: NEW.Location });
    });

    it('an existing Id is 400/40000 naming it, nothing written', async () => {
      const result = await unchanged(async () => json(await rest('POST', '/devices', { body: { ...NEW, Id: 'OC-A1' } })));
      expect(result).toEqual({ http: 400, body: { message: 'device OC-A1 already exists', code: CODES.badInput } });
      const zh = json(await rest('POST', '/devices', { body: { ...NEW, Id: 'OC-A1' }, lang: 'zh-CN' }));
      expect(zh.body).toEqual({ message: '设备 OC-A1 已存在', code: CODES.badInput });
    });

    it('two registrations of the same Id at once: one is created, the other refused', async () => {
      const answers = await Promise.all([rest('POST', '/devices', { body: NEW }), rest('POST', '/devices', { body: NEW })]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400]);
      expect((await deviceEntries()).filter((entry) => entry.action === 'device.register')).toHaveLength(1);
    });

    it.each(['first', 'second', 'client'] as const)('%s is refused with 403/40300 before the body is read, nothing written', async (who) => {
      for (const body of [NEW, { Id: '' }]) {
        const result = await unchanged(async () => json(await rest('POST', '/devices', { who, body })));
        expect(result).toEqual({ http: 403, body: { message: 'access denied', code: CODES.forbidden } });
      }
    });

    it('signed out is 401/50008 (ra-data-simple-rest signs the console out on 401), nothing written', async () => {
      const result = await unchanged(async () => json(await rest('POST', '/devices', { who: null, body: NEW })));
      expect(result).toEqual({ http: 401, body: { message: 'not logged in', code: CODES.notSignedIn } });
      expect(json(await rest('POST', '/devices', { who: null, body: NEW, lang: 'zh-CN' })).body).toEqual({
        message: '未登录或登录已过期',
        code: CODES.notSignedIn,
      });
    });

    it.each<[string, unknown]>([
      ['an empty Id', { ...NEW, Id: '' }],
      ['a blank Id', { ...NEW, Id: '  ' }],
      ['no Id', { name: NEW.name, Type: NEW.Type, Location: NEW.Location }],
      ['no body', undefined],
    ])("%s is code 401 'device ID cannot be empty' (HTTP 400), nothing written", async (_case, body) => {
      const result = await unchanged(async () => json(await rest('POST', '/devices', { body })));
      expect(result).toEqual({ http: 400, body: { message: 'device ID cannot be empty', code: CODES.emptyDeviceId } });
    });

    it.each<[string, unknown, string]>([
      ['Type above 5', { ...NEW, Type: 6 }, 'Type must be at most 5'],
      ['no name', { Id: NEW.Id, Type: 1, Location: 'x' }, 'name cannot be empty'],
      ['an Id with a slash', { ...NEW, Id: 'OC/1' }, 'Id is invalid'],
      ['an Id too long', { ...NEW, Id: 'X'.repeat(33) }, 'Id must be at most 32 characters'],
      ['a field the registration does not take', { ...NEW, secret: 'mine' }, 'unknown field: secret'],
      ['State', { ...NEW, State: 'Work' }, 'unknown field: State'],
    ])('%s is 400/40000 naming the field, nothing written', async (_case, body, message) => {
      const result = await unchanged(async () => json(await rest('POST', '/devices', { body })));
      expect(result).toEqual({ http: 400, body: { message, code: CODES.badInput } });
    });

    it('a body that is not JSON is 400/40000', async () => {
      const result = await unchanged(async () => json(await rest('POST', '/devices', { raw: '{"Id":' })));
      expect(result).toEqual({ http: 400, body: { message: 'the request body is not valid JSON', code: CODES.badInput } });
    });
  });

  describe('POST /api/v1/devices/:Id/secret', () => {
    it('an admin rotates the secret: the new one answered once, the old one stops working at once', async () => {
      const old = String(json(await rest('POST', '/devices', { body: NEW })).body.secret);
      clock.advance(5000);
      const { http, body } = json(await rest('POST', `/devices/${NEW.Id}/secret`));
      expect(http).toBe(200);
      const { secret, ...device } = body;
      expect(secret).toMatch(SECRET);
      expect(secret).not.toBe(old);
      expect(device).toEqual({ ...(await listed(NEW.Id)), UpdateTime: clock.now() });
      expect(await verify(NEW.Id, old)).toBe(false);
      expect(await verify(NEW.Id, String(secret))).toBe(true);
      expect(await storedHash(NEW.Id)).toBe(hashDeviceSecret(String(secret)));
    });

    it('issues a first secret to a device that had none', async () => {
      expect(await storedHash('OC-A1')).toBeNull();
      const { body } = json(await rest('POST', '/devices/OC-A1/secret'));
      expect(await verify('OC-A1', String(body.secret))).toBe(true);
    });

    it("records 'device.rotateSecret' without any secret or hash", async () => {
      const { body } = json(await rest('POST', '/devices/OC-A1/secret', { body: {} }));
      const [entry] = await deviceEntries();
      expect(entry).toMatchObject({ action: 'device.rotateSecret', target_id: 'OC-A1', device_id: 'OC-A1', before: null, after: null });
      expect(JSON.stringify(entry)).not.toContain(String(body.secret));
    });

    it('an unknown device is 404/40400, nothing written; a bad Id is 400 naming it', async () => {
      expect(await unchanged(async () => json(await rest('POST', '/devices/OC-Z9/secret')))).toEqual({
        http: 404,
        body: { message: 'not found', code: CODES.notFound },
      });
      expect(json(await rest('POST', '/devices/OC%20A1/secret'))).toEqual({ http: 400, body: { message: 'Id is invalid', code: CODES.badInput } });
    });

    it.each(['first', 'second', 'client'] as const)('%s is refused with 403/40300, even for its own device', async (who) => {
      const result = await unchanged(async () => json(await rest('POST', '/devices/OC-A1/secret', { who })));
      expect(result).toEqual({ http: 403, body: { message: 'access denied', code: CODES.forbidden } });
    });
  });

  describe('DELETE /api/v1/devices/:Id', () => {
    it('an admin removes a device without history and its assignments; its secret no longer verifies', async () => {
      const secret = String(json(await rest('POST', '/devices', { body: NEW })).body.secret);
      const { db } = store.context();
      const first = await db.selectFrom('accounts').select('id').where('account', '=', 'first').executeTakeFirstOrThrow();
      await db.insertInto('account_devices').values({ account_id: first.id, device_id: NEW.Id, created_at: T0 }).execute();
      const before = await listed(NEW.Id);
      const { http, body } = json(await rest('DELETE', `/devices/${NEW.Id}`));
      expect(http).toBe(200);
      expect(body).toEqual(before);
      expect(await listed(NEW.Id)).toBeUndefined();
      expect(await db.selectFrom('account_devices').selectAll().where('device_id', '=', NEW.Id).execute()).toEqual([]);
      expect(await verify(NEW.Id, secret)).toBe(false);
      const entry = (await deviceEntries()).find((row) => row.action === 'device.delete');
      expect(entry).toMatchObject({ target_id: NEW.Id, device_id: NEW.Id, actor_account: 'admin', after: null });
      expect(JSON.parse(entry?.before ?? 'null')).toEqual({
        name: NEW.name,
        Type: NEW.Type,
        Location: NEW.Location,
        State: 'Stop',
        Permission: 'Close',
        assignedTo: ['first'],
      });
      // The Id is free again.
      expect((await rest('POST', '/devices', { body: NEW })).statusCode).toBe(201);
    });

    it('accepts the Content-Type react-admin sends on DELETE (text/plain, no body)', async () => {
      await rest('POST', '/devices', { body: NEW });
      const response = await fleet.app.inject({
        method: 'DELETE',
        url: `/api/v1/devices/${NEW.Id}`,
        headers: { authorization: `Bearer ${fleet.tokens.admin}`, 'content-type': 'text/plain' },
      });
      expect(response.statusCode).toBe(200);
    });

    it('a device with orders or state records is refused (its history is kept), nothing written', async () => {
      for (const id of ['OC-A1', 'OC-C2']) {
        const result = await unchanged(async () => json(await rest('DELETE', `/devices/${id}`)));
        expect(result).toEqual({
          http: 400,
          body: { message: `device ${id} has orders or state records; its history is kept, so it cannot be deleted`, code: CODES.badInput },
        });
      }
      // Readings alone are history too.
      const { db } = store.context();
      await rest('POST', '/devices', { body: NEW });
      await db.insertInto('state_records').values({ device_id: NEW.Id, time: T0 }).execute();
      expect(json(await rest('DELETE', `/devices/${NEW.Id}`)).http).toBe(400);
      expect(json(await rest('DELETE', `/devices/${NEW.Id}`, { lang: 'zh-CN' })).body.message).toBe(
        `设备 ${NEW.Id} 已有订单或状态记录，历史须保留，不能删除`,
      );
    });

    it('an unknown device is 404/40400, nothing written', async () => {
      expect(await unchanged(async () => json(await rest('DELETE', '/devices/OC-Z9')))).toEqual({
        http: 404,
        body: { message: 'not found', code: CODES.notFound },
      });
    });

    it.each(['first', 'second', 'client'] as const)('%s is refused with 403/40300, nothing written', async (who) => {
      await rest('POST', '/devices', { body: NEW });
      const result = await unchanged(async () => json(await rest('DELETE', `/devices/${NEW.Id}`, { who })));
      expect(result).toEqual({ http: 403, body: { message: 'access denied', code: CODES.forbidden } });
    });
  });

  it('an unknown path under /api/v1 is 404 { message, code }', async () => {
    expect(json(await rest('GET', '/nothing-here'))).toEqual({ http: 404, body: { message: 'not found', code: CODES.notFound } });
    expect(json(await rest('GET', '/devices'))).toEqual({ http: 404, body: { message: 'not found', code: CODES.notFound } });
    expect(json(await rest('POST', '/audit-log', { body: {} }))).toEqual({ http: 404, body: { message: 'not found', code: CODES.notFound } });
    expect(json(await rest('DELETE', '/audit-log/1'))).toEqual({ http: 404, body: { message: 'not found', code: CODES.notFound } });
    expect(json(await rest('GET', '')).http).toBe(404);
    expect(json(await rest('GET', '/', { lang: 'zh-CN' }))).toEqual({ http: 404, body: { message: '请求的资源不存在', code: CODES.notFound } });
  });
});
