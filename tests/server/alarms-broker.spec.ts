import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { topicFor } from '../../src/domain/mqtt/topics';
import { buildApp } from '../../server/app';
import { hashDeviceSecret, newDeviceSecret } from '../../server/devices/registry';
import { demoTokens, deviceRow, seedFleet } from './fleet';
import { cuttableLink } from './mqtt-relay';
import { useStore } from './stores';

/**
 * The safety alarms of a chamber publishing through a real broker, the embedded one and this machine's
 * Mosquitto (MQTT_URL; these tests never skip: without it they fail), as the network treats chambers: a
 * QoS 1 publish sent again because its acknowledgement was lost, a chamber reconnecting in a loop, and
 * the server restarting between an alarm's raise and its return to normal. Each leaves one alarm.
 *
 * The engine evaluates after each commit, on its own queue: a reading whose blood pressure raises at once
 * (a suppressed alarm outside a session) marks the point up to which a device's readings were evaluated.
 */

const BROKERS = ['embedded', 'mosquitto'] as const;
const MOSQUITTO_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
/** Waits for what the server does after a publish is acknowledged (the engine evaluates after the commit). */
const eventually = (check: () => unknown) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

const HIGH = { RCPi02: 23.6 };
const NORMAL = { RCPi02: 21 };
/** Raises the blood-pressure alarm with its one reading: the marker that a device's readings were evaluated. */
const MARK = { HmBP: '190/100' };

describe.each(BROKERS)('safety alarms through the %s broker', (broker) => {
  const store = useStore('sqlite');
  const run = randomBytes(3).toString('hex');
  // An Id of its own, so that nothing else on a shared Mosquitto reaches this device's topics.
  const ID = `AL-${run}`;
  const SECRET = newDeviceSecret();
  const serverClientId = `oxygen.test.alarms.${run}`;
  const clients: MqttClient[] = [];
  let app: FastifyInstance;
  /** Reading Times: a second apart from a few minutes ago, as a chamber's clock stamps them. */
  let from = 0;

  const startServer = async (): Promise<FastifyInstance> => {
    const env = broker === 'embedded' ? { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' } : { MQTT_URL: MOSQUITTO_URL, MQTT_CLIENT_ID: serverClientId };
    app = buildApp({ config: store.config(env), logger: false, mqtt: { shareGroup: `al${run}`, ingest: { sweepIntervalMs: 0 } } });
    await app.ready();
    return app;
  };

  beforeEach(async () => {
    from = Date.now() - 5 * 60_000;
    await store.wipe();
    await seedFleet(store.context());
    // Type 2, at work, outside a session.
    await store.database.db.insertInto('devices').values(deviceRow(ID, 'Alarmed', 2, 'Lab', 'Work', { secret_hash: hashDeviceSecret(SECRET) })).execute();
    await startServer();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    await app.close();
  });

  afterAll(async () => {
    if (broker !== 'mosquitto') return;
    // End the server's persistent session on the shared broker.
    const cleaner = await mqtt.connectAsync(MOSQUITTO_URL, { clientId: serverClientId, protocolVersion: 5, clean: true, reconnectPeriod: 0 });
    await cleaner.endAsync();
  });

  const brokerUrl = () => (broker === 'embedded' ? `mqtt://127.0.0.1:${app.mqtt.port ?? 0}` : MOSQUITTO_URL);
  /** The chamber, connected through `url` (the broker, or a relay in front of it). */
  const chamber = async (url = brokerUrl(), reconnectPeriod = 0): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(url, { clientId: ID, username: ID, password: SECRET, clean: true, reconnectPeriod });
    clients.push(client);
    return client;
  };
  /** The chamber disconnects cleanly (no last will). */
  const hangUp = async (client: MqttClient): Promise<void> => {
    clients.splice(clients.indexOf(client), 1);
    await client.endAsync();
  };
  /** Publishes the reading stamped `second` seconds after `from` (QoS 1: resolved once acknowledged). */
  const publish = (client: MqttClient, second: number, fields: Record<string, unknown>) =>
    client.publishAsync(topicFor(ID, 'telemetry'), JSON.stringify({ Time: from + second * 1000, ...fields }), { qos: 1 });

  const alarmsOf = (kind: string) =>
    store.database.db.selectFrom('alarms').select(['id', 'state', 'priority', 'value']).where('device_id', '=', ID).where('kind', '=', kind).orderBy('id').execute();
  const transitionsOf = async (id: number | string) =>
    (await store.database.db.selectFrom('alarm_transitions').select(['from_state', 'to_state']).where('alarm_id', '=', Number(id)).orderBy('id').execute()).map(
      (row) => `${row.from_state ?? 'none'}>${row.to_state}`,
    );
  /** Waits until the blood-pressure marker published last was evaluated, so were the readings before it. */
  const evaluated = (marks: number) => eventually(async () => expect(await alarmsOf('blood-pressure')).toHaveLength(marks));
  const duplicates = () => app.ingest.counters.duplicates;

  it('a QoS 1 redelivery of the reading that completes the on-delay raises one alarm', async () => {
    const link = await cuttableLink(brokerUrl());
    try {
      const client = await chamber(link.url, 100);
      for (const second of [0, 1, 2]) await publish(client, second, HIGH);
      // The reading held 3 s arrives and is stored, but its acknowledgement is lost on the way back.
      link.loseReplies(true);
      const completing = publish(client, 3, HIGH);
      await eventually(async () => expect(await alarmsOf('o2-high')).toHaveLength(1));
      // The connection drops; the chamber reconnects and sends the unacknowledged reading again.
      link.loseReplies(false);
      link.cut();
      await completing;
      // Found stored already: not stored again.
      await eventually(() => expect(duplicates()).toBeGreaterThanOrEqual(1));
      await publish(client, 4, { ...HIGH, ...MARK });
      await evaluated(1);
    } finally {
      await link.close();
    }
    const [alarm, ...others] = await alarmsOf('o2-high');
    expect(others).toEqual([]);
    expect(alarm).toMatchObject({ state: 'active-unacked', priority: 'high', value: 23.6 });
    expect(await transitionsOf(alarm?.id ?? 0)).toEqual(['none>active-unacked']);
  });

  it('a chamber reconnecting in a loop while its condition holds leaves one alarm', async () => {
    for (let second = 0; second < 20; second += 1) {
      const client = await chamber();
      await publish(client, second, second === 19 ? { ...HIGH, ...MARK } : HIGH);
      await hangUp(client);
    }
    await evaluated(1);
    const [alarm, ...others] = await alarmsOf('o2-high');
    expect(others).toEqual([]);
    expect(alarm).toMatchObject({ state: 'active-unacked', priority: 'high' });
    expect(await transitionsOf(alarm?.id ?? 0)).toEqual(['none>active-unacked']);
  });

  it('a restart between raise and return closes the acknowledged alarm after its off-delay, from the stored state', async () => {
    let client = await chamber();
    for (const second of [0, 1, 2, 3]) await publish(client, second, HIGH);
    await eventually(async () => expect(await alarmsOf('o2-high')).toHaveLength(1));
    const [raised] = await alarmsOf('o2-high');
    const { admin } = await demoTokens(app);
    const acked = await app.inject({ method: 'POST', url: `/api/v1/alarms/${String(raised?.id)}/ack`, headers: { authorization: `Bearer ${admin}` }, payload: {} });
    expect(acked.json()).toMatchObject({ state: 'active-acked' });

    await hangUp(client);
    await app.close();
    await startServer();
    client = await chamber();
    // Normal from second 4: 9 s later the off-delay (10 s) has not passed; at 10 s it has.
    for (let second = 4; second < 13; second += 1) await publish(client, second, NORMAL);
    await publish(client, 13, { ...NORMAL, ...MARK });
    await evaluated(1);
    expect(await alarmsOf('o2-high')).toMatchObject([{ id: raised?.id, state: 'active-acked' }]);
    await publish(client, 14, NORMAL);
    await eventually(async () => expect(await alarmsOf('o2-high')).toMatchObject([{ id: raised?.id, state: 'closed' }]));
    const [closed] = await alarmsOf('o2-high');
    expect(await transitionsOf(closed?.id ?? 0)).toEqual(['none>active-unacked', 'active-unacked>active-acked', 'active-acked>closed']);
  });
});
