import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DevicePatch } from '../../src/domain/live';
import { lastWillFor } from '../../src/domain/mqtt/payloads';
import { topicFor } from '../../src/domain/mqtt/topics';
import { buildApp } from '../../server/app';
import { hashDeviceSecret, newDeviceSecret } from '../../server/devices/registry';
import { capturedLog } from './captured-log';
import { demoTokens, deviceRow, seedFleet } from './fleet';
import { connect, type Received } from './live-client';
import { useStore } from './stores';

/**
 * The whole telemetry path with real MQTT clients, on the embedded broker and on this
 * machine's Mosquitto (MQTT_URL; CI fails, never skips, when it is missing): malformed payloads are
 * dropped and counted; on the embedded broker a device publishing as another is cut off (on Mosquitto the
 * broker's ACL does that: mqtt-mosquitto.spec.ts runs docs/mqtt.md's configuration); a device goes offline
 * on its last will and after 30 s of silence during a session; and a first-level administrator's live
 * stream carries its device and never one outside its scope.
 */

const BROKERS = ['embedded', 'mosquitto'] as const;
const MOSQUITTO_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const tick = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> => {
  for (const deadline = Date.now() + timeoutMs; !(await condition()); await tick()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

describe.each(BROKERS)('the telemetry path on the %s broker', (broker) => {
  const store = useStore('sqlite');
  const run = randomBytes(3).toString('hex');
  // Ids of their own, so that nothing else on a shared Mosquitto reaches these devices' topics.
  const IN = `TP-${run}-in`;
  const OUT = `TP-${run}-out`;
  const SECRET = newDeviceSecret();
  let clock = Date.now();
  let app: FastifyInstance;
  let base = '';
  const clients: MqttClient[] = [];
  /**
   * The server's log. On the shared Mosquitto other test files publish to `oc/+/...` too (unknown devices,
   * malformed payloads), and this server's wildcard subscription drops those as well: the global counters
   * cannot say what became of this test's messages, its device's drop lines can.
   */
  let log = capturedLog({ level: 'warn' });

  beforeEach(async () => {
    clock = Date.now();
    log = capturedLog({ level: 'warn' });
    await store.wipe();
    await seedFleet(store.context());
    const { db } = store.database;
    await db.insertInto('devices').values([deviceRow(IN, 'In scope', 1, 'Lab', 'Work'), deviceRow(OUT, 'Out of scope', 1, 'Lab', 'Work')]).execute();
    await db.updateTable('devices').set({ secret_hash: hashDeviceSecret(SECRET) }).where('id', 'in', [IN, OUT]).execute();
    const first = await db.selectFrom('accounts').select('id').where('account', '=', 'first').executeTakeFirstOrThrow();
    await db.insertInto('account_devices').values({ account_id: first.id, device_id: IN, created_at: clock }).execute();

    const env =
      broker === 'embedded' ? { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' } : { MQTT_URL: MOSQUITTO_URL, MQTT_CLIENT_ID: `oxygen.test.${run}` };
    app = buildApp({
      config: store.config(env),
      logger: log.logger,
      now: () => clock,
      // A burst no neighbour's drops can use up: every one of this test's drops is logged.
      mqtt: { shareGroup: `tp${run}`, ingest: { sweepIntervalMs: 50, logBurst: 1_000_000 } },
    });
    await app.ready();
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    await app.close();
    if (broker === 'mosquitto') {
      // Leave no retained status of these throwaway devices on the shared broker.
      const cleaner = await mqtt.connectAsync(MOSQUITTO_URL, { reconnectPeriod: 0 });
      for (const id of [IN, OUT]) await cleaner.publishAsync(topicFor(id, 'status'), '', { qos: 1, retain: true });
      await cleaner.endAsync();
    }
  });

  const brokerUrl = () => (broker === 'embedded' ? `mqtt://127.0.0.1:${app.mqtt.port ?? 0}` : MOSQUITTO_URL);
  const device = async (id: string): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(brokerUrl(), {
      clientId: id,
      username: id,
      password: SECRET,
      clean: true,
      reconnectPeriod: 0,
      will: { ...lastWillFor(id), payload: Buffer.from('offline') },
    });
    clients.push(client);
    return client;
  };
  const row = (id: string) => store.database.db.selectFrom('devices').select(['online', 'latest']).where('id', '=', id).executeTakeFirstOrThrow();
  const readings = async (id: string) =>
    (await store.database.db.selectFrom('state_records').select('time').where('device_id', '=', id).execute()).map((one) => Number(one.time));
  const patchesOf = (received: Received[], id: string) =>
    received.filter((message) => message.event === 'device' && (message.data as DevicePatch).Id === id).map((message) => message.data as DevicePatch);

  it('drops malformed payloads with a counted reason, stores good readings, and streams only devices in scope', async () => {
    const tokens = await demoTokens(app);
    const stream = await connect(base, tokens.first);
    await stream.until((received) => received.some((message) => message.event === 'ready'));
    const inside = await device(IN);
    const outside = await device(OUT);

    const telemetry = topicFor(IN, 'telemetry');
    const bad = ['not json', JSON.stringify({ Time: 'now' }), JSON.stringify({ Time: clock, Mood: 'calm' }), JSON.stringify({ Time: clock, RCP: 99 })];
    for (const payload of bad) await inside.publishAsync(telemetry, payload, { qos: 1 });
    // On Mosquitto the PUBACK is the broker's: wait for the server to have handled them.
    const dropped = () =>
      log
        .entries<{ msg: string; deviceId?: string; reason?: string }>()
        .filter((entry) => entry.msg === 'mqtt message dropped' && entry.deviceId === IN)
        .map((entry) => entry.reason);
    await until(() => dropped().length >= bad.length, 'every malformed payload dropped');
    expect(dropped().sort()).toEqual(['json', 'schema:RCP', 'schema:Time', 'schema:unknown']);
    expect(await readings(IN)).toEqual([]);

    await inside.publishAsync(telemetry, JSON.stringify({ Time: clock, RCP: 1.3, RCPi02: 21.6 }), { qos: 1 });
    await outside.publishAsync(topicFor(OUT, 'telemetry'), JSON.stringify({ Time: clock, RCP: 1.4 }), { qos: 1 });
    await until(async () => (await readings(IN)).length === 1 && (await readings(OUT)).length === 1, 'both readings stored');
    expect(await readings(IN)).toEqual([clock]);
    expect(await readings(OUT)).toEqual([clock]);
    await stream.until((received) => patchesOf(received, IN).some((patch) => patch.Reading?.RCP === 1.3));
    // Past a flush or two, the out-of-scope reading has had every chance to show up: it must not.
    await tick(300);
    expect(patchesOf(stream.received, OUT)).toEqual([]);
    expect(patchesOf(stream.received, IN)[0]).toMatchObject({ Online: true, Reading: { Id: IN, Time: clock, RCP: 1.3, RCPi02: 21.6 } });
  });

  it('takes a device offline on its last will, and after 30 s without telemetry during a session', async () => {
    const inside = await device(IN);
    await inside.publishAsync(topicFor(IN, 'telemetry'), JSON.stringify({ Time: clock, RCP: 1.2 }), { qos: 1 });
    await until(async () => (await row(IN)).online === 1, 'the device online');
    // The connection drops without a DISCONNECT: the broker publishes the will.
    inside.stream.destroy();
    await until(async () => (await row(IN)).online === 0, 'the last will to take it offline');

    const outside = await device(OUT);
    await outside.publishAsync(topicFor(OUT, 'event'), JSON.stringify({ type: 'sessionStart', Time: clock, OC: '123456' }), { qos: 1 });
    await outside.publishAsync(topicFor(OUT, 'telemetry'), JSON.stringify({ Time: clock, RCP: 1.2 }), { qos: 1 });
    await until(async () => (await row(OUT)).online === 1 && (await readings(OUT)).length === 1, 'the session under way');
    clock += 29_000;
    await tick(300);
    expect((await row(OUT)).online).toBe(1);
    clock += 2_000;
    await until(async () => (await row(OUT)).online === 0, 'the 30 s silence rule to take it offline');
  });

  // Only the embedded broker is the server's to police; Mosquitto's ACL is tested in mqtt-mosquitto.spec.ts.
  if (broker === 'embedded') it('cuts off a device that publishes as another, and stores nothing for the other', async () => {
    const inside = await device(IN);
    const closed = new Promise<void>((resolve) => inside.once('close', () => resolve()));
    inside.publish(topicFor(OUT, 'telemetry'), JSON.stringify({ Time: clock, RCP: 1.5 }), { qos: 1 });
    await closed;
    const state = app.mqtt.status();
    expect(state.broker === 'embedded' ? state.refused.publishDenied : -1).toBe(1);
    expect(await readings(OUT)).toEqual([]);
  });
});
