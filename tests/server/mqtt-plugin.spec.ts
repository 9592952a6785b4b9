import { createServer, type Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveTopicFor, type LiveEvent } from '../../src/domain/live';
import { lastWillFor } from '../../src/domain/mqtt/payloads';
import { topicFor } from '../../src/domain/mqtt/topics';
import { buildApp, type MqttOptions } from '../../server/app';
import { hashDeviceSecret, newDeviceSecret } from '../../server/devices/registry';
import { newServerCredentials } from '../../server/mqtt/config';
import type { MqttStatus } from '../../server/mqtt/plugin';
import type { Env } from '../../server/config';
import { capturedLog } from './captured-log';
import { demoTokens, seedFleet, T0 } from './fleet';
import { useStore } from './stores';

/**
 * The MQTT plugin on the embedded broker (port 0), with the real ingestion over SQLite and real mqtt.js
 * devices: a reading is stored before the device gets its PUBACK; commands and the live relay go through
 * the broker; rotating or removing a device ends its connection; closing the app writes what ingestion
 * holds before the store closes.
 */

const SECRET = newDeviceSecret();
const SERVER = newServerCredentials();
/** Readings after the fleet's own (T0 … T0 + 4 min). */
const AT = T0 + 30 * 60_000;

describe('MQTT plugin, embedded broker', () => {
  const store = useStore('sqlite');
  const apps: FastifyInstance[] = [];
  const clients: MqttClient[] = [];

  const mqttApp = async (env: Env = {}, options: MqttOptions = {}): Promise<FastifyInstance> => {
    const app = buildApp({
      config: store.config({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', ...env }),
      logger: false,
      mqtt: { serverCredentials: SERVER, ...options },
    });
    apps.push(app);
    await app.ready();
    return app;
  };

  const connect = async (app: FastifyInstance, options: IClientOptions): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${app.mqtt.port ?? 0}`, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
    clients.push(client);
    return client;
  };

  const device = (app: FastifyInstance, id = 'OC-A1', password = SECRET) =>
    connect(app, { username: id, password, clientId: id, will: { ...lastWillFor(id), payload: Buffer.from('offline') } });

  const stored = async (deviceId: string, time: number): Promise<boolean> =>
    (await store.database.db.selectFrom('state_records').select('id').where('device_id', '=', deviceId).where('time', '=', time).executeTakeFirst()) !== undefined;

  /** /healthz as the super administrator reads it: the counters need an admin's token. */
  const health = async (app: FastifyInstance) => {
    const { admin } = await demoTokens(app);
    return (await app.inject({ method: 'GET', url: '/healthz', headers: { authorization: `Bearer ${admin}` } })).json<{ status: string; mqtt: MqttStatus }>();
  };

  const closed = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));
  const tick = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeEach(async () => {
    await store.wipe();
    await seedFleet(store.context());
    await store.database.db.updateTable('devices').set({ secret_hash: hashDeviceSecret(SECRET) }).where('id', 'in', ['OC-A1', 'OC-A2']).execute();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('stores a reading before the device gets its PUBACK, and /healthz counts it', async () => {
    const app = await mqttApp();
    const chamber = await device(app);
    await chamber.publishAsync(topicFor('OC-A1', 'telemetry'), JSON.stringify({ Time: AT, RCP: 1.28 }), { qos: 1 });
    // The PUBACK came: the reading is committed, as another connection sees it.
    expect(await stored('OC-A1', AT)).toBe(true);

    await expect(device(app, 'OC-A1', newDeviceSecret())).rejects.toMatchObject({ code: 4 });
    const { status, mqtt: state } = await health(app);
    expect(status).toBe('ok');
    expect(state).toMatchObject({
      broker: 'embedded',
      port: app.mqtt.port,
      clients: 1,
      pending: 0,
      refused: { badCredentials: 1, publishDenied: 0 },
      ingest: { received: 1, stored: 1, pending: 0 },
    });
  });

  it("publishes commands on the device's cmd topic (QoS 1, not retained) through ctx.link", async () => {
    const app = await mqttApp();
    const chamber = await device(app);
    await chamber.subscribeAsync(topicFor('OC-A1', 'cmd'), { qos: 1 });
    const received = new Promise<{ payload: string; qos: number; retain: boolean }>((resolve) =>
      chamber.once('message', (_topic, payload, packet) => resolve({ payload: payload.toString(), qos: packet.qos, retain: packet.retain })),
    );
    const command = { cmdId: 'c1', type: 'permission', Time: AT, Permission: 'Open' } as const;
    await app.ctx.link.sendCommand('OC-A1', command);
    expect(await received).toEqual({ payload: JSON.stringify(command), qos: 1, retain: false });
  });

  it("delivers live events to its own viewers directly, and on the broker only for cluster workers", async () => {
    const event: LiveEvent = { type: 'device', data: { Id: 'OC-A1', Online: true } };
    const watch = async (app: FastifyInstance) => {
      const watcher = await connect(app, { username: SERVER.username, password: SERVER.password, clientId: `${SERVER.username}.watcher` });
      await watcher.subscribeAsync('oxygen-live/+', { qos: 0 });
      const onBroker: string[] = [];
      watcher.on('message', (topic, payload) => onBroker.push(`${topic} ${payload.toString()}`));
      const delivered: LiveEvent[] = [];
      app.ctx.live.subscribe((one) => delivered.push(one));
      return { onBroker, delivered };
    };

    const single = await mqttApp();
    const alone = await watch(single);
    single.ctx.live.publish(event);
    expect(alone.delivered).toEqual([event]);
    await tick(200);
    expect(alone.onBroker).toEqual([]);

    const primary = await mqttApp({ WORKERS: '2' });
    const withWorkers = await watch(primary);
    primary.ctx.live.publish(event);
    expect(withWorkers.delivered).toEqual([event]);
    for (let wait = 0; wait < 40 && withWorkers.onBroker.length === 0; wait += 1) await tick(25);
    expect(withWorkers.onBroker).toEqual([`${liveTopicFor('OC-A1')} ${JSON.stringify(event)}`]);
  });

  it("a cluster worker gets live events from the broker (an account's on the account's topic), and refuses what is not one", async () => {
    const primary = await mqttApp({ WORKERS: '2' });
    const worker = await mqttApp({ WORKERS: '2' }, { primary: { port: primary.mqtt.port ?? 0, credentials: SERVER, clientId: `${SERVER.username}.w1` } });
    const delivered: LiveEvent[] = [];
    worker.ctx.live.subscribe((one) => delivered.push(one));
    const event: LiveEvent = { type: 'device', data: { Id: 'OC-A1', Online: true } };
    primary.ctx.live.publish(event);
    for (let wait = 0; wait < 40 && delivered.length === 0; wait += 1) await tick(25);
    expect(delivered).toEqual([event]);
    // An account's message notice travels on the account's topic.
    const notice: LiveEvent = { type: 'message', data: { account: 7, id: 3, type: 'message' } };
    primary.ctx.live.publish(notice);
    for (let wait = 0; wait < 40 && delivered.length === 1; wait += 1) await tick(25);
    expect(delivered).toEqual([event, notice]);

    // Not JSON, not a live event, for another device than its topic, or a notice on a device's topic: not delivered.
    const watcher = await connect(primary, { username: SERVER.username, password: SERVER.password, clientId: `${SERVER.username}.watcher` });
    await watcher.publishAsync(liveTopicFor('OC-A1'), 'nonsense', { qos: 0 });
    await watcher.publishAsync(liveTopicFor('OC-A1'), '{"type":"device","data":{"Id":"OC-A1","Mood":"good"}}', { qos: 0 });
    await watcher.publishAsync(liveTopicFor('OC-A2'), JSON.stringify(event), { qos: 0 });
    await watcher.publishAsync(liveTopicFor('OC-A1'), JSON.stringify(notice), { qos: 0 });
    await tick(200);
    expect(delivered).toEqual([event, notice]);
  });

  it('turns a device reading into a live patch for the viewers', async () => {
    const app = await mqttApp();
    const delivered: LiveEvent[] = [];
    app.ctx.live.subscribe((event) => delivered.push(event));
    const chamber = await device(app);
    await chamber.publishAsync(topicFor('OC-A1', 'telemetry'), JSON.stringify({ Time: AT, RCP: 1.31 }), { qos: 1 });
    for (let wait = 0; wait < 40 && delivered.length === 0; wait += 1) await tick(25);
    expect(delivered[0]).toMatchObject({ type: 'device', data: { Id: 'OC-A1', Online: true, Reading: { Id: 'OC-A1', Time: AT, RCP: 1.31 } } });
  });

  it('on close writes what ingestion holds (and acknowledges it) before the store closes', async () => {
    // A batch that would wait a minute: only the close writes it.
    const app = await mqttApp({}, { ingest: { maxWaitMs: 60_000 } });
    const chamber = await device(app);
    let acknowledged = false;
    const sent = chamber.publishAsync(topicFor('OC-A1', 'telemetry'), JSON.stringify({ Time: AT, RCP: 1.2 }), { qos: 1 }).then(() => {
      acknowledged = true;
    });
    const pending = () => app.ingest.counters.pending;
    for (let wait = 0; wait < 40 && pending() !== 1; wait += 1) await tick(25);
    expect(acknowledged).toBe(false);
    expect(await stored('OC-A1', AT)).toBe(false);

    await app.close();
    await sent;
    expect(acknowledged).toBe(true);
    expect(await stored('OC-A1', AT)).toBe(true);
  });

  it("ends a device's connection when its secret is rotated or it is removed (REST)", async () => {
    const app = await mqttApp();
    const tokens = await demoTokens(app);
    const rest = (method: 'POST' | 'DELETE', url: string) =>
      app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${tokens.admin}` } });

    const chamber = await device(app);
    const bystander = await device(app, 'OC-A2');
    const rotated = closed(chamber);
    const answer = await rest('POST', '/devices/OC-A1/secret');
    expect(answer.statusCode).toBe(200);
    await rotated;
    await expect(device(app, 'OC-A1', SECRET)).rejects.toMatchObject({ code: 4 });
    const reconnected = await device(app, 'OC-A1', answer.json<{ secret: string }>().secret);

    // OC-A2 has no history (no orders, no readings): it can be removed, and its connection ends with it.
    await store.database.db.deleteFrom('orders').where('device_id', '=', 'OC-A2').execute();
    await store.database.db.deleteFrom('state_records').where('device_id', '=', 'OC-A2').execute();
    const removed = closed(bystander);
    expect((await rest('DELETE', '/devices/OC-A2')).statusCode).toBe(200);
    await removed;
    await expect(device(app, 'OC-A2', SECRET)).rejects.toMatchObject({ code: 4 });

    // OC-A1 has history: it is kept, marked removed, and its connection ends all the same; its secret is refused.
    const ended = closed(reconnected);
    expect((await rest('DELETE', '/devices/OC-A1')).statusCode).toBe(200);
    await ended;
    await expect(device(app, 'OC-A1', answer.json<{ secret: string }>().secret)).rejects.toMatchObject({ code: 4 });
  });

  it('logs the counters when they changed (where a cluster primary, serving no HTTP, shows them)', async () => {
    const log = capturedLog({ level: 'info' });
    const app = buildApp({
      config: store.config({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' }),
      logger: log.logger,
      mqtt: { serverCredentials: SERVER, countersLogMs: 50 },
    });
    apps.push(app);
    await app.ready();
    const chamber = await device(app);
    await chamber.publishAsync(topicFor('OC-A1', 'telemetry'), JSON.stringify({ Time: AT, RCP: 1.28 }), { qos: 1 });
    await tick(300);
    const logged = () => log.entries<{ msg: string; mqtt?: MqttStatus }>().filter((line) => line.msg === 'mqtt: counters');
    expect(logged().at(-1)?.mqtt).toMatchObject({ broker: 'embedded', clients: 1, ingest: { received: 1, stored: 1 } });
    // Unchanged counters are not logged again.
    const count = logged().length;
    await tick(300);
    expect(logged()).toHaveLength(count);
  });

  it('does not start when MQTT_PORT is taken, naming MQTT_PORT and MQTT_URL', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      await expect(mqttApp({ MQTT_PORT: String(port) })).rejects.toThrow(`MQTT_PORT ${port} is in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('builds no broker unless asked: ctx.link refuses to send', async () => {
    const app = await store.app();
    expect(app.hasDecorator('mqtt')).toBe(false);
    await expect(app.ctx.link.sendCommand('OC-A1', { cmdId: 'c1', type: 'state', Time: AT, State: 'Stop' })).rejects.toThrow('no MQTT broker is connected');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });
});
