import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { commandSweeperPlugin } from '../../server/commands/sweeper';
import { newServerCredentials } from '../../server/mqtt/config';
import type { LiveEvent } from '../../src/domain/live';
import { commandSchema, lastWillFor, type Command } from '../../src/domain/mqtt/payloads';
import { topicFor } from '../../src/domain/mqtt/topics';
import type { DeviceCommandRecord } from '../../src/resources/devices/requests';
import { DEVICE_COMMANDS } from '../../src/resources/devices/config';
import { demoTokens, seedFleet, type DemoName } from './fleet';
import { call, envelope } from './http';
import { STORE_KINDS, useStore } from './stores';

/**
 * Commands end to end on the embedded broker (port 0): a chamber registered through the REST API connects
 * with mqtt.js and its own credentials, subscribes to its cmd topic and answers each command on its ack
 * topic; the console's call, the server's ingestion (applyAck) and the read-back meet in the middle.
 */

const SERVER = newServerCredentials();
const CHAMBER = 'OC-M1';

describe.each(STORE_KINDS)('device commands over MQTT (%s)', (kind) => {
  const store = useStore(kind);
  const apps: FastifyInstance[] = [];
  const clients: MqttClient[] = [];
  /** The chamber's acks in flight: the test may end before their PUBACK is back. */
  const acks: Promise<unknown>[] = [];
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;
  let live: LiveEvent[];

  beforeEach(async () => {
    await store.wipe();
    await store.database.db.deleteFrom('device_commands').execute();
    await seedFleet(store.context());
    app = buildApp({ config: store.config({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' }), logger: false, mqtt: { serverCredentials: SERVER } });
    apps.push(app);
    void app.register(commandSweeperPlugin, { timeoutSeconds: 1, intervalMs: 100 });
    await app.ready();
    tokens = await demoTokens(app);
    live = [];
    app.ctx.live.subscribe((event) => live.push(event));
  });

  afterEach(async () => {
    await Promise.allSettled(acks.splice(0));
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    await Promise.all(apps.splice(0).map((instance) => instance.close()));
  });

  /** Registers the chamber (its secret comes once, in the answer) and connects it, listening for commands. */
  const chamber = async (answer: (command: Command) => { ok: boolean; error?: string } | undefined) => {
    const registered = await app.inject({
      method: 'POST',
      url: '/api/v1/devices',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ Id: CHAMBER, name: 'MQTT One', Type: 1, Location: 'Bench' }),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { secret } = registered.json<{ secret: string }>();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${app.mqtt.port ?? 0}`, {
      username: CHAMBER,
      password: secret,
      clientId: CHAMBER,
      reconnectPeriod: 0,
      will: { ...lastWillFor(CHAMBER), payload: Buffer.from('offline') },
    });
    clients.push(client);
    const received: Command[] = [];
    client.on('message', (_topic, payload) => {
      const command = commandSchema.parse(JSON.parse(payload.toString()));
      received.push(command);
      const ack = answer(command);
      if (ack !== undefined) acks.push(client.publishAsync(topicFor(CHAMBER, 'ack'), JSON.stringify({ cmdId: command.cmdId, ...ack }), { qos: 1 }));
    });
    await client.subscribeAsync(topicFor(CHAMBER, 'cmd'), { qos: 1 });
    return received;
  };

  const issue = async (path: string, body: unknown): Promise<string> => {
    const result = envelope<{ cmdId: string }>(await call(app, path, body, { token: tokens.admin }));
    expect(result.code, JSON.stringify(result)).toBe(20000);
    return result.data.cmdId;
  };

  /** The command as the console polls it, once its status is final. */
  const outcome = async (cmdId: string): Promise<DeviceCommandRecord> => {
    const read = async () =>
      (await app.inject({ method: 'GET', url: `/api/v1/device-commands/${cmdId}`, headers: { authorization: `Bearer ${tokens.admin}` } })).json<DeviceCommandRecord>();
    await expect.poll(async () => (await read()).status, { timeout: 5000, interval: 50 }).not.toBe('sent');
    return read();
  };

  it('a chamber receives the command and acknowledges it: acked, audited, announced', async () => {
    const received = await chamber(() => ({ ok: true }));
    const cmdId = await issue(DEVICE_COMMANDS.changeState, { Id: CHAMBER, State: 'Work' });
    expect(await outcome(cmdId)).toMatchObject({ id: cmdId, Id: CHAMBER, type: 'state', status: 'acked', error: null, actor: 'admin' });
    expect(received).toEqual([expect.objectContaining({ cmdId, type: 'state', State: 'Work' })]);
    const entry = await store.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'device.commandAcked').executeTakeFirst();
    expect(entry).toMatchObject({ device_id: CHAMBER, actor_account: 'admin' });
    await expect.poll(() => live.some((event) => event.type === 'command' && event.data.cmdId === cmdId && event.data.status === 'acked')).toBe(true);
  });

  it("a chamber refuses settings: refused with the chamber's reason", async () => {
    await chamber((command) => (command.type === 'settings' ? { ok: false, error: 'door open: settings locked' } : { ok: true }));
    const cmdId = await issue(DEVICE_COMMANDS.changeSettings, { Id: CHAMBER, SP: 1.2, SS: 'S' });
    expect(await outcome(cmdId)).toMatchObject({ status: 'refused', error: 'door open: settings locked', command: { type: 'settings', SP: 1.2, SS: 'S' } });
  });

  it('a chamber that never answers: timeout once the timeout has passed', async () => {
    const received = await chamber(() => undefined);
    const cmdId = await issue(DEVICE_COMMANDS.changePermission, { Id: CHAMBER });
    expect(await outcome(cmdId)).toMatchObject({ status: 'timeout' });
    expect(received.map((command) => command.cmdId)).toEqual([cmdId]);
  });
});
