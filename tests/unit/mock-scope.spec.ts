import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/node';
import { MOCK_SCOPING, mockScope } from '../../mocks/scope';
import { mockCredentials } from '../../mocks/auth';
import { generatedState } from '../../mocks/handlers';
import { MOCK_SWITCH_ROLE_PATH } from '../../src/domain/roles';
import { visibleAccounts, visibleDevices } from '../../src/domain/scope/visibility';
import { RESOURCE_CONFIGS } from '../../src/resources/configs';
import type { WireRecord } from '../../src/resources/model';
import { mockSession, REST, UPSTREAM } from './resources/fixtures';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The seed's hierarchy, read by the model as the mocks read it. */
const seeded = mockScope(generatedState().tables, mockCredentials()).hierarchy();
const everything = { current: 1, pageSize: 1000 };

const listed = async (account: string, path: string, body: object = everything) =>
  (await (await mockSession(account)).http.post<{ list: WireRecord[]; total: number }>(path, body)).list;

const restIds = async (account: string, path: string): Promise<string[]> => {
  const token = (await mockSession(account)).tokens.get() ?? '';
  const response = await fetch(`${REST}/${path}?range=[0,999]`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await response.json()) as WireRecord[]).map((record) => String(record.deviceId ?? record.Id));
};

describe('the mocks answer what the scope model says', () => {
  it('knows how every resource is scoped', () => {
    expect(RESOURCE_CONFIGS.map((config) => config.name).filter((name) => !Object.hasOwn(MOCK_SCOPING, name))).toEqual([]);
  });

  it.each(['admin', 'user', 'client'])("lists %s's devices, and the records of those devices only", async (account) => {
    const viewer = { id: account, level: seeded.accounts.get(account)?.level ?? 3 };
    const devices = visibleDevices(seeded, viewer);
    expect(devices.length).toBeGreaterThan(0);
    expect((await listed(account, '/list/get_OCProperty')).map((device) => device.Id).sort()).toEqual(devices);
    for (const path of ['/list/get_OCState', '/list/get_Records']) {
      expect((await listed(account, path)).every((record) => devices.includes(String(record.Id))), path).toBe(true);
    }
    expect((await restIds(account, 'alarms')).every((device) => devices.includes(device))).toBe(true);
  });

  it("shows the client only its own chambers: another is not found, its history neither", async () => {
    const outside = (await listed('admin', '/list/get_OCProperty')).map((device) => String(device.Id)).find((id) => !visibleDevices(seeded, { id: 'client', level: 3 }).includes(id));
    expect(outside).toBeDefined();
    expect((await listed('client', '/list/get_OCProperty', { filter: { Id: [outside] } })).length).toBe(0);
    const history = async (account: string) => {
      const token = (await mockSession(account)).tokens.get() ?? '';
      const url = `${REST}/devices/${outside ?? ''}/history?from=${Date.now() - 3_600_000}&to=${Date.now()}&points=100`;
      return (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).status;
    };
    expect(await history('client')).toBe(404);
    expect(await history('user')).toBe(200);
  });

  it('gives a client the audit entries it made only: none of the seeded ones, which the super administrator reads all of', async () => {
    const read = async (account: string) => {
      const token = (await mockSession(account)).tokens.get() ?? '';
      return (await fetch(`${REST}/audit-log?range=[0,99]`, { headers: { Authorization: `Bearer ${token}` } })).json() as Promise<WireRecord[]>;
    };
    expect(await read('client')).toEqual([]);
    expect((await read('admin')).length).toBe(55);
  });

  it("lists an administrator's subtree as get_Admins, each account's devices as far as it sees them", async () => {
    const accounts = await listed('user', '/get_Admins');
    expect(accounts.map((record) => record.Account).sort()).toEqual(visibleAccounts(seeded, { id: 'user', level: 1 }).sort());
    expect(accounts.map((record) => record.Account).sort()).toEqual(['client', 'user']);
    const all = await listed('admin', '/get_Admins');
    expect(all.length).toBe(seeded.accounts.size);
  });

  it('a session switched to another role looks as the seed’s sign-in account of that role', async () => {
    const { http } = await mockSession('admin');
    await http.post(MOCK_SWITCH_ROLE_PATH, { role: 'client' });
    const devices = (await http.post<{ list: WireRecord[] }>('/list/get_OCProperty', everything)).list.map((device) => device.Id).sort();
    expect(devices).toEqual(visibleDevices(seeded, { id: 'client', level: 3 }));
  });
});
