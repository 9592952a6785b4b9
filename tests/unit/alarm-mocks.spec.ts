import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/node';
import { seedTables } from '../../mocks/seed';
import { OPEN_ALARM_STATES } from '../../src/domain/alarms/open';
import { alarmRecordSchema } from '../../src/domain/alarms/record';
import { ALARM_STATES, DEFAULT_ALARM_RULES, DEVICE_TYPES } from '../../src/domain/alarms/rules';
import { createDataProvider } from '../../src/providers/dataProvider';
import { RESOURCE_CONFIGS } from '../../src/resources/configs';
import { recordSchema } from '../../src/resources/schema';
import { mockSession, REST, UPSTREAM } from './resources/fixtures';

/** The mocked alarms (`npm run dev:mock`) answer as the server does: the same list meaning, actions, rights and history. */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const provider = async (account = 'admin') => {
  const { http, tokens } = await mockSession(account, 'en-US');
  return createDataProvider({ http, tokens, restBase: REST, resources: RESOURCE_CONFIGS });
};

const tables = seedTables(RESOURCE_CONFIGS);
const config = (name: string) => RESOURCE_CONFIGS.find((candidate) => candidate.name === name);

describe('seeded alarms and rules', () => {
  it('holds a handful of alarms in every state, each an alarm as the server answers it, on seeded chambers', () => {
    const alarms = tables.get('alarms') ?? [];
    const devices = new Set(tables.get('devices')?.map((device) => device.Id));
    expect(new Set(alarms.map((alarm) => alarm.state))).toEqual(new Set(ALARM_STATES));
    for (const alarm of alarms) {
      expect(alarmRecordSchema.safeParse(alarm).error).toBeUndefined();
      expect(devices.has(alarm.deviceId)).toBe(true);
    }
  });

  it('holds every device type’s copy of the default rules, within the rules’ limits', () => {
    const rules = tables.get('alarm-rules') ?? [];
    expect(rules).toHaveLength(DEVICE_TYPES.length * DEFAULT_ALARM_RULES.length);
    const rulesConfig = config('alarm-rules');
    for (const rule of rules) expect(rulesConfig && recordSchema(rulesConfig).strict().safeParse(rule).error).toBeUndefined();
  });
});

describe('mocked alarm calls', () => {
  it('lists with the server’s query meaning: the open states, newest first, and one device', async () => {
    const dataProvider = await provider();
    const open = await dataProvider.getList('alarms', {
      filter: { state: OPEN_ALARM_STATES },
      sort: { field: 'raisedAt', order: 'DESC' },
      pagination: { page: 1, perPage: 10 },
    });
    expect(open.data.map((alarm) => alarm.state)).not.toContain('closed');
    expect(open.data.map((alarm) => alarm.raisedAt)).toEqual(open.data.map((alarm) => alarm.raisedAt).sort((a, b) => b - a));
    const [first] = open.data;
    const ofDevice = await dataProvider.getList('alarms', { filter: { deviceId: first?.deviceId }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 10 } });
    expect(ofDevice.data.length).toBeGreaterThan(0);
    expect(ofDevice.data.every((alarm) => alarm.deviceId === first?.deviceId)).toBe(true);
    expect(await dataProvider.openAlarms()).toHaveLength(open.total ?? -1);
  });

  it('shelves, unshelves and acknowledges by the state machine, each a transition by the account', async () => {
    const dataProvider = await provider('user');
    const shelved = await dataProvider.alarmAction(1, 'shelve', { minutes: 30, reason: 'calibrating' });
    expect(shelved).toMatchObject({ id: 1, state: 'shelved', comment: 'calibrating', shelvedUntil: expect.any(Number) });
    // Its condition still stands: unshelved, it is active and unacknowledged again.
    expect(await dataProvider.alarmAction(1, 'unshelve', {})).toMatchObject({ state: 'active-unacked', shelvedUntil: null });
    expect(await dataProvider.alarmAction(1, 'ack', { comment: 'seen' })).toMatchObject({ state: 'active-acked', ackedBy: 'user', comment: 'seen' });
    const history = await dataProvider.alarmHistory(1);
    expect(history.map(({ from, to, actor }) => [from, to, actor])).toEqual([
      [null, 'active-unacked', 'system'],
      ['active-unacked', 'shelved', 'user'],
      ['shelved', 'active-unacked', 'user'],
      ['active-unacked', 'active-acked', 'user'],
    ]);
    expect(history[1]?.comment).toBe('calibrating');
  });

  it('refuses what the state does not allow naming the alarm, bad bodies naming the field, and what the role may not', async () => {
    const admin = await provider();
    const closed = (tables.get('alarms') ?? []).find((alarm) => alarm.state === 'closed');
    await expect(admin.alarmAction(Number(closed?.id), 'ack', {})).rejects.toMatchObject({ status: 400, message: `alarm ${String(closed?.id)} cannot be acknowledged in its present state` });
    await expect(admin.alarmAction(2, 'shelve', { minutes: 61, reason: 'x' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^minutes/) });
    await expect(admin.alarmAction(2, 'close', { reason: ' ' } as never)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^reason/) });
    const client = await provider('client');
    await expect(client.alarmAction(2, 'shelve', { minutes: 10, reason: 'x' })).rejects.toMatchObject({ status: 403 });
    await expect(client.alarmAction(2, 'close', { reason: 'x' })).rejects.toMatchObject({ status: 403 });
    // A client acknowledges: the seeded alarm 6 (the emergency) is active and unacknowledged.
    await expect(client.alarmAction(6, 'ack', {})).resolves.toMatchObject({ state: 'active-acked', ackedBy: 'client' });
  });

  it('edits a rule for the admin only, with only the form’s fields, a left-out limit none, and stamps its time', async () => {
    const admin = await provider();
    const { data: before } = await admin.getOne('alarm-rules', { id: 1 });
    const { data: after } = await admin.update('alarm-rules', { id: 1, data: { ...before, above: 22.8, highAbove: null, onDelayS: 5 }, previousData: before });
    expect(after).toMatchObject({ id: 1, deviceType: before.deviceType, kind: before.kind, above: 22.8, highAbove: null, onDelayS: 5 });
    expect(after.updatedAt).toBeGreaterThan(before.updatedAt);
    await expect(admin.update('alarm-rules', { id: 1, data: { ...before, onDelayS: 3601 }, previousData: before })).rejects.toMatchObject({ status: 400 });
    // The sessions share the browser's one token: signing in as the user ends the admin's here.
    const user = await provider('user');
    await expect(user.update('alarm-rules', { id: 1, data: before, previousData: before })).rejects.toMatchObject({ status: 403 });
  });
});
