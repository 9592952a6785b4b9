import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/node';
import { MOCK_TOTAL, seedTables } from '../../mocks/seed';
import { RESOURCE_CONFIGS } from '../../src/resources';
import { recordId } from '../../src/resources/model';
import { recordSchema } from '../../src/resources/schema';
import { mockSession, REST, UPSTREAM } from './resources/fixtures';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('seeded mock data', () => {
  const tables = seedTables(RESOURCE_CONFIGS);

  it.each(RESOURCE_CONFIGS.map((config) => [config.name, config] as const))('%s: 55 records within every field\'s kind and limits, unique ids', (name, config) => {
    const records = tables.get(name) ?? [];
    expect(records).toHaveLength(MOCK_TOTAL);
    for (const record of records) expect(recordSchema(config).strict().safeParse(record).error).toBeUndefined();
    expect(new Set(records.map((record) => recordId(config, record))).size).toBe(MOCK_TOTAL);
  });

  it('is the same on every run', () => {
    expect(seedTables(RESOURCE_CONFIGS)).toEqual(tables);
  });

  it('points references at seeded records', () => {
    const deviceIds = new Set(tables.get('devices')?.map((device) => device.Id));
    expect(tables.get('orders')?.every((order) => deviceIds.has(order.Id))).toBe(true);
    expect(tables.get('accounts')?.every((account) => (account.DeviceIds as unknown[]).every((id) => deviceIds.has(id)))).toBe(true);
  });
});

describe('mocked upstream calls (spec point 9)', () => {
  it('answers page 1 of 10 out of 55 when the body says nothing', async () => {
    const { http } = await mockSession('admin');
    const answer = await http.post<{ list: unknown[]; total: number }>('/list/get_OCProperty', {});
    expect(answer.list).toHaveLength(10);
    expect(answer.total).toBe(55);
  });

  it('refuses get_Admins without sign-in with 50008 "not logged in"', async () => {
    const { http } = await mockSession();
    await expect(http.post('/get_Admins', { current: 1, pageSize: 10 })).rejects.toMatchObject({ code: 50008, message: 'not logged in' });
  });

  it('refuses what the policy refuses, and bad bodies with 40000 naming the field', async () => {
    const { http } = await mockSession('user');
    await expect(http.post('/device/update_OCProperty', { Id: 'Id-001', name: 'n', Type: 1, Location: 'x' })).rejects.toMatchObject({ code: 40300 });
    await expect(http.post('/list/get_OCState', { sort: { field: 'HmBP', order: 'ASC' } })).rejects.toMatchObject({
      code: 40000,
      message: expect.stringContaining('sort.field'),
    });
  });
});
