import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MOCK_ACK_MS } from '../../mocks/deviceCommands';
import { createMockServer } from '../../mocks/node';
import { isFixedTable, MOCK_TOTAL, seedTables } from '../../mocks/seed';
import { DEFAULT_DEVICE_TYPES } from '../../src/domain/deviceTypes';
import { CMD_ID_PATTERN } from '../../src/domain/commands';
import { RESOURCE_CONFIGS } from '../../src/resources/configs';
import type { DeviceCommandRecord } from '../../src/resources/devices/requests';
import { DEVICE_COMMANDS } from '../../src/resources/devices/config';
import { recordId, type WireRecord } from '../../src/resources/model';
import { recordSchema } from '../../src/resources/schema';
import { USER_MENU_PATH, userMenuFor } from '../../src/domain/menu';
import { mockSession, REST, UPSTREAM } from './resources/fixtures';
import { translate } from '../../server/http/messages';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('seeded mock data', () => {
  const tables = seedTables(RESOURCE_CONFIGS);

  const generated = RESOURCE_CONFIGS.filter((config) => !isFixedTable(config.name));
  it.each(generated.map((config) => [config.name, config] as const))('%s: 55 records within every field\'s kind and limits, unique ids', (name, config) => {
    const records = tables.get(name) ?? [];
    expect(records).toHaveLength(MOCK_TOTAL);
    for (const record of records) expect(recordSchema(config).strict().safeParse(record).error).toBeUndefined();
    expect(new Set(records.map((record) => recordId(config, record))).size).toBe(MOCK_TOTAL);
  });

  it('holds the five named device types the server starts with, not generated ones', () => {
    const types = tables.get('device-types') ?? [];
    expect(types.map(({ id, name, ratedMaxAta }) => ({ id, name, ratedMaxAta }))).toEqual(DEFAULT_DEVICE_TYPES);
    const config = RESOURCE_CONFIGS.find(({ name }) => name === 'device-types');
    for (const record of types) expect(config && recordSchema(config).strict().safeParse(record).error).toBeUndefined();
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

describe('mocked upstream calls (as the old console mocked them)', () => {
  it('answers page 1 of 10 out of 55 when the body says nothing', async () => {
    const { http } = await mockSession('admin');
    const answer = await http.post<{ list: unknown[]; total: number }>('/list/get_OCProperty', {});
    expect(answer.list).toHaveLength(10);
    expect(answer.total).toBe(55);
  });

  it("answers the menu of the signed-in account's role, as the server does, and 50008 signed out", async () => {
    const { http, tokens } = await mockSession('client');
    const menu = await http.post<{ path: string }[]>(USER_MENU_PATH);
    expect(menu).toEqual(userMenuFor('client'));
    expect(menu.map(({ path }) => path)).not.toContain('/other/manager');
    tokens.clear();
    await expect(http.post(USER_MENU_PATH)).rejects.toMatchObject({ code: 50008 });
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

describe('mocked device commands (docs/commands.md)', () => {
  type Answer = WireRecord & { cmdId: string };

  /** A REST read of the command log as `account`: status, Content-Range and the body. */
  const read = async (account: string | undefined, path: string) => {
    const token = account === undefined ? undefined : (await mockSession(account)).tokens.get();
    const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
    const response = await fetch(`${REST}/device-commands${path}`, { headers });
    return { status: response.status, range: response.headers.get('Content-Range'), body: (await response.json()) as unknown };
  };
  const command = async (cmdId: string) => (await read('admin', `/${cmdId}`)).body as DeviceCommandRecord;

  afterEach(() => vi.useRealTimers());

  it('change_settings: the settings given become a settings command; the answer is the device and its cmdId', async () => {
    const { http } = await mockSession('user');
    const answer = await http.post<Answer>(DEVICE_COMMANDS.changeSettings, { Id: 'Id-002', SP: 1.5, SS: 'S', SA: 0 });
    expect(answer).toMatchObject({ Id: 'Id-002', UpdateTime: expect.any(Number) });
    expect(answer.cmdId).toMatch(CMD_ID_PATTERN);
    expect(await command(answer.cmdId)).toMatchObject({
      id: answer.cmdId,
      Id: 'Id-002',
      type: 'settings',
      status: 'sent',
      actor: 'user',
      command: { cmdId: answer.cmdId, type: 'settings', SP: 1.5, SS: 'S', SA: 0 },
    });
  });

  it('change_settings refuses as the server does, and sends nothing: bad values naming the field, no setting, no Id, no device, a role', async () => {
    const { http } = await mockSession('admin');
    const before = (await read('admin', '')).range;
    const refusals = [
      [{ Id: 'Id-002', SP: 3.5 }, 40000, 'SP must be at most 3'],
      [{ Id: 'Id-002', ST: 1.5 }, 40000, 'ST must be a whole number'],
      [{ Id: 'Id-002', ST: '60' }, 40000, 'ST must be a number'],
      [{ Id: 'Id-002', SS: 'X' }, 40000, 'SS must be one of F, M, S'],
      [{ Id: 'Id-002', SL: 2 }, 40000, 'SL must be one of 0, 1'],
      [{ Id: 'Id-002', SP: 1.5, RCP: 1 }, 40000, 'unknown field: RCP'],
      [{ Id: 'Id-002' }, 40000, 'SP/ST/SS/SL/SA cannot be empty'],
      [{ Id: ' ', SP: 1.5 }, 401, 'device ID cannot be empty'],
      [{ Id: 'OC-NONE', SP: 1.5 }, 40400, 'not found'],
    ] as const;
    for (const [body, code, message] of refusals) {
      await expect(http.post(DEVICE_COMMANDS.changeSettings, body), message).rejects.toMatchObject({ code, message });
    }
    const client = await mockSession('client');
    await expect(client.http.post(DEVICE_COMMANDS.changeSettings, { Id: 'Id-002', SP: 1.5 })).rejects.toMatchObject({ code: 40300 });
    // A refused call sends nothing.
    expect((await read('admin', '')).range).toBe(before);
  });

  it("change_settings refuses an SP above the device type's rating with the server's code and words, and takes one exactly at it", async () => {
    const { http } = await mockSession('admin');
    const before = (await read('admin', '')).range;
    // A soft single-seat chamber: type 1, rated 1.3 ATA.
    const Id = String(seedTables(RESOURCE_CONFIGS).get('devices')?.find((device) => device.Type === 1)?.Id);
    const message = translate('en-US', 'device.setPointAboveRating', { field: 'SP', max: 1.3, type: 1, name: '单人软体舱' });
    await expect(http.post(DEVICE_COMMANDS.changeSettings, { Id, SP: 1.31, ST: 60 })).rejects.toMatchObject({ code: 40000, message });
    expect((await read('admin', '')).range).toBe(before);
    await expect(http.post<Answer>(DEVICE_COMMANDS.changeSettings, { Id, SP: 1.3 })).resolves.toMatchObject({ Id });
  });

  it('change_permission and change_state answer a cmdId too, each its own command', async () => {
    const { http } = await mockSession('user');
    const permission = await http.post<Answer>(DEVICE_COMMANDS.changePermission, { Id: 'Id-003', Permission: 'Close' });
    const state = await http.post<Answer>(DEVICE_COMMANDS.changeState, { Id: 'Id-003', State: 'Repair' });
    expect(permission).toMatchObject({ Id: 'Id-003', Permission: 'Close' });
    expect(state).toMatchObject({ Id: 'Id-003', State: 'Repair' });
    expect(permission.cmdId).not.toBe(state.cmdId);
    const Time = expect.any(Number);
    expect((await command(permission.cmdId)).command).toEqual({ cmdId: permission.cmdId, type: 'permission', Permission: 'Close', Time });
    expect((await command(state.cmdId)).command).toEqual({ cmdId: state.cmdId, type: 'state', State: 'Repair', Time });
    await expect(http.post(DEVICE_COMMANDS.changeState, { Id: 'Id-003', State: 'Broken' })).rejects.toMatchObject({
      code: 40000,
      message: 'State must be one of Work, Stop, Repair',
    });
  });

  it('the mocked chamber confirms a command MOCK_ACK_MS after it was sent', async () => {
    // Only Date is faked: the mocks work statuses out from the clock, and fetch keeps its real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    const { http } = await mockSession('admin');
    const { cmdId } = await http.post<Answer>(DEVICE_COMMANDS.changeSettings, { Id: 'Id-004', ST: 60 });
    const sent = await command(cmdId);
    expect(sent).toMatchObject({ status: 'sent', answeredAt: null });
    vi.setSystemTime(sent.issuedAt + MOCK_ACK_MS - 1);
    expect((await command(cmdId)).status).toBe('sent');
    vi.setSystemTime(sent.issuedAt + MOCK_ACK_MS);
    expect(await command(cmdId)).toMatchObject({ status: 'acked', error: null, answeredAt: sent.issuedAt + MOCK_ACK_MS });
  });

  it('GET device-commands lists in ra-data-simple-rest\'s shape, newest first; /:cmdId reads one; unknown ones are 404', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { http } = await mockSession('user');
    const ids: string[] = [];
    for (const State of ['Work', 'Stop', 'Repair'] as const) {
      vi.setSystemTime(Date.now() + 10);
      ids.push((await http.post<Answer>(DEVICE_COMMANDS.changeState, { Id: 'Id-005', State })).cmdId);
    }
    const elsewhere = (await http.post<Answer>(DEVICE_COMMANDS.changeState, { Id: 'Id-055', State: 'Work' })).cmdId;

    // The client manages Id-005, not Id-055: it reads the commands of its own chambers only, whoever sent them.
    const query = new URLSearchParams({ sort: '["issuedAt","DESC"]', range: '[0,1]', filter: JSON.stringify({ Id: ['Id-005', 'Id-055'] }) });
    const list = await read('client', `?${query.toString()}`);
    expect(list.status).toBe(200);
    expect(list.range).toBe('device-commands 0-1/3');
    expect((list.body as DeviceCommandRecord[]).map((record) => record.id)).toEqual([ids[2], ids[1]]);

    const first = { id: ids[0], Id: 'Id-005', type: 'state', actor: 'user', command: { State: 'Work' } };
    expect((await read('client', `/${ids[0] ?? ''}`)).body).toMatchObject(first);
    expect(await read('client', `/${elsewhere}`)).toMatchObject({ status: 404, body: { message: 'not found' } });
    expect((await read('user', `/${elsewhere}`)).status).toBe(200);
    expect(await read('admin', '/unknownCmd00000')).toMatchObject({ status: 404, body: { message: 'not found' } });
    expect((await read(undefined, '')).status).toBe(401);
  });
});
