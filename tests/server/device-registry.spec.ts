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
  const embeddedPort = () => {
    const { mqtt } = fleet.app.ctx.config;
    if (mqtt.kind !== 'embedded') throw new Error('these tests run with the embedded broker');
    return mqtt.port;
  };

  describe('POST /api/v1/devices', () => {
    it('an admin registers a device: 201, the device as the list shows it and its secret, once', async () => {
      const { http, body } = json(await rest('POST', '/devices', { body: NEW }));
      expect(http).toBe(201);
      const { secret, broker, ...device } = body;
      expect(secret).toMatch(SECRET);
      // Where the device connects: the embedded broker's port on the host the console reached (inject's localhost).
      expect(broker).toEqual({ scheme: 'mqtt', host: 'localhost', port: embeddedPort() });
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
      expect(result).toEqual({ http: 400, body: { message: 'device OC-A1 already exists (Id)', code: CODES.badInput } });
      const zh = json(await rest('POST', '/devices', { body: { ...NEW, Id: 'OC-A1' }, lang: 'zh-CN' }));
      expect(zh.body).toEqual({ message: '设备 OC-A1 已存在（Id）', code: CODES.badInput });
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
      const { secret, broker, ...device } = body;
      expect(broker).toEqual({ scheme: 'mqtt', host: 'localhost', port: embeddedPort() });
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
      expect(entry).toMatchObject({ target_id: NEW.Id, device_id: NEW.Id, actor_account: 'admin' });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({ historyKept: false });
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

    it('a device with orders and readings is removed with its history kept, readable by whoever sees every device', async () => {
      const { db } = store.context();
      const secret = String(json(await rest('POST', '/devices/OC-A1/secret')).body.secret);
      const history = async () => ({
        orders: await db.selectFrom('orders').selectAll().where('device_id', '=', 'OC-A1').orderBy('id').execute(),
        readings: await db.selectFrom('state_records').selectAll().where('device_id', '=', 'OC-A1').orderBy('id').execute(),
      });
      const kept = await history();
      expect(kept.orders.length).toBeGreaterThan(0);
      expect(kept.readings.length).toBeGreaterThan(0);
      const before = await listed('OC-A1');
      clock.advance(1000);

      const { http, body } = json(await rest('DELETE', '/devices/OC-A1'));
      expect(http).toBe(200);
      expect(body).toEqual(before);
      // Gone from the lists, the fleet's figures and the accounts' devices; its secret revoked.
      expect(await listed('OC-A1')).toBeUndefined();
      expect(await verify('OC-A1', secret)).toBe(false);
      expect(await db.selectFrom('account_devices').selectAll().where('device_id', '=', 'OC-A1').execute()).toEqual([]);
      expect(await db.selectFrom('devices').select(['removed_at', 'secret_hash', 'online']).where('id', '=', 'OC-A1').executeTakeFirst()).toEqual({
        removed_at: clock.now(),
        secret_hash: null,
        online: 0,
      });
      const entry = (await deviceEntries()).find((row) => row.action === 'device.delete');
      expect(JSON.parse(entry?.before ?? 'null')).toMatchObject({ name: 'North One', assignedTo: ['client', 'first', 'second'] });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({ historyKept: true });

      // The history is kept, row for row, and the super administrator still reads it through the API.
      expect(await history()).toEqual(kept);
      const readings = envelope<ListAnswer>(await call(fleet.app, '/list/get_OCState', { filter: { Id: ['OC-A1'] } }, { token: fleet.tokens.admin })).data;
      expect(readings.total).toBe(kept.readings.length);
      const orders = envelope<ListAnswer>(await call(fleet.app, '/list/get_Records', { filter: { Id: ['OC-A1'] } }, { token: fleet.tokens.admin })).data;
      expect(orders.total).toBe(kept.orders.length);
      expect(json(await rest('GET', `/devices/OC-A1/history?from=${T0 - 3_600_000}&to=${clock.now()}&points=10`)).http).toBe(200);
      const audit = await rest('GET', `/audit-log?filter=${encodeURIComponent(JSON.stringify({ deviceId: 'OC-A1' }))}`);
      expect(audit.json<{ action: string }[]>().map((row) => row.action)).toEqual(expect.arrayContaining(['device.rotateSecret', 'device.delete']));
      // Accounts that managed it no longer see it, nor its history: its assignments went with it.
      const clientReadings = envelope<ListAnswer>(await call(fleet.app, '/list/get_OCState', { filter: { Id: ['OC-A1'] } }, { token: fleet.tokens.client })).data;
      expect(clientReadings.total).toBe(0);

      // Removed once: no second removal, rotation, command or edit; its Id stays with its history.
      expect(json(await rest('DELETE', '/devices/OC-A1')).http).toBe(404);
      expect(json(await rest('POST', '/devices/OC-A1/secret')).http).toBe(404);
      expect(envelope(await call(fleet.app, '/order/change_state', { Id: 'OC-A1', State: 'Stop' }, { token: fleet.tokens.admin })).code).toBe(CODES.notFound);
      const again = json(await rest('POST', '/devices', { body: { ...NEW, Id: 'OC-A1' } }));
      expect(again).toEqual({ http: 400, body: { message: 'device OC-A1 was removed and its Id stays with its history: choose another Id (Id)', code: CODES.badInput } });
      expect(json(await rest('POST', '/devices', { body: { ...NEW, Id: 'OC-A1' }, lang: 'zh-CN' })).body.message).toBe(
        '设备 OC-A1 已删除，其编号随历史记录保留：请换一个编号（Id）',
      );
      // Nor can it be assigned again.
      const assign = envelope(await call(fleet.app, '/assign_Devices', { Account: 'first', DeviceIds: ['OC-A1'] }, { token: fleet.tokens.admin }));
      expect(assign.code).toBe(CODES.badInput);
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
