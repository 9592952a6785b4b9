import { beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { DEVICE_COMMANDS, devicesConfig } from '../../src/resources/devices/config';
import type { WireRecord } from '../../src/resources/model';
import type { ListAnswer } from '../../src/resources/query';
import { recordSchema } from '../../src/resources/schema';
import { recordingLink, storedCommands } from './device-command-fakes';
import { call, envelope } from './http';
import { FLEET_ASSIGNMENTS, snapshot, T0, type DemoName, useFleetApp } from './fleet';
import { fakeClock, STORE_KINDS, useStore } from './stores';

const PERMISSION = DEVICE_COMMANDS.changePermission;
const STATE = DEVICE_COMMANDS.changeState;
const SETTINGS = DEVICE_COMMANDS.changeSettings;
const LIST = '/list/get_OCProperty';
const ROLES: readonly DemoName[] = ['admin', 'first', 'second', 'client'];

describe('the device command paths', () => {
  it('are the ones the console posts to', () => {
    expect(PERMISSION).toBe('/order/change_permission');
    expect(STATE).toBe('/order/change_state');
    expect(SETTINGS).toBe('/order/change_settings');
  });
});

describe.each(STORE_KINDS)('device commands (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const fleet = useFleetApp(store, clock.now);
  beforeEach(async () => {
    clock.advance(1000);
    // A broker that takes every command (their outcomes are device-command-outcomes.spec.ts's business).
    fleet.app.ctx.link = recordingLink();
    await store.context().db.deleteFrom('device_commands').execute();
  });

  const post = async (path: string, body: unknown, who: DemoName | null = 'admin', lang = 'en-US', address?: string) => {
    const response = await call(fleet.app, path, body, { ...(who === null ? {} : { token: fleet.tokens[who] }), lang, ...(address ? { address } : {}) });
    return { http: response.statusCode, ...envelope<WireRecord | null>(response) };
  };
  /** The device of a command's answer, without the command's id. */
  const deviceOf = (data: WireRecord | null): WireRecord => {
    const { cmdId: _cmdId, ...device } = data ?? {};
    return device;
  };
  const listed = async (id: string, who: DemoName = 'admin'): Promise<WireRecord | undefined> => {
    const response = await call(fleet.app, LIST, { filter: { Id: [id] } }, { token: fleet.tokens[who] });
    return envelope<ListAnswer>(response).data.list[0];
  };
  /** The device entries of the audit trail (sign-ins are audited too). */
  const deviceEntries = () =>
    store.context().db.selectFrom('audit_log').selectAll().where('target_type', '=', 'device').orderBy('id').execute();
  /** Runs `refused` and checks that no data table changed and no device entry or command was written. */
  const unchanged = async <T>(refused: () => Promise<T>): Promise<T> => {
    const before = await snapshot(store.context());
    const entries = await deviceEntries();
    const commands = await storedCommands(fleet.app);
    const result = await refused();
    expect(await snapshot(store.context())).toBe(before);
    expect(await deviceEntries()).toEqual(entries);
    expect(await storedCommands(fleet.app)).toEqual(commands);
    return result;
  };
  const accountId = async (account: string) =>
    (await store.context().db.selectFrom('accounts').select('id').where('account', '=', account).executeTakeFirstOrThrow()).id;

  describe('change_permission', () => {
    it.each(['admin', 'first', 'second'] as const)('%s toggles a device in its scope and gets the device as the list shows it', async (who) => {
      const before = await listed('OC-A1', who);
      expect(before).toMatchObject({ Permission: 'Open' });
      const result = await post(PERMISSION, { Id: 'OC-A1' }, who);
      expect(result).toMatchObject({ http: 200, status: 'ok', code: CODES.ok, msg: 'success' });
      expect(result.data).toEqual({ ...before, Permission: 'Close', UpdateTime: clock.now(), cmdId: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
      expect(recordSchema(devicesConfig).strict().safeParse(deviceOf(result.data)).success).toBe(true);
      expect(await listed('OC-A1', who)).toEqual(deviceOf(result.data));
      // And back.
      expect((await post(PERMISSION, { Id: 'OC-A1' }, who)).data).toMatchObject({ Permission: 'Open' });
    });

    it('sets the given permission, whatever it was (no race between two clicks)', async () => {
      expect((await post(PERMISSION, { Id: 'OC-A1', Permission: 'Open' })).data).toMatchObject({ Permission: 'Open' });
      expect((await post(PERMISSION, { Id: 'OC-A1', Permission: 'Close' })).data).toMatchObject({ Permission: 'Close' });
      expect((await post(PERMISSION, { Id: 'OC-A1', Permission: 'Close' })).data).toMatchObject({ Permission: 'Close' });
      expect((await post(PERMISSION, { Id: ' OC-A2 ', Permission: 'Open' })).data).toMatchObject({ Id: 'OC-A2', Permission: 'Open' });
    });

    it('records device.changePermission with the permission before and after, the actor and its address', async () => {
      await post(PERMISSION, { Id: 'OC-A2' }, 'second', 'en-US', '203.0.113.5');
      const entries = await deviceEntries();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        at: clock.now(),
        actor_id: await accountId('second'),
        actor_account: 'second',
        action: 'device.changePermission',
        target_type: 'device',
        target_id: 'OC-A2',
        device_id: 'OC-A2',
        address: '203.0.113.5',
      });
      expect(JSON.parse(entries[0]?.before ?? 'null')).toEqual({ Permission: 'Close' });
      const [command] = await storedCommands(fleet.app);
      expect(JSON.parse(entries[0]?.after ?? 'null')).toEqual({ Permission: 'Open', cmdId: command?.cmd_id });
    });

    it('concurrent toggles serialise: an even number ends where it began, each entry sees the previous one', async () => {
      const results = await Promise.all(Array.from({ length: 4 }, () => post(PERMISSION, { Id: 'OC-B1' })));
      expect(results.every((result) => result.code === CODES.ok)).toBe(true);
      expect(await listed('OC-B1')).toMatchObject({ Permission: 'Open' });
      const entries = await deviceEntries();
      const steps = entries.map((entry) => [JSON.parse(entry.before ?? 'null'), JSON.parse(entry.after ?? 'null')] as const);
      expect(steps.map(([before]) => (before as { Permission: string }).Permission)).toEqual(['Open', 'Close', 'Open', 'Close']);
      for (const [before, after] of steps) expect(before).not.toEqual(after);
    });
  });

  describe('change_state', () => {
    it.each(['admin', 'first', 'second'] as const)('%s sets each state of a device in its scope', async (who) => {
      for (const State of ['Repair', 'Work', 'Stop'] as const) {
        const before = await listed('OC-A2', who);
        const result = await post(STATE, { Id: 'OC-A2', State }, who);
        expect(result).toMatchObject({ http: 200, code: CODES.ok });
        expect(result.data).toEqual({ ...before, State, UpdateTime: clock.now(), cmdId: expect.any(String) });
        expect(await listed('OC-A2', who)).toEqual(deviceOf(result.data));
        clock.advance(1000);
      }
    });

    it('records device.changeState with the state before and after', async () => {
      const result = await post(STATE, { Id: 'OC-B2', State: 'Work' }, 'first');
      const entries = await deviceEntries();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action: 'device.changeState', actor_account: 'first', target_id: 'OC-B2', device_id: 'OC-B2' });
      expect(JSON.parse(entries[0]?.before ?? 'null')).toEqual({ State: 'Repair' });
      expect(JSON.parse(entries[0]?.after ?? 'null')).toEqual({ State: 'Work', cmdId: result.data?.cmdId });
    });

    it.each<[string, unknown, string]>([
      ['an unknown State', { Id: 'OC-A1', State: 'Broken' }, 'State must be one of Work, Stop, Repair'],
      ['a State in lower case', { Id: 'OC-A1', State: 'work' }, 'State must be one of Work, Stop, Repair'],
      ['no State', { Id: 'OC-A1' }, 'State must be one of Work, Stop, Repair'],
      ['a State that is not text', { Id: 'OC-A1', State: 1 }, 'State must be one of Work, Stop, Repair'],
      ['an unknown field', { Id: 'OC-A1', State: 'Work', Permission: 'Open' }, 'unknown field: Permission'],
      ['an Id with a space', { Id: 'OC A1', State: 'Work' }, 'Id is invalid'],
      ['an Id that is not text', { Id: 7, State: 'Work' }, 'Id must be a string'],
    ])('%s is 40000 naming the field, nothing written', async (_case, body, msg) => {
      const result = await unchanged(() => post(STATE, body));
      expect(result).toEqual({ http: 400, data: null, status: 'fail', code: CODES.badInput, msg });
    });

    it('names the bad State in Chinese too', async () => {
      const result = await unchanged(() => post(STATE, { Id: 'OC-A1', State: 'Broken' }, 'admin', 'zh-CN'));
      expect(result).toMatchObject({ code: CODES.badInput, msg: 'State 必须是以下之一：Work, Stop, Repair' });
    });
  });

  describe.each([
    ['change_permission', PERMISSION, {}],
    ['change_state', STATE, { State: 'Stop' }],
  ] as const)('%s, refusals', (_name, path, extra) => {
    it('a client is refused with 40300, even for its own device, before the body is read; nothing written', async () => {
      expect(FLEET_ASSIGNMENTS.client).toContain('OC-A1');
      for (const body of [{ Id: 'OC-A1', ...extra }, { Id: '' }, { nonsense: true }]) {
        const result = await unchanged(() => post(path, body, 'client'));
        expect(result).toEqual({ http: 403, data: null, status: 'fail', code: CODES.forbidden, msg: 'access denied' });
      }
    });

    it('signed out is 50008 before the body is read; nothing written', async () => {
      for (const body of [{ Id: 'OC-A1', ...extra }, { Id: '' }]) {
        const result = await unchanged(() => post(path, body, null));
        expect(result).toEqual({ http: 401, data: null, status: 'fail', code: CODES.notSignedIn, msg: 'not logged in' });
      }
    });

    it.each(['first', 'second'] as const)(
      '%s: a device out of scope is answered exactly like one that does not exist (40400), nothing written',
      async (who) => {
        const outside = (['OC-C1', 'OC-B1'] as const).find((id) => !FLEET_ASSIGNMENTS[who]?.includes(id)) ?? 'OC-C1';
        const outOfScope = await unchanged(() => post(path, { Id: outside, ...extra }, who));
        const missing = await unchanged(() => post(path, { Id: 'OC-Z9', ...extra }, who));
        expect(outOfScope).toEqual({ http: 404, data: null, status: 'fail', code: CODES.notFound, msg: 'not found' });
        expect(missing).toEqual(outOfScope);
        // The admin sees every device: only the unknown one is "not found".
        expect(await unchanged(() => post(path, { Id: 'OC-Z9', ...extra }, 'admin'))).toEqual(outOfScope);
      },
    );

    it.each<[string, unknown]>([
      ['an empty Id', { Id: '', ...extra }],
      ['a blank Id', { Id: '   ', ...extra }],
      ['a null Id', { Id: null, ...extra }],
      ['no Id', { ...extra }],
      ['no Id and other faults', { State: 'Broken', extra: 1 }],
      ['no body', undefined],
    ])("%s is code 401 'device ID cannot be empty', nothing written", async (_case, body) => {
      for (const who of ['admin', 'second'] as const) {
        const result = await unchanged(() => post(path, body, who));
        expect(result).toEqual({ http: 400, data: null, status: 'fail', code: CODES.emptyDeviceId, msg: 'device ID cannot be empty' });
      }
      expect(await post(path, body, 'admin', 'zh-CN')).toMatchObject({ code: CODES.emptyDeviceId, msg: '设备ID不能为空' });
    });
  });

  describe('change_settings', () => {
    it.each(['admin', 'first'] as const)('%s asks a device in its scope for new settings and gets the device as the list shows it', async (who) => {
      const before = await listed('OC-A2', who);
      const result = await post(SETTINGS, { Id: 'OC-A2', SP: 1.5, ST: 60, SS: 'S', SL: 1, SA: 0 }, who);
      expect(result).toMatchObject({ http: 200, status: 'ok', code: CODES.ok, msg: 'success' });
      // The server keeps no settings: only the update time changes; the chamber's telemetry will report them.
      expect(result.data).toEqual({ ...before, UpdateTime: clock.now(), cmdId: expect.any(String) });
      expect(await listed('OC-A2', who)).toEqual(deviceOf(result.data));
    });

    it('records device.changeSettings: the values last reported before (null when never reported), those asked for after', async () => {
      await store.context().db.updateTable('devices').set({ latest: JSON.stringify({ Id: 'OC-B1', Time: T0, SP: 1.3, SS: 'M', RCP: 1.28 }) }).where('id', '=', 'OC-B1').execute();
      const result = await post(SETTINGS, { Id: 'OC-B1', SP: 1.5, ST: 90 }, 'first', 'en-US', '203.0.113.7');
      const entries = await deviceEntries();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        at: clock.now(),
        actor_account: 'first',
        action: 'device.changeSettings',
        target_type: 'device',
        target_id: 'OC-B1',
        device_id: 'OC-B1',
        address: '203.0.113.7',
      });
      expect(JSON.parse(entries[0]?.before ?? 'null')).toEqual({ SP: 1.3, ST: null });
      expect(JSON.parse(entries[0]?.after ?? 'null')).toEqual({ SP: 1.5, ST: 90, cmdId: result.data?.cmdId });
    });

    it.each<[string, unknown, string]>([
      ['no setting at all', { Id: 'OC-A1' }, 'SP/ST/SS/SL/SA cannot be empty'],
      ['SP below 1 ATA', { Id: 'OC-A1', SP: 0.5 }, 'SP must be at least 1'],
      ['SP above 3 ATA', { Id: 'OC-A1', SP: 3.01 }, 'SP must be at most 3'],
      ['SP as text', { Id: 'OC-A1', SP: '1.5' }, 'SP must be a number'],
      ['ST negative', { Id: 'OC-A1', ST: -1 }, 'ST must be at least 0'],
      ['ST above 240 minutes', { Id: 'OC-A1', ST: 241 }, 'ST must be at most 240'],
      ['ST not whole', { Id: 'OC-A1', ST: 1.5 }, 'ST must be a whole number'],
      ['an unknown speed', { Id: 'OC-A1', SS: 'X' }, 'SS must be one of F, M, S'],
      ['a speed in lower case', { Id: 'OC-A1', SS: 'f' }, 'SS must be one of F, M, S'],
      ['a light of 2', { Id: 'OC-A1', SL: 2 }, 'SL must be one of 0, 1'],
      ['an atmosphere light as text', { Id: 'OC-A1', SA: '1' }, 'SA must be one of 0, 1'],
      ['a good setting beside a bad one', { Id: 'OC-A1', SP: 1.5, SL: true }, 'SL must be one of 0, 1'],
      ['a reading, not a setting', { Id: 'OC-A1', SP: 1.5, RCP: 1.2 }, 'unknown field: RCP'],
    ])('%s is 40000 naming the field, nothing written', async (_case, body, msg) => {
      const result = await unchanged(() => post(SETTINGS, body));
      expect(result).toEqual({ http: 400, data: null, status: 'fail', code: CODES.badInput, msg });
    });

    it('names the bad setting in Chinese too', async () => {
      expect(await unchanged(() => post(SETTINGS, { Id: 'OC-A1', ST: 300 }, 'admin', 'zh-CN'))).toMatchObject({ code: CODES.badInput, msg: 'ST 不能大于 240' });
      expect(await unchanged(() => post(SETTINGS, { Id: 'OC-A1' }, 'admin', 'zh-CN'))).toMatchObject({ code: CODES.badInput, msg: 'SP/ST/SS/SL/SA 不能为空' });
    });

    it.each(['second', 'client'] as const)('%s may not change settings (docs/product.md: admin and user only): 40300 before the body is read', async (who) => {
      for (const body of [{ Id: 'OC-A1', SP: 1.5 }, { Id: '' }, { nonsense: true }]) {
        const result = await unchanged(() => post(SETTINGS, body, who));
        expect(result).toEqual({ http: 403, data: null, status: 'fail', code: CODES.forbidden, msg: 'access denied' });
      }
    });

    it('a device out of scope is answered exactly like one that does not exist (40400); an empty Id is code 401', async () => {
      const outOfScope = await unchanged(() => post(SETTINGS, { Id: 'OC-C1', SP: 1.5 }, 'first'));
      expect(outOfScope).toEqual({ http: 404, data: null, status: 'fail', code: CODES.notFound, msg: 'not found' });
      expect(await unchanged(() => post(SETTINGS, { Id: 'OC-Z9', SP: 1.5 }, 'first'))).toEqual(outOfScope);
      for (const body of [{ Id: '', SP: 1.5 }, { SP: 9 }, undefined]) {
        expect(await unchanged(() => post(SETTINGS, body))).toEqual({ http: 400, data: null, status: 'fail', code: CODES.emptyDeviceId, msg: 'device ID cannot be empty' });
      }
    });
  });

  it('every role: allowed on its devices exactly when the policy says so', async () => {
    for (const who of ROLES) {
      const result = await post(PERMISSION, { Id: 'OC-A1' }, who);
      expect(result.code, who).toBe(who === 'client' ? CODES.forbidden : CODES.ok);
      const state = await post(STATE, { Id: 'OC-A1', State: 'Work' }, who);
      expect(state.code, who).toBe(who === 'client' ? CODES.forbidden : CODES.ok);
    }
    expect((await deviceEntries()).map((entry) => entry.actor_account)).toEqual(['admin', 'admin', 'first', 'first', 'second', 'second']);
  });
});
