import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyAck } from '../../server/commands/acks';
import { commandSweeperPlugin, timeOutUnanswered } from '../../server/commands/sweeper';
import { unlinked } from '../../server/mqtt/link';
import { commandOutcomeSchema, type LiveEvent } from '../../src/domain/live';
import { parseMessage } from '../../src/domain/mqtt/parse';
import { commandSchema } from '../../src/domain/mqtt/payloads';
import { topicFor } from '../../src/domain/mqtt/topics';
import { DEVICE_COMMANDS } from '../../src/resources/devices/config';
import type { DeviceCommandRecord } from '../../src/resources/devices/requests';
import type { WireRecord } from '../../src/resources/model';
import { fakeLog, liveEvents, recordingLink, storedCommands, type RecordingLink } from './device-command-fakes';
import { FLEET_ASSIGNMENTS, T0, type DemoName, useFleetApp } from './fleet';
import { call, envelope } from './http';
import { fakeClock, STORE_KINDS, useStore } from './stores';

/**
 * Commands to chambers (docs/commands.md): every console command becomes a `cmd`
 * message, its ack or its timeout becomes the command's outcome, with an audit entry and a live event,
 * and the outcome can be read back over REST.
 */

const TIMEOUT_MS = 10_000;

describe.each(STORE_KINDS)('device command outcomes (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const fleet = useFleetApp(store, clock.now);
  let link: RecordingLink;
  let events: LiveEvent[];

  beforeEach(async () => {
    clock.advance(1000);
    link = recordingLink();
    fleet.app.ctx.link = link;
    events = liveEvents(fleet.app);
    await store.context().db.deleteFrom('device_commands').execute();
  });

  const post = async (path: string, body: unknown, who: DemoName = 'admin') => {
    const response = await call(fleet.app, path, body, { token: fleet.tokens[who], lang: 'en-US' });
    return { http: response.statusCode, ...envelope<(WireRecord & { cmdId: string }) | null>(response) };
  };
  /** Issues a command and answers its id. */
  const issue = async (path: string, body: unknown, who: DemoName = 'admin'): Promise<string> => {
    const result = await post(path, body, who);
    expect(result.code, JSON.stringify(result)).toBe(20000);
    return String(result.data?.cmdId);
  };
  const get = (url: string, who: DemoName = 'admin'): Promise<LightMyRequestResponse> =>
    fleet.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${fleet.tokens[who]}`, 'accept-language': 'en-US' } });
  const commandRow = async (cmdId: string) =>
    store.context().db.selectFrom('device_commands').selectAll().where('cmd_id', '=', cmdId).executeTakeFirstOrThrow();
  const outcomeEntries = () =>
    store
      .context()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', 'in', ['device.commandAcked', 'device.commandRefused', 'device.commandTimedOut'])
      .orderBy('id')
      .execute();
  const commandEvents = () => events.flatMap((event) => (event.type === 'command' ? [event.data] : []));

  describe('sending', () => {
    it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
      ['change_permission', DEVICE_COMMANDS.changePermission, { Id: 'OC-A1' }, { type: 'permission', Permission: 'Close' }],
      ['change_permission with a value', DEVICE_COMMANDS.changePermission, { Id: 'OC-A1', Permission: 'Open' }, { type: 'permission', Permission: 'Open' }],
      ['change_state', DEVICE_COMMANDS.changeState, { Id: 'OC-A2', State: 'Repair' }, { type: 'state', State: 'Repair' }],
      ['change_settings', DEVICE_COMMANDS.changeSettings, { Id: 'OC-B1', SP: 1.5, SS: 'F', SA: 1 }, { type: 'settings', SP: 1.5, SS: 'F', SA: 1 }],
    ])('%s publishes one cmd message that the contract accepts, after recording it as sent', async (_name, path, body, expected) => {
      const Id = String(body.Id);
      const cmdId = await issue(path, body);
      expect(link.sent).toHaveLength(1);
      const [{ deviceId, command } = { deviceId: '', command: undefined }] = link.sent;
      expect(deviceId).toBe(Id);
      expect(commandSchema.parse(command)).toEqual({ ...expected, cmdId, Time: clock.now() });
      // What a device receives on its topic parses as a cmd message of that device.
      const parsed = parseMessage(topicFor(Id, 'cmd'), JSON.stringify(command), clock.now());
      expect(parsed).toMatchObject({ ok: true, deviceId: Id, kind: 'cmd', message: command });

      const row = await commandRow(cmdId);
      const admin = await store.context().db.selectFrom('accounts').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow();
      expect(row).toEqual({
        cmd_id: cmdId,
        device_id: Id,
        type: expected.type,
        payload: JSON.stringify(command),
        status: 'sent',
        error: null,
        issued_by: admin.id,
        issued_at: clock.now(),
        answered_at: null,
      });
      expect(commandEvents()).toEqual([{ cmdId, Id, type: expected.type, status: 'sent', at: clock.now() }]);
    });

    it('gives every command its own url-safe id', async () => {
      const ids = new Set<string>();
      for (let n = 0; n < 20; n += 1) ids.add(await issue(DEVICE_COMMANDS.changePermission, { Id: 'OC-C1' }));
      expect(ids.size).toBe(20);
      for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    });

    it('a refused call sends nothing and records no command', async () => {
      expect((await post(DEVICE_COMMANDS.changeSettings, { Id: 'OC-A1', SP: 9 })).code).toBe(40000);
      expect((await post(DEVICE_COMMANDS.changeSettings, { Id: 'OC-A1', SP: 1.5 }, 'second')).code).toBe(40300);
      expect((await post(DEVICE_COMMANDS.changeState, { Id: 'OC-C1', State: 'Work' }, 'first')).code).toBe(40400);
      expect(link.sent).toEqual([]);
      expect(await storedCommands(fleet.app)).toEqual([]);
      expect(events).toEqual([]);
    });
  });

  describe('acks', () => {
    it('ok: true → acked, with its audit entry (the issuer as actor) and a live event', async () => {
      const cmdId = await issue(DEVICE_COMMANDS.changeState, { Id: 'OC-A2', State: 'Work' }, 'second');
      clock.advance(800);
      await applyAck(fleet.app.ctx, 'OC-A2', { cmdId, ok: true });
      expect(await commandRow(cmdId)).toMatchObject({ status: 'acked', error: null, answered_at: clock.now() });
      const [entry, ...more] = await outcomeEntries();
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        at: clock.now(),
        actor_account: 'second',
        action: 'device.commandAcked',
        target_type: 'device',
        target_id: 'OC-A2',
        device_id: 'OC-A2',
        address: 'system',
      });
      expect(JSON.parse(entry?.before ?? 'null')).toEqual({ cmdId, status: 'sent' });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({ cmdId, type: 'state', status: 'acked' });
      const last = commandEvents().at(-1);
      expect(commandOutcomeSchema.parse(last)).toEqual({ cmdId, Id: 'OC-A2', type: 'state', status: 'acked', at: clock.now() });
    });

    it("ok: false → refused with the device's reason, audited and announced", async () => {
      const cmdId = await issue(DEVICE_COMMANDS.changeSettings, { Id: 'OC-A1', SP: 1.2 });
      await applyAck(fleet.app.ctx, 'OC-A1', { cmdId, ok: false, error: 'door open: settings locked' });
      expect(await commandRow(cmdId)).toMatchObject({ status: 'refused', error: 'door open: settings locked' });
      const [entry] = await outcomeEntries();
      expect(entry).toMatchObject({ action: 'device.commandRefused', actor_account: 'admin', device_id: 'OC-A1' });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({ cmdId, type: 'settings', status: 'refused', error: 'door open: settings locked' });
      expect(commandEvents().at(-1)).toEqual({ cmdId, Id: 'OC-A1', type: 'settings', status: 'refused', error: 'door open: settings locked', at: clock.now() });
      // A refusal without a reason is still a refusal.
      const silent = await issue(DEVICE_COMMANDS.changeSettings, { Id: 'OC-A1', SL: 0 });
      await applyAck(fleet.app.ctx, 'OC-A1', { cmdId: silent, ok: false });
      expect(await commandRow(silent)).toMatchObject({ status: 'refused', error: null });
    });

    it("an ack from another device, for an unknown command, or a second ack changes nothing and is logged", async () => {
      const cmdId = await issue(DEVICE_COMMANDS.changePermission, { Id: 'OC-A1' });
      const before = await commandRow(cmdId);
      const sentEvents = events.length;
      const log = fakeLog();
      await applyAck(fleet.app.ctx, 'OC-A2', { cmdId, ok: false, error: 'not mine' }, log);
      await applyAck(fleet.app.ctx, 'OC-A1', { cmdId: 'no-such-command', ok: true }, log);
      expect(await commandRow(cmdId)).toEqual(before);
      expect(await outcomeEntries()).toEqual([]);
      expect(events).toHaveLength(sentEvents);
      expect(log.warn.mock.calls.map(([details]: unknown[]) => (details as { reason: string }).reason)).toEqual([
        "another device's command",
        'unknown command',
      ]);

      await applyAck(fleet.app.ctx, 'OC-A1', { cmdId, ok: true }, log);
      await applyAck(fleet.app.ctx, 'OC-A1', { cmdId, ok: false, error: 'changed my mind' }, log);
      expect(await commandRow(cmdId)).toMatchObject({ status: 'acked', error: null });
      expect(await outcomeEntries()).toHaveLength(1);
      expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ cmdId, reason: 'command already acked' }), 'ack ignored');
    });
  });

  describe('timeouts', () => {
    it(`no ack within the timeout → timeout, audited and announced; an ack after it is ignored`, async () => {
      const early = await issue(DEVICE_COMMANDS.changePermission, { Id: 'OC-B1' }, 'first');
      clock.advance(4000);
      const late = await issue(DEVICE_COMMANDS.changeState, { Id: 'OC-B2', State: 'Stop' }, 'first');
      clock.advance(TIMEOUT_MS - 4000 - 1);
      expect(await timeOutUnanswered(fleet.app.ctx, clock.now(), TIMEOUT_MS)).toEqual([]);
      clock.advance(1);
      const outcomes = await timeOutUnanswered(fleet.app.ctx, clock.now(), TIMEOUT_MS);
      expect(outcomes).toEqual([{ cmdId: early, Id: 'OC-B1', type: 'permission', status: 'timeout', at: clock.now() }]);
      expect(await commandRow(early)).toMatchObject({ status: 'timeout', answered_at: clock.now() });
      expect(await commandRow(late)).toMatchObject({ status: 'sent' });
      const [entry] = await outcomeEntries();
      expect(entry).toMatchObject({ action: 'device.commandTimedOut', actor_account: 'first', device_id: 'OC-B1', address: 'system' });
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({ cmdId: early, type: 'permission', status: 'timeout', reason: 'noAnswer' });
      expect(commandEvents().at(-1)).toEqual(outcomes[0]);

      await applyAck(fleet.app.ctx, 'OC-B1', { cmdId: early, ok: true });
      expect(await commandRow(early)).toMatchObject({ status: 'timeout' });
      // The second one answers in time.
      await applyAck(fleet.app.ctx, 'OC-B2', { cmdId: late, ok: true });
      clock.advance(TIMEOUT_MS);
      expect(await timeOutUnanswered(fleet.app.ctx, clock.now(), TIMEOUT_MS)).toEqual([]);
      expect(await commandRow(late)).toMatchObject({ status: 'acked' });
    });

    it('the sweeper plugin times commands out on its own', async () => {
      const app = await store.app({ now: clock.now, setup: (instance) => void instance.register(commandSweeperPlugin, { timeoutSeconds: 2, intervalMs: 20 }) });
      app.ctx.link = recordingLink();
      const swept = liveEvents(app);
      const response = await call(app, DEVICE_COMMANDS.changePermission, { Id: 'OC-C2' }, { token: fleet.tokens.admin });
      const { cmdId } = envelope<{ cmdId: string }>(response).data;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await commandRow(cmdId)).toMatchObject({ status: 'sent' });
      clock.advance(2000);
      await expect.poll(async () => (await commandRow(cmdId)).status, { timeout: 5000 }).toBe('timeout');
      await expect.poll(() => swept.findLast((event) => event.type === 'command'), { timeout: 1000 }).toMatchObject({ type: 'command', data: { cmdId, status: 'timeout' } });
    });

    it('refuses a timeout or interval that is not a positive number', async () => {
      await expect(store.app({ setup: (instance) => void instance.register(commandSweeperPlugin, { timeoutSeconds: 0 }) })).rejects.toThrow(
        'timeoutSeconds must be a positive number',
      );
    });

    it.each([
      ['no broker is linked', unlinked],
      ['the publish fails', recordingLink(new Error('connection reset'))],
    ])('%s: the call still succeeds, and the command is recorded and times out at once (not delivered)', async (_case, broken) => {
      fleet.app.ctx.link = broken;
      const result = await post(DEVICE_COMMANDS.changeState, { Id: 'OC-C1', State: 'Repair' });
      expect(result).toMatchObject({ http: 200, code: 20000, data: { Id: 'OC-C1', State: 'Repair' } });
      const cmdId = String(result.data?.cmdId);
      expect(await commandRow(cmdId)).toMatchObject({ status: 'timeout', answered_at: clock.now(), device_id: 'OC-C1' });
      const [entry] = await outcomeEntries();
      expect(JSON.parse(entry?.after ?? 'null')).toEqual({ cmdId, type: 'state', status: 'timeout', reason: 'notDelivered' });
      expect(commandEvents().map((outcome) => outcome.status)).toEqual(['sent', 'timeout']);
    });
  });

  describe('GET /api/v1/device-commands', () => {
    it('answers one command by its cmdId, with the command as sent, and follows its outcome', async () => {
      const cmdId = await issue(DEVICE_COMMANDS.changeSettings, { Id: 'OC-A1', ST: 45 }, 'first');
      const sent = await get(`/api/v1/device-commands/${cmdId}`);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json<DeviceCommandRecord>()).toEqual({
        id: cmdId,
        Id: 'OC-A1',
        type: 'settings',
        status: 'sent',
        error: null,
        actor: 'first',
        issuedAt: clock.now(),
        answeredAt: null,
        command: { cmdId, type: 'settings', Time: clock.now(), ST: 45 },
      });
      clock.advance(500);
      await applyAck(fleet.app.ctx, 'OC-A1', { cmdId, ok: false, error: 'session running' });
      expect((await get(`/api/v1/device-commands/${cmdId}`, 'client')).json<DeviceCommandRecord>()).toMatchObject({
        status: 'refused',
        error: 'session running',
        answeredAt: clock.now(),
      });
    });

    it('a command of a device out of scope is answered exactly like one that does not exist', async () => {
      const inScope = await issue(DEVICE_COMMANDS.changePermission, { Id: 'OC-A1' });
      const outOfScope = await issue(DEVICE_COMMANDS.changePermission, { Id: 'OC-A2' });
      expect((await get(`/api/v1/device-commands/${inScope}`, 'client')).statusCode).toBe(200);
      const hidden = await get(`/api/v1/device-commands/${outOfScope}`, 'client');
      const missing = await get('/api/v1/device-commands/no-such-command', 'client');
      expect(hidden.statusCode).toBe(404);
      expect(hidden.body).toBe(missing.body);
      expect(missing.json()).toEqual({ message: 'not found', code: 40400 });
      const bad = await get('/api/v1/device-commands/not%20an%20id');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'id is invalid', code: 40000 });
    });

    it('lists, to each role, the commands of exactly the devices it sees, newest first, in the REST shape', async () => {
      const devices = ['OC-A1', 'OC-A2', 'OC-B1', 'OC-C1'];
      for (const Id of devices) {
        await issue(DEVICE_COMMANDS.changePermission, { Id });
        clock.advance(1000);
      }
      for (const who of ['admin', 'first', 'second', 'client'] as const) {
        const response = await get('/api/v1/device-commands?range=[0,9]', who);
        expect(response.statusCode, response.body).toBe(200);
        const seen = who === 'admin' ? devices : devices.filter((Id) => FLEET_ASSIGNMENTS[who]?.includes(Id));
        const records = response.json<DeviceCommandRecord[]>();
        expect(records.map((record) => record.Id)).toEqual([...seen].reverse());
        expect(response.headers['content-range']).toBe(`device-commands 0-${seen.length - 1}/${seen.length}`);
      }
      const filtered = await get(`/api/v1/device-commands?filter=${encodeURIComponent(JSON.stringify({ Id: 'OC-B1', status: 'sent' }))}`, 'first');
      expect(filtered.json<DeviceCommandRecord[]>().map((record) => record.Id)).toEqual(['OC-B1']);
      const refused = await get(`/api/v1/device-commands?filter=${encodeURIComponent(JSON.stringify({ payload: 'x' }))}`);
      expect(refused.json()).toEqual({ message: 'unknown field: filter.payload', code: 40000 });
    });

    it('is for signed-in callers only', async () => {
      const response = await fleet.app.inject({ method: 'GET', url: '/api/v1/device-commands' });
      expect(response.statusCode).toBe(401);
    });
  });
});
