import { randomBytes } from 'node:crypto';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { topicFor } from '../../src/domain/mqtt/topics';
import type { Telemetry } from '../../src/domain/mqtt/payloads';
import { deviceRow } from './fleet';
import { connect, type OpenStream } from './live-client';
import { buildServer, endBrokerSessions, killServers, startServer, type ServerProcess } from './server-process';
import { useStore } from './stores';

/**
 * Two real server instances (server/main.ts, each its own process) on one PostgreSQL database and this
 * machine's Mosquitto (127.0.0.1:1883, or TEST_MQTT_URL), in one shared-subscription group of their own:
 * the scale-out configuration of docs/scaling.md, broken on purpose. This Mosquitto allows anonymous
 * clients, so the chambers and the instances connect without credentials; the password file and ACL of
 * docs/mqtt.md are tested in tests/server/mqtt-mosquitto.spec.ts.
 *
 * The steps share the two instances and run in order; the sweepers' step waits for their first sweep
 * (30 s after a start), and the kill comes last so both instances sweep together before it.
 */

const BROKER_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const RUN = randomBytes(3).toString('hex');
const ADMIN = { Account: 'admin', Code: 'TwoInstances2026' };
const DEVICES = Array.from({ length: 6 }, (_, i) => `TI${RUN}-${i}`);
const [WATCHED, COMMANDED, SILENT, ALARMED] = DEVICES as [string, string, string, string];
const BOOKING = `TI${RUN}-booking`;
const DAY_MS = 86_400_000;
const START = Date.now();
/** The kill step's readings are timed from here, apart from the others'. */
const BURST = START - 7_200_000;

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = async <T>(probe: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> => {
  for (const deadline = Date.now() + timeoutMs; ; await tick(100)) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
  }
};

describe('two server instances on one PostgreSQL and Mosquitto', () => {
  const store = useStore('postgres');
  const chambers: MqttClient[] = [];
  const instances: Record<'a' | 'b', ServerProcess | undefined> = { a: undefined, b: undefined };
  // Compiled, as production runs it (npm start), and quicker to start than through tsx.
  let compiled: Awaited<ReturnType<typeof buildServer>> | undefined;
  beforeAll(async () => {
    compiled = await buildServer();
  });

  afterAll(async () => {
    await Promise.all(chambers.map((chamber) => chamber.endAsync(true)));
    killServers();
    await compiled?.remove();
    await endBrokerSessions(BROKER_URL, [`oxygen.test.${RUN}.a`, `oxygen.test.${RUN}.b`]);
  }, 30_000);

  const start = (name: 'a' | 'b'): Promise<ServerProcess> => {
    const { database } = store.config();
    if (database.kind !== 'postgres') throw new Error('the store is PostgreSQL');
    return startServer({
      compiled: compiled?.dir,
      env: {
        DATABASE_URL: database.url,
        CONSOLE_DIR: path.join(store.dir, 'no-console'),
        ADMIN_PASSWORD: ADMIN.Code,
        MQTT_URL: BROKER_URL,
        MQTT_CLIENT_ID: `oxygen.test.${RUN}.${name}`,
        MQTT_SHARE_GROUP: `oxygen-test-${RUN}`,
        COMMAND_TIMEOUT_SECONDS: '2',
        ROLLUP_FLUSH_MS: '500',
      },
    });
  };
  const base = (name: 'a' | 'b'): string => `http://127.0.0.1:${instances[name]?.port ?? 0}`;

  let token = '';
  /** A browser's live stream on A, opened for each step (live-client closes it after each). */
  let streamA: OpenStream;
  beforeEach(async () => {
    if (token !== '') streamA = await connect(base('a'), token);
  });

  const post = async (name: 'a' | 'b', route: string, body: unknown): Promise<{ code: number; data: Record<string, unknown> }> => {
    const response = await fetch(`${base(name)}/upstream${route}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return (await response.json()) as { code: number; data: Record<string, unknown> };
  };
  /** The instance's ingestion counters (GET /healthz with the super administrator's token). */
  const ingested = async (name: 'a' | 'b'): Promise<{ stored: number; acks: number }> => {
    const response = await fetch(`${base(name)}/healthz`, { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { mqtt: { ingest: { stored: number; acks: number } } }).mqtt.ingest;
  };
  const chamber = async (id: string): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(BROKER_URL, { clientId: id, clean: true, reconnectPeriod: 0 });
    chambers.push(client);
    return client;
  };
  const publish = (client: MqttClient, id: string, reading: Telemetry): Promise<unknown> => client.publishAsync(topicFor(id, 'telemetry'), JSON.stringify(reading), { qos: 1 });
  const db = () => store.database.db;

  it('start together on a fresh database: one migrates, one super administrator', async () => {
    const now = Date.now();
    await db()
      .insertInto('devices')
      .values(DEVICES.map((id) => deviceRow(id, id, 1, 'Scale-out bench', 'Work')))
      .execute();
    // For the sweepers: a booking whose window closed, and readings past their retention.
    await db()
      .insertInto('orders')
      .values({ order_num: BOOKING, device_id: SILENT, time: now - 2 * 3_600_000, set_t: now - 3_600_000, oc: null, open_id: null, is_used: 0, is_pass: 0, finished_at: null, used_at: null, cancelled_at: null })
      .execute();
    await db()
      .insertInto('state_records')
      .values(Array.from({ length: 40 }, (_, i) => ({ device_id: SILENT, time: now - 40 * DAY_MS + i * 1000, rcp: 1 })))
      .execute();

    [instances.a, instances.b] = await Promise.all([start('a'), start('b')]);
    const signIn = await fetch(`${base('b')}/upstream/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    token = ((await signIn.json()) as { data: { token: string } }).data.token;
    expect(await db().selectFrom('accounts').select('account').execute()).toEqual([{ account: 'admin' }]);
    expect((await connect(base('a'), token)).status).toBe(200);
  }, 90_000);

  it("a live stream on A shows every reading, B's share included", async () => {
    const client = await chamber(WATCHED);
    // Half a minute on each side of a minute's end, all past: the sweepers' test checks a settled minute's rollup.
    const minuteEnd = Math.floor((START - 60_000) / 60_000) * 60_000;
    const times = Array.from({ length: 12 }, (_, i) => minuteEnd - 30_000 + i * 5000);
    const shown = (time: number) =>
      streamA.received.some((message) => message.event === 'device' && (message.data as { Id: string; Reading?: { Time: number } }).Reading?.Time === time);
    // One at a time: a viewer is shown a device's newest reading, so one overtaken on its way is not shown.
    for (const Time of times) {
      await publish(client, WATCHED, { Time, RCP: 1.2, SP: 1.3, RCPi02: 21 });
      await streamA.until(() => shown(Time));
    }
    // The shared subscription gave B its share: B stored some of what A's viewer saw.
    const [a, b] = await Promise.all([ingested('a'), ingested('b')]);
    expect(b.stored).toBeGreaterThan(0);
    expect(a.stored + b.stored).toBeGreaterThanOrEqual(times.length);
  });

  it('a command issued on A is acknowledged on A, whichever instance takes the ack', async () => {
    const client = await chamber(COMMANDED);
    await client.subscribeAsync(topicFor(COMMANDED, 'cmd'), { qos: 1 });
    client.on('message', (_topic, payload) => {
      const { cmdId } = JSON.parse(payload.toString()) as { cmdId: string };
      void client.publishAsync(topicFor(COMMANDED, 'ack'), JSON.stringify({ cmdId, ok: true }), { qos: 1 });
    });
    const before = await ingested('b');
    const cmdIds: string[] = [];
    // Acks alternate between the group's members: a few commands put one on B.
    for (let i = 0; i < 8 && (cmdIds.length < 2 || (await ingested('b')).acks === before.acks); i += 1) {
      const answer = await post('a', '/order/change_state', { Id: COMMANDED, State: i % 2 === 0 ? 'Stop' : 'Work' });
      expect(answer.code).toBe(20000);
      cmdIds.push(String(answer.data.cmdId));
      await streamA.until((received) => received.some((message) => message.event === 'command' && (message.data as { cmdId: string; status: string }).cmdId === cmdIds.at(-1) && (message.data as { status: string }).status === 'acked'));
    }
    expect((await ingested('b')).acks).toBeGreaterThan(before.acks);
    const rows = await db().selectFrom('device_commands').select(['cmd_id', 'status']).where('device_id', '=', COMMANDED).orderBy('cmd_id').execute();
    expect(rows).toEqual(cmdIds.toSorted().map((cmd_id) => ({ cmd_id, status: 'acked' })));
  });

  it('an alarm is raised once, with one todo, though both instances evaluate its readings', async () => {
    const client = await chamber(ALARMED);
    // Oxygen high for 8 s of the readings' time: each instance sees more than the 3 s on-delay of it.
    for (let i = 0; i <= 16; i += 1) await publish(client, ALARMED, { Time: START + i * 500, RCP: 1.2, SP: 1.3, RCPi02: 24 });
    const alarms = await until(
      () => db().selectFrom('alarms').select(['id', 'kind', 'state']).where('device_id', '=', ALARMED).execute(),
      (rows) => rows.length > 0,
      'the oxygen alarm',
    );
    // Time for the other instance to evaluate its share too.
    await tick(1500);
    expect(await db().selectFrom('alarms').select(['id', 'kind', 'state']).where('device_id', '=', ALARMED).execute()).toEqual([{ id: alarms[0]?.id, kind: 'o2-high', state: 'active-unacked' }]);
    const alarmId = alarms[0]?.id ?? 0;
    const raised = await db().selectFrom('alarm_transitions').select('to_state').where('alarm_id', '=', alarmId).execute();
    expect(raised).toEqual([{ to_state: 'active-unacked' }]);
    const todos = await db().selectFrom('messages').select(['account_id', 'type']).where('alarm_id', '=', alarmId).where('type', '=', 'todo').execute();
    expect(todos).toHaveLength(1);
    await streamA.until((received) => received.filter((message) => message.event === 'alarm' && (message.data as { id: number }).id === alarmId).length >= 1);
  });

  it('the command, order, retention and rollup sweepers each do their work once', async () => {
    const timedOut = await post('b', '/order/change_state', { Id: SILENT, State: 'Stop' });
    const cmdId = String(timedOut.data.cmdId);
    await streamA.until((received) => received.some((message) => message.event === 'command' && (message.data as { cmdId: string; status: string }).cmdId === cmdId && (message.data as { status: string }).status === 'timeout'));
    // The booking and the old readings: the first sweeps come 30 s after the starts, on both instances.
    const audit = (action: string, target: string) => db().selectFrom('audit_log').select('action').where('action', '=', action).where('target_id', '=', target).execute();
    await until(() => audit('order.expired', BOOKING), (rows) => rows.length > 0, 'the booking expired', 45_000);
    await until(() => db().selectFrom('state_records').select('id').where('device_id', '=', SILENT).execute(), (rows) => rows.length === 0, 'the old readings deleted', 15_000);
    await tick(1500);
    expect(await audit('order.expired', BOOKING)).toHaveLength(1);
    expect(await audit('device.commandTimedOut', SILENT)).toHaveLength(1);
    expect(streamA.received.filter((message) => message.event === 'command' && (message.data as { cmdId: string }).cmdId === cmdId).map((message) => (message.data as { status: string }).status)).toEqual(['sent', 'timeout']);
    // Both deleted: each logged what it deleted, and together that is every old reading once.
    const deleted = ['a', 'b'].flatMap((name) => [...(instances[name as 'a' | 'b']?.output() ?? '').matchAll(/"readings":(\d+)[^\n]*past their retention deleted/g)].map((match) => Number(match[1])));
    expect(deleted.reduce((sum, count) => sum + count, 0)).toBe(40);
    // Rollups: every settled minute of the watched chamber counts each of its readings once, though each
    // instance stored and rolled up its own share of them.
    const counts = await db()
      .selectFrom('state_records')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.ref('time').as('time')])
      .where('device_id', '=', WATCHED)
      .groupBy('time')
      .execute();
    const perMinute = new Map<number, number>();
    for (const row of counts) perMinute.set(Number(row.time) - (Number(row.time) % 60_000), (perMinute.get(Number(row.time) - (Number(row.time) % 60_000)) ?? 0) + Number(row.n));
    const settled = [...perMinute.keys()].sort((x, y) => x - y).slice(0, -1);
    expect(settled.length).toBeGreaterThan(0);
    const rollups = await db().selectFrom('reading_rollups').select(['start', 'rcp_n']).where('device_id', '=', WATCHED).where('bucket_ms', '=', 60_000).execute();
    for (const minute of settled) expect(rollups.find((row) => Number(row.start) === minute)?.rcp_n).toBe(perMinute.get(minute));
  }, 70_000);

  it('B killed (SIGKILL) mid-stream and restarted: every acknowledged reading stored once', async () => {
    const ids = DEVICES.slice(0, 4);
    const clients = await Promise.all(ids.map((id) => chamber(`${id}-burst`)));
    /** Each acknowledged reading (device, Time) and when its PUBACK came. */
    const acked = new Map<string, number>();
    let publishing = true;
    let time = BURST;
    const loops = clients.map(async (client, d) => {
      while (publishing) {
        time += 1;
        const Time = time;
        await publish(client, ids[d] ?? '', { Time, RCP: 1.2, SP: 1.3, RCPi02: 21 });
        acked.set(`${ids[d] ?? ''} ${Time}`, Date.now());
        await tick(40);
      }
    });
    // Where each reading is first seen in the store, polled.
    const stored = new Map<string, number>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const rows = await db().selectFrom('state_records').select(['device_id', 'time']).where('device_id', 'in', ids).where('time', '>', BURST).execute();
        const at = Date.now();
        for (const row of rows) if (!stored.has(`${row.device_id} ${row.time}`)) stored.set(`${row.device_id} ${row.time}`, at);
        await tick(100);
      }
    })();

    await tick(2000);
    const killedAt = Date.now();
    instances.b?.child.kill('SIGKILL');
    await instances.b?.exit;
    await tick(3000);
    instances.b = await start('b');
    const backAt = Date.now();
    await tick(2000);
    publishing = false;
    await Promise.all(loops);
    await until(() => [...acked.keys()].every((key) => stored.has(key)), (done) => done, 'every acknowledged reading stored', 20_000);
    polling = false;
    await poller;

    const rows = await db().selectFrom('state_records').select((eb) => [eb.fn.countAll<string>().as('n')]).where('device_id', 'in', ids).where('time', '>', BURST).groupBy(['device_id', 'time']).execute();
    expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(acked.size);
    // What was published while B was away: A's share is stored at once, B's waits for B (docs/scaling.md).
    const waits = [...acked].filter(([, at]) => at >= killedAt && at < backAt).map(([key, at]) => (stored.get(key) ?? Infinity) - at);
    const waited = waits.filter((wait) => wait > 1000).sort((x, y) => x - y);
    process.stdout.write(
      `two instances: B away ${backAt - killedAt} ms (SIGKILL, 3 s, restart); ${acked.size} readings acknowledged, each stored once; ` +
        `of ${waits.length} published while B was away, ${waited.length} waited over 1 s: ${waited[0] ?? 0}–${waited.at(-1) ?? 0} ms\n`,
    );
  }, 90_000);
});
