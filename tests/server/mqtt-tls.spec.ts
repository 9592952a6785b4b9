import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import { hashDeviceSecret, newDeviceSecret } from '../../server/devices/registry';
import { startEmbeddedBroker } from '../../server/mqtt/broker';
import { newServerCredentials, type EmbeddedBroker, type EmbeddedBrokerOptions } from '../../server/mqtt/config';
import { topicFor } from '../../src/domain/mqtt/topics';
import { ChamberConnection } from '../../simulator/connection';
import { deviceRow } from './fleet';
import { STORE_KINDS, useStore } from './stores';
import { throwawayCertificate } from './tls-certificate';
import { silentBrokerLog } from './captured-log';

/**
 * The embedded broker's encrypted link and its limits (docs/mqtt.md, "TLS" and "Limits"): mqtt.js over TLS
 * with a throwaway self-signed certificate made by openssl; MQTT_PLAIN=off; the connections one device may
 * hold; refused sign-ins slowed per address and device; connection floods from one address.
 */

const DEVICE = 'OC-T1';
const OTHER = 'OC-T2';
const SECRET = newDeviceSecret();
const SERVER = newServerCredentials();
/** Another client address on the loopback network (mqtt.js hands its options to tls.connect, which takes it). */
const FROM_ELSEWHERE = { localAddress: '127.0.0.2' } as IClientOptions;

let dir = '';
let certFile = '';
let keyFile = '';
let ca: Buffer;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'oxygen-mqtt-tls-'));
  ({ certFile, keyFile } = throwawayCertificate(dir));
  ca = readFileSync(certFile);
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});

/** A connection over TLS that trusts the test certificate; rejects with the CONNACK code as `code` when refused. */
const overTls = async (port: number, options: IClientOptions): Promise<MqttClient> => {
  const client = await mqtt.connectAsync(`mqtts://127.0.0.1:${port}`, { ca, reconnectPeriod: 0, connectTimeout: 5000, ...options });
  clients.push(client);
  return client;
};

/** The refusal code of a connection attempt (undefined when the attempt failed without a CONNACK). */
const refusal = (attempt: Promise<MqttClient>): Promise<number | undefined> =>
  attempt.then(
    (client) => {
      clients.push(client);
      throw new Error('connected, expected a refusal');
    },
    (error: unknown) => (error as { code?: number }).code,
  );

describe.each(STORE_KINDS)('MQTT over TLS through the server (%s)', (kind) => {
  const store = useStore(kind);
  let app: FastifyInstance;

  beforeEach(async () => {
    await store.wipe();
    await store.database.db.insertInto('devices').values(deviceRow(DEVICE, 'TLS One', 1, 'Lab', 'Work', { secret_hash: hashDeviceSecret(SECRET) })).execute();
    const env = { MQTT_HOST: '127.0.0.1', MQTT_TLS_CERT: certFile, MQTT_TLS_KEY: keyFile, MQTT_TLS_PORT: '0', MQTT_PLAIN: 'off' };
    app = buildApp({ config: store.config(env), logger: false, mqtt: { serverCredentials: SERVER, ingest: { sweepIntervalMs: 0 } } });
    await app.ready();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    await app.close();
  });

  it('stores a reading a chamber publishes over TLS, and refuses a wrong secret', async () => {
    expect(app.mqtt.port).toBeNull();
    const port = app.mqtt.tlsPort ?? 0;
    expect(port).toBeGreaterThan(0);
    const chamber = await overTls(port, { username: DEVICE, password: SECRET, clientId: DEVICE });
    // The PUBACK of a QoS 1 reading means stored (docs/mqtt.md, "Acknowledgements").
    await chamber.publishAsync(topicFor(DEVICE, 'telemetry'), JSON.stringify({ Time: 1_767_600_000_000, RCP: 1.28, RCPi02: 22.4 }), { qos: 1 });
    const stored = await store.database.db.selectFrom('state_records').select(['device_id', 'time', 'rcp']).execute();
    expect(stored).toEqual([{ device_id: DEVICE, time: 1_767_600_000_000, rcp: 1.28 }]);

    expect(await refusal(overTls(port, { username: DEVICE, password: newDeviceSecret(), clientId: `${DEVICE}-x` }))).toBe(4);
    expect(app.mqtt.status()).toMatchObject({ broker: 'embedded', port: null, tlsPort: port, refused: { badCredentials: 1 } });
  });

  it('is TLS with that certificate: a client that does not trust it, or speaks plain MQTT to it, gets nowhere', async () => {
    const port = app.mqtt.tlsPort ?? 0;
    const untrusting = mqtt.connectAsync(`mqtts://127.0.0.1:${port}`, { username: DEVICE, password: SECRET, reconnectPeriod: 0, connectTimeout: 5000 });
    await expect(untrusting).rejects.toThrow(/self[- ]signed/i);
    const plain = mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { username: DEVICE, password: SECRET, reconnectPeriod: 0, connectTimeout: 5000 }, false);
    await expect(plain).rejects.toThrow();
  });
});

describe('the TLS and plain listeners in the configuration', () => {
  it('refuses combinations that cannot work, naming the variable', () => {
    const problems = (env: Record<string, string>): string => {
      try {
        loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems.join('\n');
        throw error;
      }
      return '';
    };
    expect(problems({ MQTT_TLS_CERT: 'broker.crt' })).toContain('MQTT_TLS_KEY must be set with MQTT_TLS_CERT');
    expect(problems({ MQTT_TLS_KEY: 'broker.key' })).toContain('MQTT_TLS_CERT must be set with MQTT_TLS_KEY');
    expect(problems({ MQTT_TLS_PORT: '8883' })).toContain('MQTT_TLS_PORT is the TLS listener');
    expect(problems({ MQTT_PLAIN: 'off' })).toContain('MQTT_PLAIN=off leaves the broker no listener');
    expect(problems({ MQTT_PLAIN: 'maybe' })).toContain('MQTT_PLAIN must be on or off');
    expect(problems({ MQTT_TLS_CERT: 'c', MQTT_TLS_KEY: 'k', MQTT_TLS_PORT: '1883' })).toContain('MQTT_TLS_PORT must differ from MQTT_PORT');
    expect(problems({ MQTT_URL: 'mqtt://broker', MQTT_TLS_CERT: 'c', MQTT_TLS_KEY: 'k' })).toContain("MQTT_TLS_CERT is the embedded broker's");
    expect(problems({ MQTT_URL: 'mqtt://broker', MQTT_CONNECTIONS_PER_DEVICE: '3' })).toContain("MQTT_CONNECTIONS_PER_DEVICE is the embedded broker's");
    expect(problems({ MQTT_CONNECTIONS_PER_DEVICE: '0' })).toContain('MQTT_CONNECTIONS_PER_DEVICE must be a whole number from 1 to 100');
  });

  it('reads the TLS listener and the limits, relative paths from the working directory', () => {
    expect(loadConfig({ MQTT_TLS_CERT: 'tls/broker.crt', MQTT_TLS_KEY: '/etc/oxygen/broker.key', MQTT_PLAIN: 'OFF' }, { cwd: '/srv' }).mqtt).toEqual({
      kind: 'embedded',
      port: 1883,
      host: '0.0.0.0',
      plain: false,
      tls: { port: 8883, certFile: '/srv/tls/broker.crt', keyFile: '/etc/oxygen/broker.key' },
      limits: { connectionsPerDevice: 2, connectsPerAddressPerMinute: 300, loginFailuresPerHour: 10 },
    });
    const limits = { MQTT_CONNECTIONS_PER_DEVICE: '1', MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE: '50', MQTT_LOGIN_FAILURES_PER_HOUR: '3' };
    expect(loadConfig(limits).mqtt).toMatchObject({ limits: { connectionsPerDevice: 1, connectsPerAddressPerMinute: 50, loginFailuresPerHour: 3 } });
  });

  it('stops the server at start, naming the variable, when a file cannot be read or is no certificate', async () => {
    const store = { config: (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, MQTT_HOST: '127.0.0.1', MQTT_PORT: '0', MQTT_TLS_PORT: '0', LOG_LEVEL: 'silent', ...env }) };
    const missing = buildApp({ config: store.config({ MQTT_TLS_CERT: path.join(dir, 'absent.crt'), MQTT_TLS_KEY: keyFile }), logger: false, mqtt: true });
    await expect(missing.ready()).rejects.toThrow(/MQTT_TLS_CERT .*absent\.crt cannot be read/);
    await missing.close();
    const swapped = buildApp({ config: store.config({ MQTT_TLS_CERT: keyFile, MQTT_TLS_KEY: keyFile }), logger: false, mqtt: true });
    await expect(swapped.ready()).rejects.toThrow(/MQTT_TLS_CERT and MQTT_TLS_KEY are not a certificate and its private key/);
    await swapped.close();
  });
});

/** `count` connection attempts at once over plain MQTT, each failing when refused or closed; answers the clients that got in. */
const attemptAll = async (port: number, count: number, options: (n: number) => IClientOptions): Promise<MqttClient[]> => {
  const attempts = await Promise.allSettled(
    Array.from({ length: count }, (_, n) => mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, ...options(n) }, false)),
  );
  const connected = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
  clients.push(...connected);
  return connected;
};

describe('the embedded broker limits', () => {
  let broker: EmbeddedBroker;

  const start = async (overrides: Partial<EmbeddedBrokerOptions> = {}) => {
    broker = await startEmbeddedBroker({
      port: 0,
      host: '127.0.0.1',
      tls: { port: 0, cert: ca, key: readFileSync(keyFile) },
      authenticate: async (id, secret) => (id === DEVICE || id === OTHER) && secret === SECRET,
      serverCredentials: SERVER,
      log: silentBrokerLog,
      ...overrides,
    });
  };

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    await broker.close();
  });

  it('takes the simulator\'s chambers over TLS (--ca)', async () => {
    await start();
    const observer = await overTls(broker.tlsPort ?? 0, { username: SERVER.username, password: SERVER.password, clientId: `${SERVER.username}.observer` });
    await observer.subscribeAsync(topicFor(DEVICE, 'status'), { qos: 1 });
    const online = new Promise<string>((resolve) => observer.once('message', (_topic, payload) => resolve(payload.toString())));
    const chamber = new ChamberConnection({
      url: `mqtts://127.0.0.1:${broker.tlsPort ?? 0}`,
      ca,
      deviceId: DEVICE,
      secret: SECRET,
      renewSecret: () => Promise.reject(new Error('not expected')),
      onCommand: () => undefined,
      onConnect: () => undefined,
      onProblem: (problem) => {
        throw new Error(problem);
      },
    });
    try {
      expect(await online).toBe('online');
    } finally {
      await chamber.close();
    }
  });

  it('lets one device hold MQTT_CONNECTIONS_PER_DEVICE connections (default 2), refusing the next; a reconnection under the same client id is not one more', async () => {
    await start();
    const port = broker.tlsPort ?? 0;
    await overTls(port, { username: DEVICE, password: SECRET, clientId: DEVICE });
    const second = await overTls(port, { username: DEVICE, password: SECRET, clientId: `${DEVICE}-tool` });
    expect(await refusal(overTls(port, { username: DEVICE, password: SECRET, clientId: `${DEVICE}-third` }))).toBe(3);
    expect(broker.counters.deviceConnectionLimit).toBe(1);
    // The chamber itself reconnecting (its old connection not yet seen gone) takes its own place.
    const back = await overTls(port, { username: DEVICE, password: SECRET, clientId: DEVICE });
    expect(back.connected).toBe(true);
    // Another device is not concerned.
    await overTls(port, { username: OTHER, password: SECRET, clientId: OTHER });
    // Once one closes, a new one may come (as soon as the broker has seen the close).
    await second.endAsync();
    let third: MqttClient | undefined;
    for (let attempt = 0; third === undefined; attempt += 1) {
      third = await overTls(port, { username: DEVICE, password: SECRET, clientId: `${DEVICE}-third` }).catch((error: unknown) => {
        if ((error as { code?: number }).code !== 3 || attempt === 50) throw error;
        return new Promise<undefined>((resolve) => setTimeout(resolve, 20));
      });
    }
    expect(third.connected).toBe(true);
  });

  it('turns away 200 simultaneous connections with one device\'s credentials but its allowance', async () => {
    await start({ limits: { connectsPerAddressPerMinute: 1000 } });
    const port = broker.port ?? 0;
    const connected = await attemptAll(port, 200, (n) => ({ username: DEVICE, password: SECRET, clientId: `${DEVICE}-${n}` }));
    expect(connected.length).toBe(2);
    expect(broker.counters.deviceConnectionLimit).toBe(198);
  });

  it('slows failed sign-ins per address and device: after MQTT_LOGIN_FAILURES_PER_HOUR the right secret is refused unchecked from that address only', async () => {
    await start({ limits: { loginFailuresPerHour: 3 } });
    const port = broker.tlsPort ?? 0;
    for (let n = 0; n < 3; n += 1) expect(await refusal(overTls(port, { username: DEVICE, password: 'guess', clientId: `${DEVICE}-g${n}` }))).toBe(4);
    expect(await refusal(overTls(port, { username: DEVICE, password: SECRET, clientId: DEVICE }))).toBe(3);
    expect(broker.counters).toMatchObject({ badCredentials: 3, signInThrottled: 1 });
    // The same device from another address, and another device from this one, are not slowed.
    const elsewhere = await overTls(port, { username: DEVICE, password: SECRET, clientId: DEVICE, ...FROM_ELSEWHERE });
    expect(elsewhere.connected).toBe(true);
    const neighbour = await overTls(port, { username: OTHER, password: SECRET, clientId: OTHER });
    expect(neighbour.connected).toBe(true);
  });

  it('closes the connections of an address that opens more than MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE, before reading them', async () => {
    await start({ limits: { connectsPerAddressPerMinute: 5 } });
    const port = broker.port ?? 0;
    // The server's own identity: no per-device limit, so the address's is the only one in play.
    const connected = await attemptAll(port, 8, (n) => ({ username: SERVER.username, password: SERVER.password, clientId: `${SERVER.username}.t${n}` }));
    expect(connected.length).toBe(5);
    expect(broker.counters.addressRateLimited).toBe(3);
    // Another address still gets in.
    const elsewhere = await overTls(broker.tlsPort ?? 0, { username: OTHER, password: SECRET, clientId: OTHER, ...FROM_ELSEWHERE });
    expect(elsewhere.connected).toBe(true);
  });
});
