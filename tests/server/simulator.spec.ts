import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessage } from '../../src/domain/mqtt/parse';
import { topicFor } from '../../src/domain/mqtt/topics';
import { createDatabase } from '../../server/db/database';
import { createBooking } from '../../server/orders/create-booking';
import { secretsFile } from '../../simulator/credentials';
import { runSimulator, type RunningSimulator } from '../../simulator/fleet';

/**
 * The simulator against the real server: `node --import tsx server/main.ts --demo` (SQLite in a temp
 * DATA_DIR, free PORT and MQTT_PORT, the embedded broker) and a few chambers as real MQTT clients. The
 * demo fleet's 12 devices and two registered ones; OC-BJ-001 starts with a stale saved secret.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEVICES = 14;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 30_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

let dataDir = '';
let server: ChildProcess | undefined;
let output = '';
let url = '';
let token = '';
let simulator: RunningSimulator | undefined;
const lines: string[] = [];

const upstream = async (call: string, body: unknown): Promise<{ list: Record<string, unknown>[]; total: number }> => {
  const response = await fetch(`${url}/upstream${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; data: { list: Record<string, unknown>[]; total: number } };
  if (envelope.code !== 20000) throw new Error(`${call}: ${JSON.stringify(envelope)}`);
  return envelope.data;
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'oxygen-simulator-'));
  const [port, mqttPort] = [await freePort(), await freePort()];
  url = `http://127.0.0.1:${port}`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MQTT_') && name !== 'DATABASE_URL'));
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--demo'], {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CONSOLE_DIR: path.join(dataDir, 'no-console'),
      SCRYPT_COST: '12',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(
    () => fetch(`${url}/healthz`).then((response) => response.ok, () => false),
    (ok) => {
      if (server?.exitCode !== null) throw new Error(`the server exited:\n${output}`);
      return ok;
    },
    'the server',
  );

  // A secret saved by an earlier run against a database since reset: the broker refuses it.
  const file = secretsFile(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ [url]: { 'OC-BJ-001': 'stale-secret-from-an-earlier-run-0000000000' } }), { mode: 0o600 });

  const login = await fetch(`${url}/upstream/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Account: 'admin', Code: 'Admin2026' }),
  });
  token = ((await login.json()) as { data: { token: string } }).data.token;

  const log = (line: string) => void lines.push(line);
  simulator = await runSimulator({
    server: url,
    mqtt: `mqtt://127.0.0.1:${mqttPort}`,
    devices: DEVICES,
    faults: [],
    faultRate: 0,
    speed: 600,
    seed: 5,
    dataDir,
    account: 'admin',
    password: 'Admin2026',
    apiPrefix: '/upstream',
    log: { info: log, warn: log, error: log },
    bookingPollMs: 1000,
    startDelay: [0, 0.5],
    summaryMs: 0,
  });
}, 60_000);

afterAll(async () => {
  await simulator?.stop();
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** An upstream call that answers one record (a device command's answer carries the cmdId). */
const command = async (call: string, body: unknown): Promise<{ cmdId: string }> => {
  const response = await fetch(`${url}/upstream${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; data: { cmdId: string } };
  if (envelope.code !== 20000) throw new Error(`${call}: ${JSON.stringify(envelope)}`);
  return envelope.data;
};

const commandStatus = async (cmdId: string): Promise<{ status: string; error?: string }> => {
  const response = await fetch(`${url}/api/v1/device-commands/${cmdId}`, { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as { status: string; error?: string };
};

describe('the simulator against the server', () => {
  it('runs the first devices and registers the missing ones, opened for use once they listen (the command acknowledged), with secrets kept 0600', async () => {
    expect([...(simulator?.chambers.keys() ?? [])].slice(-2)).toEqual(['SIM-0001', 'SIM-0002']);
    const devices = await eventually(
      () => upstream('/list/get_OCProperty', { pageSize: 100, filter: { Id: ['SIM-0001', 'SIM-0002'] } }),
      (page) => page.list.every((device) => device.Permission === 'Open'),
      'the registered chambers opened',
    );
    expect(devices.list.map((device) => [device.Id, device.Permission])).toEqual([
      ['SIM-0001', 'Open'],
      ['SIM-0002', 'Open'],
    ]);
    // Opened after their chambers subscribed: each received its first command and applied it (no timeout).
    await eventually(
      async () => lines,
      (seen) => seen.includes('SIM-0001: permission command applied') && seen.includes('SIM-0002: permission command applied'),
      'the opening commands applied by the chambers',
      20_000,
    );
    expect(statSync(secretsFile(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('connects every chamber, rotating the secret the broker refused, and its readings reach the state records', async () => {
    const online = await eventually(
      () => upstream('/list/get_OCProperty', { pageSize: 100, filter: { Online: true } }),
      (page) => page.total === DEVICES,
      'every chamber online',
    );
    expect(online.total).toBe(DEVICES);
    expect(lines).toContain('OC-BJ-001: the broker refused its secret, rotating it');

    // Every chamber reports as soon as it has connected, idle ones included.
    const since = Date.now() - 120_000;
    for (const id of ['OC-BJ-001', 'SIM-0002']) {
      const readings = await eventually(
        () => upstream('/list/get_OCState', { pageSize: 10, sort: { field: 'Time', order: 'DESC' }, filter: { Id: [id], Time: { gte: since } } }),
        (page) => page.total > 0,
        `readings of ${id}`,
      );
      for (const reading of readings.list) {
        const wire = Object.fromEntries(Object.entries(reading).filter(([name, value]) => name !== 'Id' && value !== null));
        expect(parseMessage(topicFor(id, 'telemetry'), JSON.stringify(wire), Date.now())).toMatchObject({ ok: true });
      }
    }
  }, 120_000);

  it('starts a session from a booking with its operation code: the booking becomes used, then finished', async () => {
    const { db } = createDatabase({ database: { kind: 'sqlite', file: path.join(dataDir, 'oxygen.db') }, sqliteSynchronous: 'NORMAL' });
    const booking = await createBooking({ db, now: Date.now }, { deviceId: 'SIM-0001', setT: Date.now() + 60_000, oc: '731905' }).finally(() => db.destroy());

    const used = await eventually(
      () => upstream('/list/get_Records', { filter: { OrderNum: [booking.orderNum] } }),
      (page) => page.list[0]?.IsUsed === true,
      'the booking used',
    );
    expect(used.list[0]).toMatchObject({ Id: 'SIM-0001', OC: '731905', IsPass: false });
    expect(lines).toContain(`SIM-0001: session started for booking ${booking.orderNum} (OC 731905)`);

    // 600 times faster: a 60-minute hold lasts 6 s.
    const finished = await eventually(
      () => upstream('/list/get_Records', { filter: { OrderNum: [booking.orderNum] } }),
      (page) => typeof page.list[0]?.FinishTime === 'number',
      'the booking finished',
      60_000,
    );
    expect(finished.list[0]?.FinishTime).toBeGreaterThan(Number(used.list[0]?.Time));
    const session = await upstream('/list/get_OCState', { pageSize: 1000, filter: { Id: ['SIM-0001'], Time: { gte: booking.time } } });
    // Readings of the pressurised cabin with its occupant's vitals.
    expect(session.list.some((reading) => reading.L === 1 && typeof reading.HmHR === 'number' && Number(reading.RCP) > 1.1)).toBe(true);
  }, 120_000);

  it("applies an operator's commands and acknowledges them: settings reported by the next telemetry, Repair refused mid-session", async () => {
    // ST 120: at 600 times, a hold of 12 s, for the Repair below to find the session under way.
    const { cmdId } = await command('/order/change_settings', { Id: 'SIM-0002', SP: 1.5, ST: 120, SA: 1 });
    expect(await eventually(() => commandStatus(cmdId), (outcome) => outcome.status !== 'sent', 'the ack')).toMatchObject({ status: 'acked' });
    const reported = await eventually(
      () => upstream('/list/get_OCState', { pageSize: 1, sort: { field: 'Time', order: 'DESC' }, filter: { Id: ['SIM-0002'] } }),
      (page) => page.list[0]?.SP === 1.5 && page.list[0]?.ST === 120,
      'the new set pressure in telemetry',
    );
    expect(reported.list[0]).toMatchObject({ SP: 1.5, ST: 120, SA: 1 });

    // A session under way cannot be put in repair: the chamber refuses, the operator sees why.
    const { db } = createDatabase({ database: { kind: 'sqlite', file: path.join(dataDir, 'oxygen.db') }, sqliteSynchronous: 'NORMAL' });
    const booking = await createBooking({ db, now: Date.now }, { deviceId: 'SIM-0002', setT: Date.now(), oc: '420017' }).finally(() => db.destroy());
    await eventually(
      () => upstream('/list/get_Records', { filter: { OrderNum: [booking.orderNum] } }),
      (page) => page.list[0]?.IsUsed === true,
      'the session',
    );
    const repair = await command('/order/change_state', { Id: 'SIM-0002', State: 'Repair' });
    expect(await eventually(() => commandStatus(repair.cmdId), (outcome) => outcome.status !== 'sent', 'the ack')).toMatchObject({
      status: 'refused',
      error: 'session running: stop it first',
    });
  }, 120_000);
});
