import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { liveTopicFor } from '../../src/domain/live';
import { lastWillFor } from '../../src/domain/mqtt/payloads';
import { topicFor } from '../../src/domain/mqtt/topics';
import type { FastifyInstance } from 'fastify';
import type { LiveEvent } from '../../src/domain/live';
import { buildApp } from '../../server/app';
import { createClientTransport, type ClientTransport } from '../../server/mqtt/client';
import type { InboundMessage } from '../../server/mqtt/transport';
import { deviceRow } from './fleet';
import { cuttableLink } from './mqtt-relay';
import { useStore } from './stores';
import { silentBrokerLog } from './captured-log';

/**
 * The external-broker transport against this machine's Mosquitto (127.0.0.1:1883, anonymous; override
 * with TEST_MQTT_URL), as a server started with MQTT_URL uses it. These tests never skip: without
 * Mosquitto they fail, saying so (CI starts it: .ci/run).
 *
 * The broker is shared with whatever else runs on the machine, so each test uses its own share group,
 * device Ids and client ids, counts only its own devices' messages, and ends its sessions afterwards.
 * The last tests start a Mosquitto of their own with the configuration docs/mqtt.md shows.
 */

const BROKER_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const RUN = randomBytes(3).toString('hex');
const tick = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

const transports: ClientTransport[] = [];
const devices: MqttClient[] = [];
const clientIds = new Set<string>();
let test = 0;

/** Names unique to one test: its share group, a device Id, a client id maker. */
const names = () => {
  test += 1;
  const tag = `${RUN}${test}`;
  return { group: `oxygen-test-${tag}`, deviceId: `T-${tag}`, clientId: (n: number) => `oxygen.test.${tag}.${n}` };
};

const serverTransport = async (url: string, clientId: string, group: string): Promise<ClientTransport> => {
  clientIds.add(clientId);
  const transport = await createClientTransport({ broker: 'external', url, username: undefined, password: undefined, clientId, shareGroup: group, log: silentBrokerLog, reconnectPeriodMs: 100 });
  transports.push(transport);
  return transport;
};

/** A chamber on the broker (anonymous: Mosquitto's own ACL is not what these tests are about). */
const chamber = async (): Promise<MqttClient> => {
  const client = await mqtt.connectAsync(BROKER_URL, { reconnectPeriod: 0, connectTimeout: 5000 });
  devices.push(client);
  return client;
};

/** Records this test's device messages (settling them unless told not to); others are settled at once. */
const inbox = (deviceId: string, settle: boolean) => {
  const got: InboundMessage[] = [];
  const handler = (message: InboundMessage): void => {
    if (!message.topic.startsWith(`oc/${deviceId}/`)) {
      message.settle();
      return;
    }
    got.push(message);
    if (settle) message.settle();
  };
  return { got, handler };
};

const until = async (condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
  for (const deadline = Date.now() + timeoutMs; !condition(); await tick(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

beforeAll(async () => {
  const probe = await mqtt.connectAsync(BROKER_URL, { reconnectPeriod: 0, connectTimeout: 3000 }).catch((error: unknown) => {
    throw new Error(
      `Mosquitto is required by these tests but is not reachable at ${BROKER_URL} (${error instanceof Error ? error.message : String(error)}). ` +
        'Start it (mosquitto -d -c /etc/mosquitto/mosquitto.conf) or set TEST_MQTT_URL. These tests never skip.',
    );
  });
  await probe.endAsync();
});

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  await Promise.all(devices.splice(0).map((device) => device.endAsync(true)));
});

afterAll(async () => {
  // End this run's persistent sessions: a clean start with no expiry discards them on the broker.
  for (const clientId of clientIds) {
    const client = await mqtt.connectAsync(BROKER_URL, { clientId, protocolVersion: 5, clean: true, reconnectPeriod: 0 }).catch(() => undefined);
    await client?.endAsync();
  }
});

describe('external broker transport (Mosquitto)', () => {
  it('splits device messages between two server transports of one group, each handled exactly once; both get every live event', async () => {
    const { group, deviceId, clientId } = names();
    const one = await serverTransport(BROKER_URL, clientId(1), group);
    const two = await serverTransport(BROKER_URL, clientId(2), group);
    const first = inbox(deviceId, true);
    const second = inbox(deviceId, true);
    await one.start(first.handler);
    await two.start(second.handler);
    const live: string[][] = [[], []];
    await one.subscribeLive((topic, payload) => topic === liveTopicFor(deviceId) && live[0]?.push(payload.toString()));
    await two.subscribeLive((topic, payload) => topic === liveTopicFor(deviceId) && live[1]?.push(payload.toString()));

    const device = await chamber();
    const sent = Array.from({ length: 40 }, (_, index) => `{"Time":${1767600000000 + index * 1000}}`);
    for (const payload of sent) await device.publishAsync(topicFor(deviceId, 'telemetry'), payload, { qos: 1 });
    await device.publishAsync(topicFor(deviceId, 'status'), 'online', { qos: 1 });
    await until(() => first.got.length + second.got.length >= sent.length + 1, 'every message');
    await tick(300); // nothing arrives twice

    const handled = [...first.got, ...second.got].map((message) => message.payload.toString());
    expect(handled.toSorted()).toEqual([...sent, 'online'].toSorted());
    expect(first.got.length).toBeGreaterThan(0);
    expect(second.got.length).toBeGreaterThan(0);
    expect([...first.got, ...second.got].every((message) => message.qos === 1)).toBe(true);

    // The live relay is not shared: both get each event, whoever published it.
    await one.publish(liveTopicFor(deviceId), 'e1', { qos: 0, retain: false });
    await two.publish(liveTopicFor(deviceId), 'e2', { qos: 0, retain: false });
    await until(() => live.every((got) => got.length >= 2), 'both live events in both');
    expect(live.map((got) => got.toSorted())).toEqual([
      ['e1', 'e2'],
      ['e1', 'e2'],
    ]);
  });

  it('sends an unsettled message again after the connection is lost, and a settle from the lost connection acknowledges nothing', async () => {
    const { group, deviceId, clientId } = names();
    const link = await cuttableLink(BROKER_URL);
    try {
      const server = await serverTransport(link.url, clientId(1), group);
      const { got, handler } = inbox(deviceId, false);
      await server.start(handler);
      const device = await chamber();
      await device.publishAsync(topicFor(deviceId, 'telemetry'), '{"Time":1767600000000}', { qos: 1 });
      await until(() => got.length === 1, 'the message');
      expect(server.pending).toBe(1);

      link.cut();
      await until(() => got.length === 2, 'the message again after reconnecting');
      expect(got[1]?.payload.toString()).toBe('{"Time":1767600000000}');
      expect(server.reconnects).toBe(1);

      // Settling the first copy now writes nothing on the new connection: the broker still holds the message.
      got[0]?.settle();
      link.cut();
      await until(() => got.length === 3, 'the message a third time');

      // Settled on its own connection, it is acknowledged: after another cut nothing comes back.
      got[2]?.settle();
      await tick(200);
      link.cut();
      await until(() => server.reconnects === 3 && server.connected, 'the third reconnection');
      await tick(500);
      expect(got).toHaveLength(3);
    } finally {
      await link.close();
    }
  });

  it('leaves what it did not settle to the next start under the same client id (a restart)', async () => {
    const { group, deviceId, clientId } = names();
    const before = await serverTransport(BROKER_URL, clientId(1), group);
    const first = inbox(deviceId, false);
    await before.start(first.handler);
    const device = await chamber();
    await device.publishAsync(topicFor(deviceId, 'telemetry'), '{"Time":1767600000000}', { qos: 1 });
    await until(() => first.got.length === 1, 'the message');
    await before.close();

    // Sent while the server was away: the broker keeps it in the session too.
    await device.publishAsync(topicFor(deviceId, 'telemetry'), '{"Time":1767600001000}', { qos: 1 });
    const after = await serverTransport(BROKER_URL, clientId(1), group);
    const second = inbox(deviceId, true);
    await after.start(second.handler);
    await until(() => second.got.length === 2, 'both messages after the restart');
    expect(second.got.map((message) => message.payload.toString())).toEqual(['{"Time":1767600000000}', '{"Time":1767600001000}']);
  });

  it('fails to start with a message naming MQTT_URL when the broker cannot be reached', async () => {
    const link = await cuttableLink(BROKER_URL);
    await link.close(); // nothing listens on its port any more
    await expect(serverTransport(link.url, 'oxygen.test.unreachable', 'g')).rejects.toThrow(
      new RegExp(`cannot connect to the MQTT broker at ${link.url.replace(/[.]/g, '\\.')} \\(MQTT_URL\\)`),
    );
  });
});

describe('two servers on one external broker (MQTT_URL) and one PostgreSQL store', () => {
  const store = useStore('postgres');
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('split the readings (each stored once), relay every live event to both, and send commands', async () => {
    const { group, deviceId, clientId } = names();
    await store.database.db.insertInto('devices').values(deviceRow(deviceId, 'Shared', 1, 'Lab', 'Work')).execute();
    const server = async (n: number): Promise<FastifyInstance> => {
      clientIds.add(clientId(n));
      const app = buildApp({ config: store.config({ MQTT_URL: BROKER_URL, MQTT_CLIENT_ID: clientId(n) }), logger: false, mqtt: { shareGroup: group } });
      apps.push(app);
      await app.ready();
      return app;
    };
    const [one, two] = [await server(1), await server(2)];
    const delivered: LiveEvent[][] = [[], []];
    one.ctx.live.subscribe((event) => delivered[0]?.push(event));
    two.ctx.live.subscribe((event) => delivered[1]?.push(event));

    const device = await chamber();
    await device.subscribeAsync(topicFor(deviceId, 'cmd'), { qos: 1 });
    const first = Date.now() - 60_000;
    const times = Array.from({ length: 30 }, (_, index) => first + index * 1000);
    for (const time of times) await device.publishAsync(topicFor(deviceId, 'telemetry'), JSON.stringify({ Time: time, RCP: 1.25 }), { qos: 1 });

    const storedBy = (app: FastifyInstance) => app.ingest.counters.stored;
    await until(() => storedBy(one) + storedBy(two) === times.length, 'every reading stored');
    expect(storedBy(one)).toBeGreaterThan(0);
    expect(storedBy(two)).toBeGreaterThan(0);
    const rows = await store.database.db.selectFrom('state_records').select('time').where('device_id', '=', deviceId).orderBy('time').execute();
    expect(rows.map((row) => Number(row.time))).toEqual(times);
    expect(one.mqtt.status()).toMatchObject({ broker: 'external', connected: true, reconnects: 0, pending: 0 });

    // Each server's live events reach the other's viewers too.
    const mark = (n: number): LiveEvent => ({ type: 'device', data: { Id: deviceId, UpdateTime: n } });
    one.ctx.live.publish(mark(1));
    two.ctx.live.publish(mark(2));
    const marks = (events: LiveEvent[]) => events.filter((event) => event.type === 'device' && event.data.UpdateTime !== undefined).length;
    await until(() => delivered.every((events) => marks(events) === 2), 'both marks in both servers');

    const command = new Promise<string>((resolve) => device.once('message', (_topic, payload) => resolve(payload.toString())));
    await two.ctx.link.sendCommand(deviceId, { cmdId: 'c-shared', type: 'state', Time: Date.now(), State: 'Stop' });
    expect(JSON.parse(await command)).toMatchObject({ cmdId: 'c-shared', State: 'Stop' });
  });
});

/** A fenced block of docs/mqtt.md, found by the line that introduces it. */
const docBlock = (doc: string, intro: string): string => {
  const start = doc.indexOf(`${intro}\n\n\`\`\`conf\n`);
  if (start < 0) throw new Error(`docs/mqtt.md has no block after ${intro}`);
  const body = start + intro.length + '\n\n```conf\n'.length;
  return doc.slice(body, doc.indexOf('```', body));
};

describe("the Mosquitto configuration of docs/mqtt.md gives the embedded broker's rights", () => {
  let dir = '';
  let broker: ChildProcess | undefined;
  let url = '';
  const serverPassword = randomBytes(12).toString('base64url');
  const secrets = { 'OC-DOC1': randomBytes(12).toString('base64url'), 'OC-DOC2': randomBytes(12).toString('base64url') };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'oxygen-mosquitto-'));
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/mqtt.md'), 'utf8');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    await new Promise((resolve) => probe.close(resolve));
    url = `mqtt://127.0.0.1:${port}`;

    // The documented files, with this test's paths and port; no persistence; root keeps reading them.
    const conf = docBlock(doc, '`/etc/mosquitto/mosquitto.conf`:')
      .replace('/etc/mosquitto/passwd', path.join(dir, 'passwd'))
      .replace('/etc/mosquitto/acl', path.join(dir, 'acl'))
      .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
      .replace(/^persistence true$/m, 'persistence false')
      .replace(/^persistence_location .*$/m, '');
    writeFileSync(path.join(dir, 'mosquitto.conf'), `${conf}\nuser root\n`);
    writeFileSync(path.join(dir, 'acl'), docBlock(doc, '`/etc/mosquitto/acl`:'));
    execFileSync('mosquitto_passwd', ['-c', '-b', path.join(dir, 'passwd'), 'oxygen.server', serverPassword]);
    for (const [id, secret] of Object.entries(secrets)) execFileSync('mosquitto_passwd', ['-b', path.join(dir, 'passwd'), id, secret]);

    const started = spawn('mosquitto', ['-c', path.join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    broker = started;
    let output = '';
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (const deadline = Date.now() + 10_000; ; await tick(100)) {
      if (started.exitCode !== null) throw new Error(`mosquitto exited (${started.exitCode}):\n${output}`);
      const up = await mqtt.connectAsync(url, { reconnectPeriod: 0, username: 'oxygen.server', password: serverPassword }).catch(() => undefined);
      if (up !== undefined) {
        await up.endAsync();
        break;
      }
      if (Date.now() > deadline) throw new Error(`mosquitto did not start:\n${output}`);
    }
  });

  afterAll(() => {
    broker?.kill('SIGTERM');
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const device = async (id: keyof typeof secrets, password: string = secrets[id]): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(url, {
      username: id,
      password,
      clientId: id,
      reconnectPeriod: 0,
      will: { ...lastWillFor(id), payload: Buffer.from('offline') },
    });
    devices.push(client);
    return client;
  };

  it("lets the server take device messages, relay live events and send commands; a device only its own topics", async () => {
    const server = await createClientTransport({
      broker: 'external',
      url,
      username: 'oxygen.server',
      password: serverPassword,
      clientId: 'oxygen.server.doc',
      log: silentBrokerLog,
    });
    transports.push(server);
    const got: string[] = [];
    await server.start((message) => {
      got.push(`${message.topic} ${message.payload.toString()}`);
      message.settle();
    });
    const live: string[] = [];
    await server.subscribeLive((topic, payload) => live.push(`${topic} ${payload.toString()}`));

    const one = await device('OC-DOC1');
    const two = await device('OC-DOC2');
    await one.subscribeAsync([topicFor('OC-DOC1', 'cmd'), topicFor('OC-DOC2', 'cmd'), 'oc/#', 'oxygen-live/+'], { qos: 1 }).catch(() => undefined);
    const oneGot: string[] = [];
    one.on('message', (topic, payload) => oneGot.push(`${topic} ${payload.toString()}`));

    // Its own topics pass; another device's, a cmd topic and the live relay do not (Mosquitto drops them).
    await one.publishAsync(topicFor('OC-DOC2', 'telemetry'), 'forged', { qos: 1 });
    await one.publishAsync(topicFor('OC-DOC2', 'cmd'), 'forged', { qos: 1 });
    await one.publishAsync(liveTopicFor('OC-DOC2'), 'forged', { qos: 1 });
    for (const kind of ['telemetry', 'event', 'ack'] as const) await one.publishAsync(topicFor('OC-DOC1', kind), kind, { qos: 1 });
    await one.publishAsync(topicFor('OC-DOC1', 'status'), 'online', { qos: 1, retain: true });
    await until(() => got.length >= 4, "the device's own four messages");

    await server.publish(liveTopicFor('OC-DOC1'), 'event', { qos: 0, retain: false });
    await until(() => live.length === 1, 'the live event');
    await server.publish(topicFor('OC-DOC2', 'cmd'), 'for-two', { qos: 1, retain: false });
    await server.publish(topicFor('OC-DOC1', 'cmd'), 'for-one', { qos: 1, retain: false });
    await until(() => oneGot.length >= 1, 'its own command');
    await tick(300);

    expect(got.toSorted()).toEqual(
      [`${topicFor('OC-DOC1', 'telemetry')} telemetry`, `${topicFor('OC-DOC1', 'event')} event`, `${topicFor('OC-DOC1', 'ack')} ack`, `${topicFor('OC-DOC1', 'status')} online`].toSorted(),
    );
    expect(live).toEqual([`${liveTopicFor('OC-DOC1')} event`]);
    expect(oneGot).toEqual([`${topicFor('OC-DOC1', 'cmd')} for-one`]);
    expect(two.connected).toBe(true);
  });

  it('refuses a wrong secret, and a device cannot use the server user', async () => {
    await expect(device('OC-DOC1', secrets['OC-DOC2'])).rejects.toThrow(/Not authorized|Bad username or password/);
    await expect(mqtt.connectAsync(url, { reconnectPeriod: 0, username: 'oxygen.server', password: secrets['OC-DOC1'] })).rejects.toThrow(
      /Not authorized|Bad username or password/,
    );
  });
});
