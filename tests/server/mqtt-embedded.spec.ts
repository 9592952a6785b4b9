import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveTopicFor } from '../../src/domain/live';
import { lastWillFor } from '../../src/domain/mqtt/payloads';
import { topicFor } from '../../src/domain/mqtt/topics';
import { newDeviceSecret } from '../../server/devices/registry';
import { DISCONNECT_TOPIC, newServerCredentials } from '../../server/mqtt/config';
import { createClientTransport, type ClientTransport } from '../../server/mqtt/client';
import { createEmbeddedTransport, type EmbeddedTransport } from '../../server/mqtt/embedded';
import type { InboundMessage } from '../../server/mqtt/transport';
import { silentBrokerLog } from './captured-log';

/**
 * The embedded transport with real mqtt.js devices over TCP (port 0): a device's QoS 1 publish is
 * acknowledged only once the server settles it; commands and the live relay go through the broker; a
 * cluster worker's client (the `primary` transport) relays commands, live events and disconnects.
 */

const A = 'OC-A1';
const B = 'OC-B2';
const SECRETS = new Map([
  [A, newDeviceSecret()],
  [B, newDeviceSecret()],
]);
const SERVER = newServerCredentials();

/** The embedded transport on a free port, checking the test devices' secrets. */
const embedded = () =>
  createEmbeddedTransport({
    port: 0,
    host: '127.0.0.1',
    authenticate: async (id, secret) => SECRETS.get(id) === secret,
    serverCredentials: SERVER,
    log: silentBrokerLog,
  });

let transport: EmbeddedTransport;
const clients: MqttClient[] = [];
const others: ClientTransport[] = [];
let inbox: InboundMessage[];
let arrived: (() => void)[];

const nextMessage = (): Promise<InboundMessage> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no device message in 3 s')), 3000);
    const check = () => {
      const message = inbox.shift();
      if (message === undefined) return false;
      clearTimeout(timer);
      resolve(message);
      return true;
    };
    if (!check()) arrived.push(() => void check());
  });

const device = async (id: string, options: IClientOptions = {}): Promise<MqttClient> => {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${transport.broker.port}`, {
    username: id,
    password: SECRETS.get(id),
    clientId: id,
    reconnectPeriod: 0,
    will: { ...lastWillFor(id), payload: Buffer.from('offline') },
    ...options,
  });
  clients.push(client);
  return client;
};

const worker = async (index: number): Promise<ClientTransport> => {
  const client = await createClientTransport({
    broker: 'primary',
    url: `mqtt://127.0.0.1:${transport.broker.port}`,
    username: SERVER.username,
    password: SERVER.password,
    clientId: `${SERVER.username}.worker-${index}`,
    log: silentBrokerLog,
  });
  others.push(client);
  return client;
};

const closed = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));
const tick = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  inbox = [];
  arrived = [];
  transport = await embedded();
  await transport.start((message) => {
    inbox.push(message);
    for (const wake of arrived.splice(0)) wake();
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  await Promise.all(others.splice(0).map((client) => client.close()));
  await transport.close();
});

describe('embedded transport: device messages', () => {
  it('acknowledges a QoS 1 publish (PUBACK) only once the server settles it', async () => {
    const chamber = await device(A);
    let acknowledged = false;
    const publish = chamber.publishAsync(topicFor(A, 'telemetry'), '{"Time":1767600000000}', { qos: 1 }).then(() => {
      acknowledged = true;
    });
    const message = await nextMessage();
    expect(message).toMatchObject({ topic: topicFor(A, 'telemetry'), qos: 1 });
    expect(message.payload.toString()).toBe('{"Time":1767600000000}');
    expect(transport.pending).toBe(1);

    await tick(300);
    expect(acknowledged).toBe(false);
    message.settle();
    await publish;
    expect(acknowledged).toBe(true);
    expect(transport.pending).toBe(0);
    message.settle(); // a second call changes nothing
    expect(transport.pending).toBe(0);
  });

  it('hands over every device topic, and QoS 0 without holding anything', async () => {
    const chamber = await device(A);
    await chamber.publishAsync(topicFor(A, 'status'), 'online', { qos: 0, retain: true });
    const status = await nextMessage();
    expect(status).toMatchObject({ topic: topicFor(A, 'status'), qos: 0 });
    for (const kind of ['event', 'ack'] as const) {
      const sent = chamber.publishAsync(topicFor(A, kind), '{}', { qos: 1 });
      const message = await nextMessage();
      expect(message.topic).toBe(topicFor(A, kind));
      message.settle();
      await sent;
    }
  });

  it("hands over a device's last will when it drops", async () => {
    const chamber = await device(A);
    chamber.stream.destroy();
    const will = await nextMessage();
    expect(will).toMatchObject({ topic: topicFor(A, 'status'), qos: 1 });
    expect(will.payload.toString()).toBe('offline');
    will.settle();
  });

  it('never acknowledges a message left unsettled: the device sends it again after reconnecting', async () => {
    // mqtt.js keeps an unacknowledged QoS 1 publish and sends it again (DUP) when it reconnects by itself.
    const chamber = await device(A, { clean: false, reconnectPeriod: 200 });
    let acknowledged = false;
    const sent = chamber.publishAsync(topicFor(A, 'telemetry'), '{"Time":1767600000000}', { qos: 1 }).then(() => {
      acknowledged = true;
    });
    const first = await nextMessage();
    chamber.stream.destroy(); // lost before the server settled it: no PUBACK reached the device
    const will = await nextMessage();
    expect(will.topic).toBe(topicFor(A, 'status'));
    will.settle();
    first.settle();

    const again = await nextMessage();
    expect(again.topic).toBe(topicFor(A, 'telemetry'));
    expect(again.payload.toString()).toBe('{"Time":1767600000000}');
    expect(acknowledged).toBe(false);
    again.settle();
    await sent;
  });

  it('does not hand over oversized payloads (the broker counts and drops them)', async () => {
    const chamber = await device(A);
    await chamber.publishAsync(topicFor(A, 'telemetry'), `{"pad":"${'x'.repeat(5000)}"}`, { qos: 1 });
    const sent = chamber.publishAsync(topicFor(A, 'telemetry'), '{"Time":1767600000000}', { qos: 1 });
    const message = await nextMessage();
    expect(message.payload.toString()).toBe('{"Time":1767600000000}');
    message.settle();
    await sent;
    expect(transport.broker.counters.oversized).toBe(1);
  });

  it('keeps messages that arrive before start() until it is called', async () => {
    await transport.close();
    transport = await embedded();
    const chamber = await device(A);
    const sent = chamber.publishAsync(topicFor(A, 'telemetry'), '{"Time":1767600000000}', { qos: 1 });
    await tick();
    const got: InboundMessage[] = [];
    await transport.start((message) => got.push(message));
    expect(got.map((message) => message.topic)).toEqual([topicFor(A, 'telemetry')]);
    got[0]?.settle();
    await sent;
  });
});

describe('embedded transport: commands, live relay, disconnects', () => {
  it('publishes a command the device receives on its cmd topic', async () => {
    const chamber = await device(A);
    await chamber.subscribeAsync(topicFor(A, 'cmd'), { qos: 1 });
    const received = new Promise<string>((resolve) => chamber.once('message', (_topic, payload) => resolve(payload.toString())));
    await transport.publish(topicFor(A, 'cmd'), '{"cmdId":"c1"}', { qos: 1, retain: false });
    expect(await received).toBe('{"cmdId":"c1"}');
  });

  it("relays live events between the primary and its workers' clients, every process getting each", async () => {
    const primaryGot: string[] = [];
    await transport.subscribeLive((topic, payload) => primaryGot.push(`${topic} ${payload.toString()}`));
    const one = await worker(1);
    const two = await worker(2);
    const oneGot: string[] = [];
    const twoGot: string[] = [];
    await one.subscribeLive((topic, payload) => oneGot.push(`${topic} ${payload.toString()}`));
    await two.subscribeLive((topic, payload) => twoGot.push(`${topic} ${payload.toString()}`));

    await transport.publish(liveTopicFor(A), 'from-primary', { qos: 0, retain: false });
    await one.publish(liveTopicFor(B), 'from-worker', { qos: 0, retain: false });
    const expected = [`${liveTopicFor(A)} from-primary`, `${liveTopicFor(B)} from-worker`];
    for (let wait = 0; wait < 30 && [primaryGot, oneGot, twoGot].some((got) => got.length < 2); wait += 1) await tick(50);
    expect(primaryGot).toEqual(expected);
    expect(oneGot).toEqual(expected);
    expect(twoGot).toEqual(expected);
  });

  it("ends a device's connections, in-process or when a worker asks on the primary's broker", async () => {
    const chamber = await device(A);
    const bystander = await device(B);
    const gone = closed(chamber);
    transport.disconnectDevice(A);
    await gone;
    const will = await nextMessage();
    expect(will.topic).toBe(topicFor(A, 'status'));
    will.settle();

    const again = await device(A);
    const goneAgain = closed(again);
    const one = await worker(1);
    one.disconnectDevice(A);
    await goneAgain;
    expect(bystander.connected).toBe(true);
  });

  it("refuses a device's publish on the disconnect topic (only the server's clients may ask)", async () => {
    const chamber = await device(A);
    const bystander = await device(B);
    const gone = closed(chamber);
    void chamber.publishAsync(DISCONNECT_TOPIC, B, { qos: 1 }).catch(() => undefined);
    await gone;
    await tick();
    expect(bystander.connected).toBe(true);
    expect(transport.broker.counters.publishDenied).toBe(1);
  });

  it('a worker takes no device messages, and fails to publish while disconnected', async () => {
    const one = await worker(1);
    await expect(one.start(() => undefined)).rejects.toThrow(/takes no device messages/);
    await transport.close();
    for (let wait = 0; wait < 40 && one.connected; wait += 1) await tick(50);
    await expect(one.publish(topicFor(A, 'cmd'), '{}', { qos: 1, retain: false })).rejects.toThrow('no MQTT broker is connected');
  });
});
