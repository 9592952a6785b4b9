import { execFile } from 'node:child_process';
import { createServer, Socket, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES } from '../../src/domain/mqtt/parse';
import { lastWillFor } from '../../src/domain/mqtt/payloads';
import { serverSubscriptions, topicFor } from '../../src/domain/mqtt/topics';
import { hashDeviceSecret, newDeviceSecret, verifyDeviceSecret } from '../../server/devices/registry';
import { startEmbeddedBroker } from '../../server/mqtt/broker';
import { newServerCredentials, REFUSAL_REASONS, type BrokerLog, type EmbeddedBroker, type EmbeddedBrokerOptions } from '../../server/mqtt/config';
import { deviceRow } from './fleet';
import { useStore } from './stores';

/**
 * The embedded broker with real mqtt.js clients over TCP on 127.0.0.1 (port 0: the system picks a free
 * one). Devices are checked by a fake `authenticate` backed by a Map, and once by verifyDeviceSecret
 * over SQLite.
 */

const A = 'OC-A1';
const B = 'OC-B2';
const SECRETS = new Map([
  [A, newDeviceSecret()],
  [B, newDeviceSecret()],
]);
const secretOf = (id: string): string => SECRETS.get(id) ?? '';

interface Logged {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: unknown;
  message: string;
}

const recordingLog = (): BrokerLog & { lines: Logged[] } => {
  const lines: Logged[] = [];
  const at =
    (level: Logged['level']) =>
    (fields: unknown, message?: string): void => {
      lines.push({ level, fields, message: message ?? '' });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as BrokerLog & { lines: Logged[] };
};

const SERVER = newServerCredentials();

let broker: EmbeddedBroker;
let log: ReturnType<typeof recordingLog>;
const clients: MqttClient[] = [];

const start = async (overrides: Partial<EmbeddedBrokerOptions> = {}) => {
  log = recordingLog();
  broker = await startEmbeddedBroker({
    port: 0,
    host: '127.0.0.1',
    authenticate: async (id, secret) => SECRETS.get(id) === secret,
    serverCredentials: SERVER,
    log,
    ...overrides,
  });
  return broker;
};

const connect = async (options: IClientOptions): Promise<MqttClient> => {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  clients.push(client);
  return client;
};

/** A device as docs/mqtt.md describes it: its Id as username and client id, its secret, its last will. */
const device = (id: string, options: IClientOptions = {}) =>
  connect({ username: id, password: secretOf(id), clientId: id, will: { ...lastWillFor(id), payload: Buffer.from('offline') }, ...options });

/** The refusal a connection attempt gets (mqtt.js rejects with the CONNACK return code as `code`). */
const refusedWith = async (options: IClientOptions): Promise<number | undefined> => {
  const attempt = mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  const error = await attempt.then(
    (client) => {
      clients.push(client);
      throw new Error('connected, expected a refusal');
    },
    (reason: unknown) => reason as { code?: number },
  );
  return error.code;
};

interface Received {
  topic: string;
  payload: string;
  retain: boolean;
}

/** The server's client: subscribed to every device topic the way ingestion will (shared subscriptions). */
const serverClient = async (options: IClientOptions = {}) => {
  const client = await connect({ username: SERVER.username, password: SERVER.password, clientId: `${SERVER.username}.test`, ...options });
  const received: Received[] = [];
  const waiters: { match: (message: Received) => boolean; resolve: (message: Received) => void }[] = [];
  client.on('message', (topic, payload, packet) => {
    const message = { topic, payload: payload.toString('utf8'), retain: packet.retain };
    received.push(message);
    for (const waiter of waiters.splice(0)) {
      if (waiter.match(message)) waiter.resolve(message);
      else waiters.push(waiter);
    }
  });
  const next = (match: (message: Received) => boolean, timeoutMs = 3000) =>
    new Promise<Received>((resolve, reject) => {
      const found = received.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(received)}`)), timeoutMs);
      waiters.push({
        match,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
    });
  return { client, received, next };
};

/** The SUBACK return codes (mqtt.js rejects a subscription with a failure code; its packet carries them). */
const suback = (client: MqttClient, topics: string | string[]): Promise<number[]> =>
  client.subscribeAsync(topics, { qos: 1 }).then(
    (grants) => grants.map((grant) => grant.qos),
    (error: unknown) => {
      const granted = (error as { packet?: { granted?: (number | { qos: number })[] } }).packet?.granted;
      if (granted === undefined) throw error;
      return granted.map((code) => (typeof code === 'number' ? code : code.qos));
    },
  );

const closed = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));

const allLogged = () => JSON.stringify(log.lines);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true).catch(() => undefined)));
  await broker?.close();
});

describe('embedded MQTT broker: device identity and topic rights', () => {
  beforeEach(async () => {
    await start();
  });

  it('lets a registered device publish QoS 1 telemetry that the server receives through its shared subscription', async () => {
    const server = await serverClient();
    const grants = await server.client.subscribeAsync(serverSubscriptions(), { qos: 1 });
    expect(grants.map((grant) => grant.qos)).toEqual([1, 1, 1, 1]);

    const chamber = await device(A);
    const payload = '{"Time":1767600000000,"RCP":1.28}';
    const ack = await chamber.publishAsync(topicFor(A, 'telemetry'), payload, { qos: 1 });
    expect(ack?.cmd).toBe('publish');
    const message = await server.next((m) => m.topic === topicFor(A, 'telemetry'));
    expect(message.payload).toBe(payload);

    // Its other own topics too; status retained.
    await chamber.publishAsync(topicFor(A, 'event'), '{"type":"sessionEnd","Time":1767600000000}', { qos: 1 });
    await chamber.publishAsync(topicFor(A, 'ack'), '{"cmdId":"c1","ok":true}', { qos: 1 });
    await chamber.publishAsync(topicFor(A, 'status'), 'online', { qos: 1, retain: true });
    await server.next((m) => m.topic === topicFor(A, 'status') && m.payload === 'online');
    await server.next((m) => m.topic === topicFor(A, 'ack'));
    await server.next((m) => m.topic === topicFor(A, 'event'));
    // Nothing refused, for any reason.
    expect(Object.keys(broker.counters)).toEqual([...REFUSAL_REASONS]);
    expect(Object.entries(broker.counters).filter(([, count]) => count !== 0)).toEqual([]);
  });

  it('serves the server plain subscriptions as well', async () => {
    const server = await serverClient();
    await server.client.subscribeAsync('oc/+/telemetry', { qos: 1 });
    const chamber = await device(B);
    await chamber.publishAsync(topicFor(B, 'telemetry'), '{"Time":1767600000000}', { qos: 1 });
    expect((await server.next((m) => m.topic === topicFor(B, 'telemetry'))).payload).toBe('{"Time":1767600000000}');
  });

  it('refuses a wrong secret, an unknown device, an invalid username, a missing password and a wrong server password', async () => {
    expect(await refusedWith({ username: A, password: secretOf(B) })).toBe(4);
    expect(await refusedWith({ username: 'OC-NOPE', password: secretOf(A) })).toBe(4);
    expect(await refusedWith({ username: 'oc/#', password: secretOf(A) })).toBe(4);
    expect(await refusedWith({ username: 'OC A1', password: secretOf(A) })).toBe(4);
    expect(await refusedWith({ username: A })).toBe(4);
    expect(await refusedWith({})).toBe(4);
    expect(await refusedWith({ username: SERVER.username, password: `${SERVER.password}x` })).toBe(4);
    expect(broker.counters.badCredentials).toBe(7);

    const warnings = log.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(7);
    expect(warnings[0]?.fields).toMatchObject({ reason: 'badCredentials', username: A });
    // Never a secret or the server's password in the log.
    for (const secret of [...SECRETS.values(), SERVER.password]) expect(allLogged()).not.toContain(secret);
  });

  it('answers "server unavailable" when the credential check fails, and logs it as an error', async () => {
    await broker.close();
    await start({ authenticate: async () => Promise.reject(new Error('database down')) });
    // A failing check is "server unavailable" (3), not a credentials refusal, and is logged as an error.
    expect(await refusedWith({ username: A, password: secretOf(A) })).toBe(3);
    expect(broker.counters.badCredentials).toBe(0);
    expect(log.lines.some((line) => line.level === 'error' && line.message.includes('cannot check'))).toBe(true);
  });

  it("refuses a device publishing on another device's topic, disconnects it, and the server does not receive it", async () => {
    const server = await serverClient();
    await server.client.subscribeAsync(serverSubscriptions(), { qos: 1 });
    const intruder = await device(A);
    const gone = closed(intruder);
    void intruder.publishAsync(topicFor(B, 'telemetry'), '{"Time":1767600000000}', { qos: 1 }).catch(() => undefined);
    await gone;
    expect(broker.counters.publishDenied).toBe(1);
    expect(log.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({
      reason: 'publishDenied',
      deviceId: A,
      topic: topicFor(B, 'telemetry'),
    });

    // B's own message arrives; A's forged one never did.
    const owner = await device(B);
    await owner.publishAsync(topicFor(B, 'telemetry'), '{"Time":1767600001000}', { qos: 1 });
    await server.next((m) => m.payload === '{"Time":1767600001000}');
    expect(server.received.filter((m) => m.payload === '{"Time":1767600000000}')).toEqual([]);
  });

  it('refuses a device publishing on its own cmd topic, outside the contract, or retained outside status', async () => {
    for (const [topic, retain] of [
      [topicFor(A, 'cmd'), false],
      ['oc/OC-A1/readings', false],
      ['$SYS/anything', false],
      [topicFor(A, 'telemetry'), true],
    ] as const) {
      const chamber = await device(A);
      const gone = closed(chamber);
      void chamber.publishAsync(topic, '{}', { qos: 1, retain }).catch(() => undefined);
      await gone;
    }
    expect(broker.counters.publishDenied).toBe(4);
  });

  it("refuses a subscription to another device's cmd topic (SUBACK 0x80), keeps the device connected, and counts it", async () => {
    const chamber = await device(A);
    expect(await suback(chamber, topicFor(B, 'cmd'))).toEqual([0x80]);
    expect(await suback(chamber, ['oc/#', 'oc/+/cmd', `$share/oxygen/${topicFor(A, 'cmd')}`])).toEqual([0x80, 0x80, 0x80]);
    // Mixed: its own cmd is granted beside a refused one.
    expect(await suback(chamber, [topicFor(A, 'cmd'), topicFor(B, 'cmd')])).toEqual([1, 0x80]);
    expect(broker.counters.subscribeDenied).toBe(5);
    expect(log.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({ reason: 'subscribeDenied', deviceId: A, topic: topicFor(B, 'cmd') });
    expect(chamber.connected).toBe(true);

    // The server's command to B never reaches A; the one to A that follows it does.
    const got: string[] = [];
    chamber.on('message', (topic, payload) => got.push(`${topic} ${payload.toString()}`));
    const own = new Promise<void>((resolve) => chamber.on('message', (topic) => topic === topicFor(A, 'cmd') && resolve()));
    const server = await serverClient();
    await server.client.publishAsync(topicFor(B, 'cmd'), '{"cmdId":"for-b"}', { qos: 1 });
    await server.client.publishAsync(topicFor(A, 'cmd'), '{"cmdId":"for-a"}', { qos: 1 });
    await own;
    expect(got).toEqual([`${topicFor(A, 'cmd')} {"cmdId":"for-a"}`]);
  });

  it('lets a device subscribe to its own cmd topic and receive what the server publishes there', async () => {
    const chamber = await device(A);
    const grants = await chamber.subscribeAsync(topicFor(A, 'cmd'), { qos: 1 });
    expect(grants.map((grant) => grant.qos)).toEqual([1]);
    const command = new Promise<{ topic: string; payload: string; qos: number }>((resolve) =>
      chamber.once('message', (topic, payload, packet) => resolve({ topic, payload: payload.toString(), qos: packet.qos })),
    );
    const server = await serverClient();
    const body = '{"cmdId":"c1f4e2a0","type":"permission","Time":1767600010000,"Permission":"Open"}';
    await server.client.publishAsync(topicFor(A, 'cmd'), body, { qos: 1 });
    expect(await command).toEqual({ topic: topicFor(A, 'cmd'), payload: body, qos: 1 });
  });

  it("queues the server's commands for a device with a persistent session and delivers them when it reconnects", async () => {
    const first = await device(A, { clean: false });
    await first.subscribeAsync(topicFor(A, 'cmd'), { qos: 1 });
    await first.endAsync();
    const server = await serverClient();
    await server.client.publishAsync(topicFor(A, 'cmd'), '{"cmdId":"queued"}', { qos: 1 });
    const again = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0, username: A, password: secretOf(A), clientId: A, clean: false });
    clients.push(again);
    const message = await new Promise<string>((resolve) => again.once('message', (_topic, payload) => resolve(payload.toString())));
    expect(message).toBe('{"cmdId":"queued"}');
  });

  it("refuses a client id held by another username; a device's own Id is always its own", async () => {
    expect(await refusedWith({ username: A, password: secretOf(A), clientId: `${SERVER.username}.x` })).toBe(2);
    // B's persistent session under a free-form client id: A may neither resume it (it would get B's queued commands) nor end it.
    const owner = await device(B, { clientId: 'bench-7', clean: false });
    await owner.subscribeAsync(topicFor(B, 'cmd'), { qos: 1 });
    await owner.endAsync();
    expect(await refusedWith({ username: A, password: secretOf(A), clientId: 'bench-7', clean: false })).toBe(2);
    expect(await refusedWith({ username: A, password: secretOf(A), clientId: 'bench-7', clean: true })).toBe(2);
    // Its owner may come back.
    await device(B, { clientId: 'bench-7', clean: false });

    // A squatting B's Id as client id loses it (and its session) to B, and cannot take it back.
    const squatter = await device(A, { clientId: B, clean: false });
    await squatter.subscribeAsync(topicFor(A, 'cmd'), { qos: 1 });
    await squatter.endAsync();
    const server = await serverClient();
    await server.client.publishAsync(topicFor(A, 'cmd'), '{"cmdId":"queued-for-a"}', { qos: 1 });
    const rightful = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0, username: B, password: secretOf(B), clientId: B, clean: false });
    clients.push(rightful);
    const got: string[] = [];
    rightful.on('message', (topic) => got.push(topic));
    const connack = await new Promise<{ sessionPresent: boolean }>((resolve) => rightful.once('connect', resolve));
    expect(connack.sessionPresent).toBe(false);
    // B's own command arrives; A's queued one never does.
    await rightful.subscribeAsync(topicFor(B, 'cmd'), { qos: 1 });
    const own = new Promise<void>((resolve) => rightful.on('message', (topic) => topic === topicFor(B, 'cmd') && resolve()));
    await server.client.publishAsync(topicFor(B, 'cmd'), '{"cmdId":"for-b"}', { qos: 1 });
    await own;
    expect(got).toEqual([topicFor(B, 'cmd')]);
    expect(await refusedWith({ username: A, password: secretOf(A), clientId: B })).toBe(2);
    expect(broker.counters.clientIdDenied).toBe(4);
  });

  it('publishes the last will offline, retained on status, when a device drops', async () => {
    const chamber = await device(A);
    await chamber.publishAsync(topicFor(A, 'status'), 'online', { qos: 1, retain: true });
    chamber.stream.destroy(); // the connection is lost, no DISCONNECT
    await closed(chamber);

    // A subscriber arriving later gets the retained offline.
    const server = await serverClient();
    await server.client.subscribeAsync(serverSubscriptions(), { qos: 1 });
    const status = await server.next((m) => m.topic === topicFor(A, 'status'));
    expect(status).toEqual({ topic: topicFor(A, 'status'), payload: 'offline', retain: true });
    expect(broker.counters.publishDenied).toBe(0);
  });

  it("refuses a connection whose last will is on another device's topic", async () => {
    expect(await refusedWith({ username: A, password: secretOf(A), clientId: A, will: { ...lastWillFor(B), payload: Buffer.from('offline') } })).toBe(5);
    expect(broker.counters.publishDenied).toBe(1);
  });

  it('acknowledges an oversized payload and drops it, keeping the device connected', async () => {
    const server = await serverClient();
    await server.client.subscribeAsync(serverSubscriptions(), { qos: 1 });
    await server.client.subscribeAsync('#', { qos: 1 });
    const chamber = await device(A);
    const big = `{"Time":1767600000000,"pad":"${'x'.repeat(MAX_PAYLOAD_BYTES)}"}`;
    await chamber.publishAsync(topicFor(A, 'telemetry'), big, { qos: 1 });
    await chamber.publishAsync(topicFor(A, 'status'), big, { qos: 1, retain: true });
    await chamber.publishAsync(topicFor(A, 'telemetry'), '{"Time":1767600001000}', { qos: 1 });
    await server.next((m) => m.payload === '{"Time":1767600001000}');
    expect(server.received.filter((m) => m.payload.length > MAX_PAYLOAD_BYTES || m.payload === '')).toEqual([]);
    expect(broker.counters.oversized).toBe(2);
    expect(chamber.connected).toBe(true);
    expect(log.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({ reason: 'oversized', deviceId: A, bytes: big.length });

    // Exactly the limit passes; the server itself is not limited.
    const shell = '{"Time":1767600002000,"p":""}';
    const exact = `{"Time":1767600002000,"p":"${'y'.repeat(MAX_PAYLOAD_BYTES - shell.length)}"}`;
    expect(exact.length).toBe(MAX_PAYLOAD_BYTES);
    await chamber.publishAsync(topicFor(A, 'telemetry'), exact, { qos: 1 });
    await server.next((m) => m.payload === exact);
    // Nothing oversized was retained.
    const later = await serverClient({ clientId: `${SERVER.username}.later` });
    await later.client.subscribeAsync(topicFor(A, 'status'), { qos: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(later.received).toEqual([]);
  });

  it('closes the connection of anyone sending a packet over 64 KiB, as it arrives', async () => {
    const chamber = await device(A);
    const gone = closed(chamber);
    void chamber.publishAsync(topicFor(A, 'telemetry'), 'z'.repeat(100_000), { qos: 1 }).catch(() => undefined);
    await gone;
    expect(broker.counters).toMatchObject({ packetTooLarge: 1, oversized: 0 });
    expect(log.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({ reason: 'packetTooLarge', deviceId: A, bytes: expect.any(Number) });

    // Before any CONNECT: a header announcing a 1 MB packet, then a first chunk of it.
    const raw = new Socket();
    await new Promise<void>((resolve) => raw.connect(broker.port ?? 0, '127.0.0.1', resolve));
    const rawClosed = new Promise<void>((resolve) => raw.once('close', () => resolve()));
    raw.on('error', () => undefined);
    const length = 1_000_000;
    raw.write(Buffer.concat([Buffer.from([0x10, (length & 0x7f) | 0x80, ((length >> 7) & 0x7f) | 0x80, length >> 14]), Buffer.alloc(70_000)]));
    await rawClosed;
    expect(broker.counters.packetTooLarge).toBe(2);
  });

  it('refuses MQTT 5 (aedes 1.x speaks 3.1.1): "unacceptable protocol version"', async () => {
    expect(await refusedWith({ username: A, password: secretOf(A), protocolVersion: 5 })).toBe(1);
  });
});

describe('embedded MQTT broker: listening and closing', () => {
  it('names MQTT_PORT and MQTT_URL when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const attempt = startEmbeddedBroker({
        port,
        host: '127.0.0.1',
        authenticate: async () => false,
        serverCredentials: SERVER,
        log: recordingLog(),
      });
      await expect(attempt).rejects.toThrow(`MQTT_PORT ${port} is in use`);
      await expect(attempt).rejects.toThrow(/MQTT_URL=mqtt:\/\/host:port/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('refuses a server username that could be a device Id', async () => {
    await expect(
      startEmbeddedBroker({ port: 0, authenticate: async () => false, serverCredentials: { username: 'server', password: 'p' }, log: recordingLog() }),
    ).rejects.toThrow(RangeError);
  });

  it('close() ends clients, half-open connections and the listener, leaving no handles behind', async () => {
    const baseline = process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length;
    await start();
    const chamber = await device(A);
    const server = await serverClient();
    // A socket that never sends CONNECT (aedes would wait 30 s for it).
    const silent = await new Promise<Socket>((resolve) => {
      const socket = new Socket();
      socket.connect(broker.port ?? 0, '127.0.0.1', () => resolve(socket));
    });
    const silentClosed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    await broker.close();
    await Promise.all([closed(chamber), closed(server.client), silentClosed]);
    await broker.close(); // idempotent

    // The port is free again and no TCP handle is left.
    const again: Server = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(broker.port ?? 0, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => again.close(resolve));
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    expect(process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length).toBe(baseline);
  });
});

/** Started in a child process: broker, a device with a persistent session, close(); the process must then exit by itself. */
const EXIT_SCRIPT = `
import mqtt from 'mqtt';
import { startEmbeddedBroker } from './server/mqtt/broker.ts';
const noop = () => {};
const log = { debug: noop, info: noop, warn: noop, error: noop };
const broker = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', authenticate: async (id, secret) => id === 'OC-X1' && secret === 's', serverCredentials: { username: 'oxygen.server', password: 'p' }, log });
const device = await mqtt.connectAsync('mqtt://127.0.0.1:' + broker.port, { username: 'OC-X1', password: 's', clientId: 'OC-X1', clean: false, reconnectPeriod: 0 });
await device.subscribeAsync('oc/OC-X1/cmd', { qos: 1 });
await broker.close();
console.log('closed');
`;

describe('embedded MQTT broker: process exit', () => {
  it('lets the process exit after close(), with nothing else to stop', async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', EXIT_SCRIPT], { timeout: 20_000, cwd: fileURLToPath(new URL('../..', import.meta.url)) }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
    expect(result).toMatchObject({ code: 0, stdout: 'closed\n' });
  });
});

describe('embedded MQTT broker with verifyDeviceSecret over SQLite', () => {
  const store = useStore('sqlite');

  it('admits a registered device with its secret and refuses a wrong or rotated one', async () => {
    const ctx = store.context();
    const secret = newDeviceSecret();
    await ctx.db
      .insertInto('devices')
      .values(deviceRow('OC-SQL1', 'SQL One', 1, 'Hall S', 'Stop', { secret_hash: hashDeviceSecret(secret) }))
      .execute();
    await start({ authenticate: (id, candidate) => verifyDeviceSecret(ctx, id, candidate) });

    const server = await serverClient();
    await server.client.subscribeAsync(serverSubscriptions(), { qos: 1 });
    const chamber = await connect({ username: 'OC-SQL1', password: secret, clientId: 'OC-SQL1' });
    await chamber.publishAsync(topicFor('OC-SQL1', 'telemetry'), '{"Time":1767600000000}', { qos: 1 });
    expect((await server.next((m) => m.topic === topicFor('OC-SQL1', 'telemetry'))).payload).toBe('{"Time":1767600000000}');

    expect(await refusedWith({ username: 'OC-SQL1', password: newDeviceSecret() })).toBe(4);
    expect(await refusedWith({ username: 'OC-SQL2', password: secret })).toBe(4);
    await ctx.db.updateTable('devices').set({ secret_hash: hashDeviceSecret(newDeviceSecret()) }).where('id', '=', 'OC-SQL1').execute();
    expect(await refusedWith({ username: 'OC-SQL1', password: secret })).toBe(4);
    expect(broker.counters.badCredentials).toBe(3);
    expect(allLogged()).not.toContain(secret);
  });
});
