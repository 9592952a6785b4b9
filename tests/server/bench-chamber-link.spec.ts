import { connect as connectSocket, type Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverSubscriptions, topicFor } from '../../src/domain/mqtt/topics';
import { connectPacket, openChamberLink, splitPackets, type ChamberLink } from '../../bench/chamber-link';
import { newDeviceSecret } from '../../server/devices/registry';
import { startEmbeddedBroker } from '../../server/mqtt/broker';
import { newServerCredentials, type EmbeddedBroker } from '../../server/mqtt/config';
import { silentBrokerLog } from './captured-log';

/**
 * The benchmarks' chambers speak MQTT on a bare socket (bench/chamber-link.ts): the embedded broker must
 * take them as it takes a device of docs/mqtt.md, or every figure the benchmarks report is of something else.
 */

const ID = 'OC-L1';
const SECRET = newDeviceSecret();
const SERVER = newServerCredentials();

let broker: EmbeddedBroker;
let server: MqttClient;
let received: { topic: string; payload: string }[];
const links: ChamberLink[] = [];
const sockets: Socket[] = [];

beforeEach(async () => {
  broker = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', authenticate: async (id, secret) => id === ID && secret === SECRET, serverCredentials: SERVER, log: silentBrokerLog });
  server = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { username: SERVER.username, password: SERVER.password, clientId: `${SERVER.username}.test`, reconnectPeriod: 0 });
  received = [];
  server.on('message', (topic, payload) => received.push({ topic, payload: payload.toString('utf8') }));
  await server.subscribeAsync(serverSubscriptions(), { qos: 1 });
});

afterEach(async () => {
  await Promise.all(links.splice(0).map((link) => link.end()));
  for (const socket of sockets.splice(0)) socket.destroy();
  await server.endAsync(true);
  await broker.close();
});

/** The first payload the server's subscription received on `topic`. */
const arrived = async (topic: string): Promise<string> => {
  await expect.poll(() => received.some((message) => message.topic === topic)).toBe(true);
  return received.find((message) => message.topic === topic)?.payload ?? '';
};

/** What the broker keeps retained on `topic`, as a subscriber arriving now receives it. */
const retainedOn = async (topic: string): Promise<string> => {
  const later = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { username: SERVER.username, password: SERVER.password, clientId: `${SERVER.username}.later`, reconnectPeriod: 0 });
  try {
    const message = new Promise<string>((resolve) => later.on('message', (_topic, payload, packet) => packet.retain && resolve(payload.toString('utf8'))));
    await later.subscribeAsync(topic, { qos: 1 });
    return await message;
  } finally {
    await later.endAsync(true);
  }
};

/** The CONNACK a bare socket gets for connectPacket: [session present, return code]. */
const connack = (socket: Socket): Promise<number[]> =>
  new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve([...(splitPackets(chunk).packets[0]?.body ?? [])])));

/** A connection that sends connectPacket's CONNECT and then nothing, so it can be dropped without a DISCONNECT. */
const rawConnection = async (): Promise<{ socket: Socket; answer: number[] }> => {
  const socket = connectSocket({ host: '127.0.0.1', port: Number(broker.port) });
  sockets.push(socket);
  const answer = connack(socket);
  socket.write(connectPacket(ID, SECRET));
  return { socket, answer: await answer };
};

describe('a benchmark chamber on a bare socket', () => {
  it('is accepted with its secret, and its QoS 1 publishes are acknowledged and delivered as sent', async () => {
    const link = await openChamberLink(`mqtt://127.0.0.1:${broker.port}`, ID, SECRET);
    links.push(link);
    link.publish(topicFor(ID, 'status'), 'online', { retain: true });
    const acked = new Promise<Error | undefined>((resolve) => link.publish(topicFor(ID, 'telemetry'), '{"Time":1}', { onAck: resolve }));
    expect(await acked).toBeUndefined();
    expect(await arrived(topicFor(ID, 'telemetry'))).toBe('{"Time":1}');
    expect(await retainedOn(topicFor(ID, 'status'))).toBe('online');
  });

  it('is refused with a wrong secret, saying so', async () => {
    await expect(openChamberLink(`mqtt://127.0.0.1:${broker.port}`, ID, `${SECRET}x`)).rejects.toThrow(`${ID}: the broker refused the connection (CONNACK 4)`);
  });

  it('leaves its last will, offline and retained, when the connection drops', async () => {
    const { socket, answer } = await rawConnection();
    expect(answer).toEqual([0, 0]);
    socket.destroy();
    expect(await arrived(topicFor(ID, 'status'))).toBe('offline');
    expect(await retainedOn(topicFor(ID, 'status'))).toBe('offline');
  });

  it('asks for MQTT 3.1.1 with a persistent session and a keepalive of 60 s', () => {
    const [connect] = splitPackets(connectPacket(ID, SECRET)).packets;
    // after the protocol name (6 bytes): level, flags (username, password, will retained at QoS 1, no clean session), keepalive
    expect(connect?.body.subarray(6, 10)).toEqual(Buffer.from([4, 0b1110_1100, 0, 60]));
  });

  it('splits a stream into whole packets, keeping a packet cut short for the next chunk', () => {
    const long = Buffer.concat([Buffer.from([0x30, 0xc8, 0x01]), Buffer.alloc(200, 7)]);
    const stream = Buffer.concat([Buffer.from([0x40, 2, 0, 9]), long, Buffer.from([0x40, 2, 0])]);
    const { packets, rest } = splitPackets(stream);
    expect(packets.map((packet) => [packet.firstByte, packet.body.length])).toEqual([
      [0x40, 2],
      [0x30, 200],
    ]);
    expect([...rest]).toEqual([0x40, 2, 0]);
  });
});
