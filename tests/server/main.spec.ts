import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastWillFor } from '../../src/domain/mqtt/payloads';
import { topicFor } from '../../src/domain/mqtt/topics';
import { buildServer, killServers, startServer, type ServerProcess } from './server-process';
import { throwawayCertificate } from './tls-certificate';

/**
 * server/main.ts as a real process: start, serve, SIGTERM → exit 0. SQLite in a temp DATA_DIR; the
 * embedded MQTT broker on a free port (MQTT_PORT 0, never 1883: this machine's Mosquitto holds it).
 */

interface Started extends ServerProcess {
  /** The embedded broker's port, from the "ready at" line (0 with an external broker). */
  mqttPort: number;
}

const devices: MqttClient[] = [];

const start = async (env: Record<string, string>, args: string[] = [], broker = /MQTT broker on port (\d+)/, compiled?: string): Promise<Started> => {
  const started = await startServer({ env: { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', ...env }, args, compiled });
  const note = broker.exec(started.ready);
  if (note === null) throw new Error(`the ready line does not name the broker (${String(broker)}): ${started.ready}`);
  return { ...started, mqttPort: Number(note[1] ?? 0) };
};

describe('server/main.ts', () => {
  let dataDir = '';
  /** A store first started with --demo (admin's password Admin2026), for the MQTT tests. */
  let demoDir = '';
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'oxygen-main-'));
    demoDir = mkdtempSync(path.join(tmpdir(), 'oxygen-main-demo-'));
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((client) => client.endAsync(true)));
    killServers();
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(demoDir, { recursive: true, force: true });
  });

  const env = () => ({ DATA_DIR: dataDir, CONSOLE_DIR: path.join(dataDir, 'no-console') });
  const demoEnv = () => ({ DATA_DIR: demoDir, CONSOLE_DIR: path.join(demoDir, 'no-console') });

  const adminToken = async (base: string): Promise<string> => {
    const login = await fetch(`${base}/upstream/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'admin', Code: 'Admin2026' }),
    });
    return ((await login.json()) as { data: { token: string } }).data.token;
  };

  /** Registers a chamber through the REST API; answers its secret. */
  const registerDevice = async (base: string, token: string, Id: string): Promise<string> => {
    const response = await fetch(`${base}/api/v1/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ Id, name: Id, Type: 1, Location: 'Test bench' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { secret: string }).secret;
  };

  const device = async (mqttPort: number, id: string, secret: string): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      username: id,
      password: secret,
      clientId: id,
      reconnectPeriod: 0,
      will: { ...lastWillFor(id), payload: Buffer.from('offline') },
    });
    devices.push(client);
    return client;
  };

  /** The reading times stored for a device, read from the SQLite file as another process would. */
  const storedTimes = (deviceId: string): number[] => {
    const reader = new SqliteDatabase(path.join(demoDir, 'oxygen.db'), { readonly: true, fileMustExist: true });
    try {
      const rows = reader.prepare('select time from state_records where device_id = ? order by time').all(deviceId) as { time: number }[];
      return rows.map((row) => row.time);
    } finally {
      reader.close();
    }
  };

  it('starts, prints the generated password once, serves, and exits 0 on SIGTERM', async () => {
    const server = await start(env());
    // Liveness alone without a token: the broker's counters are the super administrator's to read.
    const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });

    const login = await fetch(`http://127.0.0.1:${server.port}/upstream/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'admin', Code: 'Wrong2026' }),
    });
    expect(await login.json()).toMatchObject({ code: 20000, data: { State: false } });

    const notices = server.output().match(/password: \S+/g) ?? [];
    expect(notices).toHaveLength(1);
    const password = notices[0]?.slice('password: '.length) ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);

    server.child.kill('SIGTERM');
    expect(await server.exit).toEqual({ code: 0, signal: null });
    // The password went to stdout once, never through the logger.
    expect(server.output().split(password).length - 1).toBe(1);
  });

  it('does not print a password again on the next start; --demo adds the demo accounts; SIGINT exits 0', async () => {
    const server = await start(env(), ['--demo']);
    expect(server.output()).not.toMatch(/password: /);
    expect(server.output()).toContain('demo accounts created: first, second, client');
    expect(server.output()).toContain('demo fleet added: 12 devices, 14 assignments, 3600 state records, 60 orders');
    const login = await fetch(`http://127.0.0.1:${server.port}/upstream/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'client', Code: 'Client2026' }),
    });
    expect(await login.json()).toMatchObject({ code: 20000, data: { State: true, Level: 3 } });
    server.child.kill('SIGINT');
    expect(await server.exit).toEqual({ code: 0, signal: null });
  });

  it('with WORKERS=2 prepares the store once, answers from two workers, and stops them all on SIGTERM (exit 0)', async () => {
    const server = await start({ ...env(), WORKERS: '2' }, ['--demo']);
    expect(server.output()).toContain('2 workers');
    // The store was prepared before (earlier tests): the primary found it ready, no worker touched it.
    expect(server.output()).toContain('demo fleet already present');
    expect(server.output().match(/demo accounts/g) ?? []).toHaveLength(1);
    // Each worker logs its own "Server listening" from its own process: it may reach the pipe just after the primary's "ready".
    const listeningLines = () => server.output().match(/"pid":(\d+)[^\n]*Server listening/g) ?? [];
    for (let wait = 0; wait < 50 && listeningLines().length < 2; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const listening = listeningLines();
    expect(listening).toHaveLength(2);
    const workerPids = listening.map((line) => Number(/"pid":(\d+)/.exec(line)?.[1]));
    expect(workerPids).not.toContain(server.child.pid);

    // Sign in through one worker, use the token through the others (sessions live in the store).
    const base = `http://127.0.0.1:${server.port}`;
    const login = await fetch(`${base}/upstream/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'client', Code: 'Client2026' }),
    });
    const signedIn = (await login.json()) as { code: number; data: { token: string } };
    expect(signedIn.code).toBe(20000);
    for (let round = 0; round < 6; round += 1) {
      const info = await fetch(`${base}/upstream/api/user/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${signedIn.data.token}`, connection: 'close' },
        body: '{}',
      });
      expect(await info.json()).toMatchObject({ code: 20000, data: { Account: 'client' } });
    }

    server.child.kill('SIGTERM');
    expect(await server.exit).toEqual({ code: 0, signal: null });
    for (const pid of workerPids) expect(() => process.kill(pid, 0)).toThrow();
  }, 90_000);

  it('with WORKERS=2 and the embedded broker: the primary ingests, the workers reach its broker (disconnecting a rotated device)', async () => {
    const server = await start({ ...demoEnv(), WORKERS: '2' }, ['--demo']);
    const base = `http://127.0.0.1:${server.port}`;
    // Both workers are clients of the primary's broker.
    const token = await adminToken(base);
    for (let round = 0; round < 4; round += 1) {
      const health = await fetch(`${base}/healthz`, { headers: { connection: 'close', authorization: `Bearer ${token}` } });
      expect(await health.json()).toMatchObject({ status: 'ok', mqtt: { broker: 'primary', connected: true } });
    }
    const secret = await registerDevice(base, token, 'OC-WRK1');
    const chamber = await device(server.mqttPort, 'OC-WRK1', secret);
    const time = Date.now() - 60_000;
    await chamber.publishAsync(topicFor('OC-WRK1', 'telemetry'), JSON.stringify({ Time: time, RCP: 1.3 }), { qos: 1 });
    expect(storedTimes('OC-WRK1')).toEqual([time]);

    // A worker answers the rotation; the primary's broker ends the device's connection.
    const gone = new Promise<void>((resolve) => chamber.once('close', () => resolve()));
    const rotated = await fetch(`${base}/api/v1/devices/OC-WRK1/secret`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(rotated.status).toBe(200);
    await gone;

    server.child.kill('SIGTERM');
    expect(await server.exit).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('compiled (npm run build:server) and run with plain node: stores a reading through its writer thread, logs no error, exits 0', async () => {
    const built = await buildServer();
    try {
      const server = await start(demoEnv(), ['--demo'], undefined, built.dir);
      const base = `http://127.0.0.1:${server.port}`;
      const token = await adminToken(base);
      const secret = await registerDevice(base, token, 'OC-JS1');
      const chamber = await device(server.mqttPort, 'OC-JS1', secret);
      const time = Date.now() - 60_000;
      // Acknowledged once the writer thread (a .js file beside main.js) committed it.
      await chamber.publishAsync(topicFor('OC-JS1', 'telemetry'), JSON.stringify({ Time: time, RCP: 1.3 }), { qos: 1 });
      expect(storedTimes('OC-JS1')).toEqual([time]);
      server.child.kill('SIGTERM');
      expect(await server.exit).toEqual({ code: 0, signal: null });
      expect(server.output()).not.toMatch(/"level":[56]0/);
    } finally {
      await built.remove();
    }
  }, 90_000);

  it('with TLS only (MQTT_PLAIN=off) and WORKERS=2: names the TLS port, stores over TLS, and the workers still reach the broker on 127.0.0.1', async () => {
    const tlsDir = mkdtempSync(path.join(tmpdir(), 'oxygen-main-tls-'));
    try {
      const { certFile, keyFile } = throwawayCertificate(tlsDir);
      const tls = { MQTT_TLS_CERT: certFile, MQTT_TLS_KEY: keyFile, MQTT_TLS_PORT: '0', MQTT_PLAIN: 'off' };
      const server = await start({ ...demoEnv(), WORKERS: '2', ...tls }, ['--demo'], /MQTT broker on TLS port (\d+) \(plain MQTT off\)/);
      const base = `http://127.0.0.1:${server.port}`;
      const token = await adminToken(base);
      const secret = await registerDevice(base, token, 'OC-TLS1');
      const chamber = await mqtt.connectAsync(`mqtts://127.0.0.1:${server.mqttPort}`, { ca: readFileSync(certFile), username: 'OC-TLS1', password: secret, clientId: 'OC-TLS1', reconnectPeriod: 0 });
      devices.push(chamber);
      const time = Date.now() - 60_000;
      await chamber.publishAsync(topicFor('OC-TLS1', 'telemetry'), JSON.stringify({ Time: time, RCP: 1.3 }), { qos: 1 });
      expect(storedTimes('OC-TLS1')).toEqual([time]);
      // A worker's rotation reaches the primary's broker (over its loopback listener) and ends the connection.
      const gone = new Promise<void>((resolve) => chamber.once('close', () => resolve()));
      const rotated = await fetch(`${base}/api/v1/devices/OC-TLS1/secret`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(rotated.status).toBe(200);
      await gone;
      server.child.kill('SIGTERM');
      expect(await server.exit).toEqual({ code: 0, signal: null });
    } finally {
      rmSync(tlsDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('with WORKERS=2 and MQTT_URL (Mosquitto): every worker is a full client, storing what chambers publish', async () => {
    const clientId = `oxygen.test.main-${process.pid}`;
    const broker = 'mqtt://127.0.0.1:1883';
    try {
      // Empty is unset: no embedded broker settings beside MQTT_URL. A group of its own, so that no other
      // server on this broker (another test, a demo) takes a share of what the chambers publish.
      const external = { ...demoEnv(), MQTT_PORT: '', MQTT_HOST: '', WORKERS: '2', MQTT_URL: broker, MQTT_CLIENT_ID: clientId, MQTT_SHARE_GROUP: `main${process.pid}` };
      const server = await start(external, ['--demo'], /MQTT external broker/);
      const base = `http://127.0.0.1:${server.port}`;
      const token = await adminToken(base);
      for (let round = 0; round < 4; round += 1) {
        const health = await fetch(`${base}/healthz`, { headers: { connection: 'close', authorization: `Bearer ${token}` } });
        expect(await health.json()).toMatchObject({ status: 'ok', mqtt: { broker: 'external', connected: true, reconnects: 0 } });
      }
      await registerDevice(base, token, 'OC-EXT1');
      // Mosquitto here lets anyone in (allow_anonymous): its own ACL is docs/mqtt.md's business.
      const chamber = await mqtt.connectAsync(broker, { reconnectPeriod: 0 });
      devices.push(chamber);
      const first = Date.now() - 60_000;
      const times = Array.from({ length: 20 }, (_, index) => first + index);
      for (const time of times) await chamber.publishAsync(topicFor('OC-EXT1', 'telemetry'), JSON.stringify({ Time: time, RCP: 1.1 }), { qos: 1 });
      for (let wait = 0; wait < 50 && storedTimes('OC-EXT1').length < times.length; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(storedTimes('OC-EXT1')).toEqual(times);

      server.child.kill('SIGTERM');
      expect(await server.exit).toEqual({ code: 0, signal: null });
    } finally {
      // The workers' persistent sessions would keep taking a share of group "oxygen" on this shared broker.
      for (const worker of ['.w1', '.w2']) {
        const cleaner = await mqtt.connectAsync(broker, { clientId: `${clientId}${worker}`, protocolVersion: 5, clean: true, reconnectPeriod: 0 });
        await cleaner.endAsync();
      }
    }
  }, 90_000);

  it('stops with exit 1 when MQTT_PORT is taken, naming MQTT_PORT and MQTT_URL', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      await expect(start({ ...env(), MQTT_PORT: String(port) })).rejects.toThrow(
        new RegExp(`exited \\(1\\)[\\s\\S]*MQTT_PORT ${port} is in use[^\\n]*MQTT_URL=mqtt://host:port`),
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('refuses a bad configuration with exit 1, naming the variable', async () => {
    await expect(start({ ...env(), TOKEN_MAX_HOURS: 'forever' })).rejects.toThrow(/exited \(1\)[\s\S]*TOKEN_MAX_HOURS/);
    await expect(start({ ...env(), MQTT_PLAIN: 'off' })).rejects.toThrow(/exited \(1\)[\s\S]*MQTT_PLAIN=off leaves the broker no listener/);
  });
});
