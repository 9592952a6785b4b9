import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEVICE_TYPES, type DeviceType } from '../../src/domain/deviceTypes';
import { ratedMaxAtaOf, ratedMaxima } from '../../server/device-types/ratedMax';
import { demoTokens, useFleetApp, type DemoName } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * The device types under /api/v1 (docs/device-types.md): five named types from the migration, read by
 * every role, edited by the super administrator only, each edit audited, bad input refused naming the
 * field in the caller's language; and the rated maximum the alarms read.
 */

describe.each(STORE_KINDS)('device types (%s)', (kind) => {
  const store = useStore(kind);
  const fleet = useFleetApp(store);

  const get = (role: DemoName, url: string) => fleet.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${fleet.tokens[role]}` } });
  const put = (app: FastifyInstance, token: string, id: number | string, body: unknown, language = 'zh-CN') =>
    app.inject({
      method: 'PUT',
      url: `/api/v1/device-types/${id}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': language },
      payload: JSON.stringify(body),
    });
  const audited = () => store.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'deviceType.update').execute();

  // Runs first: later tests edit types, and the store keeps the table between tests.
  it('lists the five named types of the migration to every role, in simple-rest shape', async () => {
    for (const role of ['admin', 'first', 'second', 'client'] as const) {
      const response = await get(role, '/api/v1/device-types?sort=["id","ASC"]&range=[0,9]');
      expect(response.statusCode, role).toBe(200);
      expect(response.headers['content-range'], role).toBe('device-types 0-4/5');
      const types = response.json<DeviceType[]>();
      expect(types.map(({ id, name, ratedMaxAta }) => ({ id, name, ratedMaxAta })), role).toEqual(DEFAULT_DEVICE_TYPES);
      for (const type of types) expect(type.updatedAt, role).toBeGreaterThan(0);
    }
  });

  it('reads one type, and answers 404 for a type that does not exist', async () => {
    const one = await get('client', '/api/v1/device-types/5');
    expect(one.statusCode).toBe(200);
    expect(one.json<DeviceType>()).toMatchObject({ id: 5, name: '医用加压舱', ratedMaxAta: 2 });
    expect((await get('client', '/api/v1/device-types/6')).statusCode).toBe(404);
  });

  it('lets the admin rename a type and change its rated maximum, audited with before and after', async () => {
    const before = (await get('admin', '/api/v1/device-types/3')).json<DeviceType>();
    const response = await put(fleet.app, fleet.tokens.admin, 3, { ...before, name: '双人卧式舱', ratedMaxAta: 1.4 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<DeviceType>()).toMatchObject({ id: 3, name: '双人卧式舱', ratedMaxAta: 1.4 });
    expect((await get('client', '/api/v1/device-types/3')).json<DeviceType>()).toMatchObject({ name: '双人卧式舱', ratedMaxAta: 1.4 });
    const [entry, ...more] = await audited();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actor_account: 'admin', target_type: 'deviceType', target_id: '3', device_id: null });
    expect(JSON.parse(String(entry?.before))).toEqual({ name: '双人舱', ratedMaxAta: 1.5 });
    expect(JSON.parse(String(entry?.after))).toEqual({ name: '双人卧式舱', ratedMaxAta: 1.4 });
    expect(await ratedMaxAtaOf(store.database.db, 3)).toBe(1.4);
  });

  it('refuses a rated maximum outside 1.0–3.0 ATA naming the field, in the caller’s language, and writes nothing', async () => {
    const type = (await get('admin', '/api/v1/device-types/2')).json<DeviceType>();
    const chinese = await put(fleet.app, fleet.tokens.admin, 2, { ...type, ratedMaxAta: 3.5 });
    expect(chinese.statusCode).toBe(400);
    expect(chinese.json<{ message: string }>().message).toContain('ratedMaxAta');
    const english = await put(fleet.app, fleet.tokens.admin, 2, { ...type, ratedMaxAta: 0.9 }, 'en-US');
    expect(english.statusCode).toBe(400);
    expect(english.json<{ message: string }>().message).toMatch(/ratedMaxAta must be at least 1/);
    const empty = await put(fleet.app, fleet.tokens.admin, 2, { ...type, name: '  ' }, 'en-US');
    expect(empty.json<{ message: string }>().message).toContain('name');
    const elsewhere = await put(fleet.app, fleet.tokens.admin, 2, { ...type, id: 4 }, 'en-US');
    expect(elsewhere.statusCode).toBe(400);
    expect((await get('admin', '/api/v1/device-types/2')).json<DeviceType>()).toEqual(type);
    expect(await audited()).toEqual([]);
  });

  it('refuses every other role on the server, and offers no create or delete', async () => {
    const type = (await get('admin', '/api/v1/device-types/1')).json<DeviceType>();
    for (const role of ['first', 'second', 'client'] as const) {
      const response = await put(fleet.app, fleet.tokens[role], 1, { ...type, ratedMaxAta: 2.5 });
      expect(response.statusCode, role).toBe(403);
    }
    const tokens = await demoTokens(fleet.app);
    const create = await fleet.app.inject({ method: 'POST', url: '/api/v1/device-types', headers: { authorization: `Bearer ${tokens.admin}` }, payload: {} });
    expect(create.statusCode).toBe(404);
    const remove = await fleet.app.inject({ method: 'DELETE', url: '/api/v1/device-types/1', headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(remove.statusCode).toBe(404);
    expect((await get('admin', '/api/v1/device-types/1')).json<DeviceType>()).toEqual(type);
    expect(await audited()).toEqual([]);
  });

  it('gives the alarms each type’s rated maximum, and the default for a type it does not hold', async () => {
    expect(await ratedMaxAtaOf(store.database.db, 1)).toBe(1.3);
    expect(await ratedMaxAtaOf(store.database.db, 5)).toBe(2);
    expect(await ratedMaxAtaOf(store.database.db, 9)).toBe(2);
    // The five at once, as an evaluation pass reads them: what the API lists.
    const listed = (await get('admin', '/api/v1/device-types')).json<DeviceType[]>();
    expect(await ratedMaxima(store.database.db)).toEqual(new Map(listed.map(({ id, ratedMaxAta }) => [id, ratedMaxAta])));
    expect(listed).toHaveLength(5);
  });
});
