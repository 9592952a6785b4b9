import SqliteDatabase from 'better-sqlite3';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../src/domain/live';
import { MQTT_EXAMPLES } from '../fixtures/mqttExamples';
import { MAX_PAYLOAD_BYTES } from '../../src/domain/mqtt/parse';
import { TOPIC_KINDS } from '../../src/domain/mqtt/topics';
import { recordCommand } from '../../server/commands/issue';
import type { AppContext } from '../../server/context';
import type { InboundMessage } from '../../server/mqtt/transport';
import { findBooking } from '../../server/orders/booking';
import { createBooking } from '../../server/orders/create-booking';
import type { IngestCounters } from '../../server/telemetry/counters';
import { createIngest, type Ingest, type IngestOptions } from '../../server/telemetry/ingest';
import type { IngestLog } from '../../server/telemetry/log';
import { OFFLINE_AFTER_MS } from '../../server/telemetry/presence';
import { seedFleet, T0 } from './fleet';
import { fakeClock, HOUR, MINUTE, STORE_KINDS, useStore, type TestStore } from './stores';

/**
 * Ingestion (server/telemetry/, docs/ingest.md) on both stores, without a broker: messages are handed to
 * `accept` as the transport would, each with a `settle` that records when it is acknowledged.
 */

const NOW = T0 + HOUR;
/** Reading times after the fleet's own (T0 … T0 + 4 min), before NOW. */
const AT = T0 + 30 * MINUTE;

interface Sent {
  message: InboundMessage;
  /** Resolves when settled. */
  settled: Promise<void>;
  settles: () => number;
}

const send = (ingest: Ingest, topic: string, payload: string | Buffer, onSettle?: () => void): Sent => {
  let count = 0;
  let resolve: () => void = () => undefined;
  const settled = new Promise<void>((done) => (resolve = done));
  const message: InboundMessage = {
    topic,
    payload: typeof payload === 'string' ? Buffer.from(payload) : payload,
    qos: 1,
    settle() {
      count += 1;
      onSettle?.();
      resolve();
    },
  };
  ingest.accept(message);
  return { message, settled, settles: () => count };
};

const telemetry = (deviceId: string, reading: Record<string, unknown>) => [`oc/${deviceId}/telemetry`, JSON.stringify(reading)] as const;
const event = (deviceId: string, body: Record<string, unknown>) => [`oc/${deviceId}/event`, JSON.stringify(body)] as const;

const fakeLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

const total = (record: Partial<Record<string, number>>) => Object.values(record).reduce<number>((sum, value) => sum + (value ?? 0), 0);

/** The identity docs/ingest.md promises. */
const accounted = (counters: Readonly<IngestCounters>) =>
  counters.stored + counters.duplicates + counters.statuses + counters.events + counters.acks + total(counters.dropped) + total(counters.refused) + counters.pending;

/** Reads a reading through a second connection: what another process would see, committed data only. */
const visibility = (store: TestStore) => {
  const target = store.config().database;
  if (target.kind === 'sqlite') {
    const reader = new SqliteDatabase(target.file, { readonly: true, fileMustExist: true });
    const statement = reader.prepare('select count(*) as n from state_records where device_id = ? and time = ?');
    return {
      // Synchronous: what is committed at the very moment of the call.
      check: (deviceId: string, time: number) => Promise.resolve((statement.get(deviceId, time) as { n: number }).n === 1),
      close: async () => reader.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 2 });
  return {
    // Asynchronous, started at the call: a row committed later could still be seen (weaker than SQLite's check).
    check: async (deviceId: string, time: number) =>
      (await pool.query('select count(*)::int as n from state_records where device_id = $1 and time = $2', [deviceId, time])).rows[0].n === 1,
    close: () => pool.end(),
  };
};

const device = (ctx: AppContext, id: string) =>
  ctx.db
    .selectFrom('devices')
    .select(['online', 'last_seen_at', 'latest', 'erd', 'state', 'order_num', 'session_oc', 'session_started_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const readings = (ctx: AppContext, id: string) =>
  ctx.db.selectFrom('state_records').select(['time', 'rcp', 'rcpi02', 'hm_bp', 'rap']).where('device_id', '=', id).where('time', '>=', AT).orderBy('time').execute();

/** Makes every insert into state_records fail (a store error) until `heal`. */
const breakInserts = async (ctx: AppContext) => {
  if (ctx.kind === 'sqlite') {
    await sql`create trigger ingest_spec_fail before insert on state_records begin select raise(abort, 'injected failure'); end`.execute(ctx.db);
    return { heal: () => sql`drop trigger ingest_spec_fail`.execute(ctx.db) };
  }
  await sql`create or replace function ingest_spec_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`.execute(ctx.db);
  await sql`create trigger ingest_spec_fail before insert on state_records for each row execute function ingest_spec_fail()`.execute(ctx.db);
  return { heal: () => sql`drop trigger ingest_spec_fail on state_records`.execute(ctx.db) };
};

const until = async (condition: () => boolean, what: string, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** Each store as the server runs it (SQLite: batches in the writer thread), and SQLite's batches written in process. */
const WRITERS = [
  ...STORE_KINDS.map((kind) => ({ kind, writerThread: undefined, name: kind === 'sqlite' ? 'sqlite, writer thread' : kind })),
  { kind: 'sqlite' as const, writerThread: false, name: 'sqlite, in process' },
];

describe.each(WRITERS)('ingest ($name)', ({ kind, writerThread }) => {
  const store = useStore(kind);
  const clock = fakeClock(NOW);
  let ctx: AppContext;
  let log: ReturnType<typeof fakeLog>;
  let live: LiveEvent[];
  let ingest: Ingest;
  const started: Ingest[] = [];

  /** A fresh ingest (all are closed after the test): fast batches, no sweep timer, short backoff. */
  const start = (options: Partial<IngestOptions> = {}): Ingest => {
    ingest = createIngest(ctx, { log: log as unknown as IngestLog, maxWaitMs: 5, sweepIntervalMs: 0, retryFirstMs: 10, retryMaxMs: 40, writerThread, ...options });
    started.push(ingest);
    return ingest;
  };
  const patches = (id: string) => live.flatMap((item) => (item.type === 'device' && item.data.Id === id ? [item.data] : []));

  beforeEach(async () => {
    clock.set(NOW);
    await store.wipe();
    await store.database.db.deleteFrom('device_commands').execute();
    ctx = store.context({ ORDER_EXPIRY_MINUTES: '30' }, clock.now);
    await seedFleet(ctx);
    log = fakeLog();
    live = [];
    ctx.live.subscribe((item) => live.push(item));
    start();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((each) => each.close()));
  });

  it('stores telemetry in batches, one transaction each, and settles a message only once its row is committed', async () => {
    start({ batchSize: 20, maxWaitMs: 10_000 });
    const reader = visibility(store);
    try {
      const checks: Promise<boolean>[] = [];
      const sent = Array.from({ length: 50 }, (_, i) => {
        const [deviceId, time] = [i % 2 === 0 ? 'OC-A1' : 'OC-B1', AT + i * 1000];
        return send(ingest, ...telemetry(deviceId, { Time: time, RCP: 1.3, RCPi02: 21.5, HmBP: '118/76', RAP: 101.3 }), () =>
          checks.push(reader.check(deviceId, time)),
        );
      });
      // 50 messages, 20 a batch: two batches closed by size; the last 10 wait for maxWaitMs or close().
      await Promise.all(sent.slice(0, 40).map((each) => each.settled));
      expect(sent.slice(40).every((each) => each.settles() === 0)).toBe(true);
      await ingest.close();
      expect(sent.every((each) => each.settles() === 1)).toBe(true);
      expect(await Promise.all(checks)).toEqual(sent.map(() => true));
      expect(ingest.counters).toMatchObject({ received: 50, stored: 50, duplicates: 0, pending: 0, commits: 3, failures: 0 });
      expect(await readings(ctx, 'OC-A1')).toHaveLength(25);
      expect((await readings(ctx, 'OC-A1'))[0]).toEqual({ time: AT, rcp: 1.3, rcpi02: 21.5, hm_bp: '118/76', rap: 101.3 });
    } finally {
      await reader.close();
    }
  });

  it('stores a redelivered reading once, in one batch or across batches, and acknowledges every copy', async () => {
    const reading = telemetry('OC-A1', { Time: AT, RCP: 1.3 });
    const first = [send(ingest, ...reading), send(ingest, ...reading)];
    await Promise.all(first.map((each) => each.settled));
    const again = send(ingest, ...reading);
    await again.settled;
    expect(await readings(ctx, 'OC-A1')).toHaveLength(1);
    expect([...first, again].map((each) => each.settles())).toEqual([1, 1, 1]);
    expect(ingest.counters).toMatchObject({ received: 3, stored: 1, duplicates: 2 });
  });

  it("keeps each device's latest reading, last-seen time and online state, moving only forward", async () => {
    await send(ingest, ...telemetry('OC-A2', { Time: AT + 2000, RCP: 1.4, RAP: 101.3 })).settled;
    const latest = { Time: AT + 2000, RCP: 1.4, RAP: 101.3, Id: 'OC-A2' };
    expect(await device(ctx, 'OC-A2')).toMatchObject({ online: 1, last_seen_at: NOW });
    expect(JSON.parse((await device(ctx, 'OC-A2')).latest ?? 'null')).toEqual(latest);
    expect(patches('OC-A2')).toEqual([{ Id: 'OC-A2', Online: true, LastSeen: NOW, Reading: latest }]);

    // An older reading arriving later (a device sending what it buffered) is stored but is not the latest.
    clock.advance(5000);
    await send(ingest, ...telemetry('OC-A2', { Time: AT + 1000, RCP: 1.2 })).settled;
    expect(await readings(ctx, 'OC-A2')).toHaveLength(2);
    expect(await device(ctx, 'OC-A2')).toMatchObject({ online: 1, last_seen_at: NOW + 5000 });
    expect(JSON.parse((await device(ctx, 'OC-A2')).latest ?? 'null')).toEqual(latest);
    expect(patches('OC-A2').at(-1)).toEqual({ Id: 'OC-A2', Online: true, LastSeen: NOW + 5000 });

    // A clock that went back does not move last-seen back.
    clock.advance(-60_000);
    await send(ingest, ...telemetry('OC-A2', { Time: AT + 3000, RCP: 1.5 })).settled;
    const after = await device(ctx, 'OC-A2');
    expect(after.last_seen_at).toBe(NOW + 5000);
    expect(JSON.parse(after.latest ?? 'null')).toEqual({ Time: AT + 3000, RCP: 1.5, Id: 'OC-A2' });
  });

  it('applies status messages: online, then offline (the last will), in arrival order within a batch', async () => {
    await send(ingest, 'oc/OC-A2/status', 'online').settled;
    expect(await device(ctx, 'OC-A2')).toMatchObject({ online: 1, last_seen_at: NOW });
    clock.advance(1000);
    await send(ingest, 'oc/OC-A2/status', 'offline').settled;
    expect(await device(ctx, 'OC-A2')).toMatchObject({ online: 0, last_seen_at: NOW });
    expect(patches('OC-A2')).toEqual([
      { Id: 'OC-A2', Online: true, LastSeen: NOW },
      { Id: 'OC-A2', Online: false, LastSeen: NOW },
    ]);
    // Telemetry and then the will in one batch: offline; the reverse: online.
    const batch = [send(ingest, ...telemetry('OC-B1', { Time: AT })), send(ingest, 'oc/OC-B1/status', 'offline')];
    batch.push(send(ingest, 'oc/OC-C1/status', 'offline'), send(ingest, ...telemetry('OC-C1', { Time: AT })));
    await Promise.all(batch.map((each) => each.settled));
    expect((await device(ctx, 'OC-B1')).online).toBe(0);
    expect((await device(ctx, 'OC-C1')).online).toBe(1);
    expect(ingest.counters).toMatchObject({ statuses: 4, stored: 2 });
  });

  it('drops malformed, oversized, out-of-range and unknown-device messages with a reason and a counter, and settles them', async () => {
    const bad = [
      send(ingest, 'oc/OC-A1/telemetry', '{"Time":'),
      send(ingest, 'oc/OC-A1/telemetry', JSON.stringify({ Time: AT, HmBP: 'x'.repeat(MAX_PAYLOAD_BYTES) })),
      send(ingest, ...telemetry('OC-A1', { Time: AT, RCPi02: 140 })),
      send(ingest, ...telemetry('OC-A1', { Time: NOW + HOUR })),
      send(ingest, ...telemetry('OC-NOPE', { Time: AT })),
      send(ingest, 'oc/OC-NOPE/status', 'online'),
      send(ingest, ...event('OC-NOPE', { type: 'emergency', Time: AT, active: true })),
      send(ingest, 'sensors/OC-A1', '{}'),
      send(ingest, MQTT_EXAMPLES.cmdState.topic, MQTT_EXAMPLES.cmdState.payload),
      send(ingest, 'oc/OC-A1/telemetry', Buffer.from([0xff, 0xfe, 0x00])),
    ];
    await Promise.all(bad.map((each) => each.settled));
    expect(bad.map((each) => each.settles())).toEqual(bad.map(() => 1));
    expect(ingest.counters.dropped).toEqual({
      json: 1,
      size: 1,
      'schema:RCPi02': 1,
      time: 1,
      unknownDevice: 3,
      topic: 2,
      encoding: 1,
    });
    expect(ingest.counters.stored).toBe(0);
    expect(await readings(ctx, 'OC-A1')).toEqual([]);
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ deviceId: 'OC-A1', topic: 'oc/OC-A1/telemetry', reason: 'schema:RCPi02' }),
      'mqtt message dropped',
    );
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ deviceId: 'OC-NOPE', reason: 'unknownDevice' }), 'mqtt message dropped');
    expect(accounted(ingest.counters)).toBe(ingest.counters.received);
  });

  it('limits the log under a flood of bad messages while counting every one', async () => {
    start({ logBurst: 5, logWindowMs: 10_000 });
    const flood = Array.from({ length: 2000 }, () => send(ingest, 'oc/OC-A1/telemetry', 'not json'));
    await Promise.all(flood.map((each) => each.settled));
    expect(ingest.counters.dropped.json).toBe(2000);
    expect(log.warn).toHaveBeenCalledTimes(5);
    // The next window's first line says how many were left out.
    clock.advance(10_000);
    await send(ingest, 'oc/OC-A1/telemetry', 'not json').settled;
    expect(log.warn).toHaveBeenLastCalledWith(expect.objectContaining({ reason: 'json', suppressed: 1995 }), 'mqtt message dropped');
  });

  it('never throws, never rejects and settles every message, whatever the topics and payloads (fast-check)', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const deviceIds = fc.constantFrom('OC-A1', 'OC-B2', 'OC-C2', 'OC-NOPE', 'a/b', '+', '#', '');
      const topic = fc.oneof(
        fc.tuple(deviceIds, fc.constantFrom(...TOPIC_KINDS, 'readings', '')).map(([id, kindOf]) => `oc/${id}/${kindOf}`),
        fc.string({ maxLength: 80 }),
        fc.string({ unit: 'binary', maxLength: 80 }),
      );
      const reading = fc.record(
        {
          Time: fc.oneof(fc.integer({ min: AT, max: NOW }), fc.integer(), fc.double(), fc.constant(NOW + HOUR)),
          Id: fc.constantFrom('OC-A1', 'OC-NOPE'),
          RCP: fc.oneof(fc.double({ min: 0, max: 6, noNaN: true }), fc.double()),
          RCPi02: fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.string()),
          SS: fc.constantFrom('F', 'M', 'S', 'X'),
          HmBP: fc.constantFrom('118/76', '76/118', '1/1', ''),
          Pressure: fc.double(),
        },
        { requiredKeys: [] },
      );
      const anEvent = fc.oneof(
        fc.record({ type: fc.constant('sessionStart'), Time: fc.integer({ min: AT, max: NOW }), OC: fc.constantFrom('583920', '', 'x y') }),
        fc.record({ type: fc.constant('sessionEnd'), Time: fc.integer({ min: AT, max: NOW }) }),
        fc.record({ type: fc.constant('emergency'), Time: fc.integer({ min: AT, max: NOW }), active: fc.oneof(fc.boolean(), fc.integer()) }),
        fc.record({ type: fc.constant('fault'), Time: fc.integer({ min: AT, max: NOW }), code: fc.string({ maxLength: 40 }) }),
        fc.record({ cmdId: fc.constantFrom('c1', 'bad id'), ok: fc.boolean(), error: fc.string({ maxLength: 300 }) }, { requiredKeys: ['cmdId'] }),
      );
      const payload = fc.oneof(
        reading.map((value) => JSON.stringify(value)),
        anEvent.map((value) => JSON.stringify(value)),
        fc.constantFrom('online', 'offline', 'ONLINE', '', 'null', '[]', '{}'),
        fc.json({ maxDepth: 3 }),
        fc.string({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
        fc.integer({ min: MAX_PAYLOAD_BYTES - 2, max: MAX_PAYLOAD_BYTES + 2 }).map((size) => `{"Time":${AT},"HmBP":"${'1'.repeat(size - 30)}"}`),
      );
      // Valid telemetry of registered devices among the rest, so that batches mix stored and dropped messages.
      const stored = fc.tuple(
        fc.constantFrom('oc/OC-A1/telemetry', 'oc/OC-C2/telemetry'),
        fc
          .record({ Time: fc.integer({ min: AT, max: NOW }), RCP: fc.double({ min: 0, max: 6, noNaN: true }), HmHR: fc.integer({ min: 20, max: 250 }) }, { requiredKeys: ['Time'] })
          .map((value) => JSON.stringify(value)),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(fc.tuple(topic, payload), stored), { maxLength: 40 }), async (messages) => {
          const sent = messages.map(([name, body]) => send(ingest, name, body));
          await Promise.all(sent.map((each) => each.settled));
          expect(sent.every((each) => each.settles() === 1)).toBe(true);
          expect(accounted(ingest.counters)).toBe(ingest.counters.received);
          expect(ingest.counters.pending).toBe(0);
        }),
        { numRuns: kind === 'sqlite' ? 150 : 40 },
      );
      expect(ingest.counters.failures).toBe(0);
      expect(rejections).toEqual([]);
      expect(ingest.counters.stored).toBeGreaterThan(0);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('session events drive the order lifecycle and the device session; a start without a booking still runs', async () => {
    const booking = await createBooking(ctx, { deviceId: 'OC-A2', setT: NOW, oc: '583920' });
    await send(ingest, ...event('OC-A2', { type: 'sessionStart', Time: NOW - 1000, OC: '583920' })).settled;
    expect(await findBooking(ctx, booking.orderNum)).toMatchObject({ isUsed: true, finishedAt: null });
    expect(await device(ctx, 'OC-A2')).toMatchObject({
      state: 'Work',
      order_num: booking.orderNum,
      session_oc: '583920',
      session_started_at: NOW - 1000,
      online: 1,
      last_seen_at: NOW,
    });
    expect(patches('OC-A2').at(-1)).toMatchObject({ Id: 'OC-A2', State: 'Work', OrderNum: booking.orderNum, SessionOC: '583920', Online: true });
    // A redelivered start changes nothing more.
    await send(ingest, ...event('OC-A2', { type: 'sessionStart', Time: NOW - 1000, OC: '583920' })).settled;
    expect(await findBooking(ctx, booking.orderNum)).toMatchObject({ isUsed: true, finishedAt: null });

    clock.advance(MINUTE);
    await send(ingest, ...event('OC-A2', { type: 'sessionEnd', Time: NOW + 50_000 })).settled;
    expect(await findBooking(ctx, booking.orderNum)).toMatchObject({ isUsed: true, finishedAt: NOW + 50_000 });
    expect(await device(ctx, 'OC-A2')).toMatchObject({ state: 'Stop', order_num: null, session_oc: null, session_started_at: null });
    expect(patches('OC-A2').at(-1)).toMatchObject({ State: 'Stop', OrderNum: null, SessionOC: null });

    // An unknown code: no booking is used, but the chamber's session is watched all the same.
    await send(ingest, ...event('OC-C1', { type: 'sessionStart', Time: NOW, OC: '000000' })).settled;
    expect(await device(ctx, 'OC-C1')).toMatchObject({ order_num: null, session_oc: '000000', state: 'Stop' });
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ deviceId: 'OC-C1', outcome: 'unknownCode' }), 'session started without a usable booking');
    expect(ingest.counters.events).toBe(4);
  });

  it('sets the emergency flag from emergency events and logs faults', async () => {
    await send(ingest, ...event('OC-C2', { type: 'emergency', Time: NOW, active: true })).settled;
    expect((await device(ctx, 'OC-C2')).erd).toBe(1);
    expect(patches('OC-C2').at(-1)).toMatchObject({ Id: 'OC-C2', Emergency: true, Online: true });
    await send(ingest, ...event('OC-C2', { type: 'emergency', Time: NOW + 1, active: false })).settled;
    expect((await device(ctx, 'OC-C2')).erd).toBe(0);
    expect(patches('OC-C2').at(-1)).toMatchObject({ Emergency: false });
    await send(ingest, MQTT_EXAMPLES.fault.topic.replace('OC-BJ-001', 'OC-C2'), MQTT_EXAMPLES.fault.payload).settled;
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ deviceId: 'OC-C2', code: 'O2_SENSOR' }), 'device fault');
  });

  it('marks a device offline after 30 s without telemetry during a session, and only then', async () => {
    await send(ingest, ...event('OC-A2', { type: 'sessionStart', Time: NOW, OC: '000000' })).settled;
    clock.advance(10_000);
    await send(ingest, ...telemetry('OC-A2', { Time: NOW + 10_000 })).settled;
    // OC-B1 is online and silent too, but runs no session.
    await send(ingest, 'oc/OC-B1/status', 'online').settled;

    clock.advance(OFFLINE_AFTER_MS);
    expect(await ingest.sweep()).toEqual([]);
    clock.advance(1);
    expect(await ingest.sweep()).toEqual(['OC-A2']);
    expect((await device(ctx, 'OC-A2')).online).toBe(0);
    expect((await device(ctx, 'OC-B1')).online).toBe(1);
    expect(patches('OC-A2').at(-1)).toEqual({ Id: 'OC-A2', Online: false, LastSeen: NOW + 10_000 });
    expect(await ingest.sweep()).toEqual([]);

    // Telemetry again: online again.
    await send(ingest, ...telemetry('OC-A2', { Time: NOW + 45_000 })).settled;
    expect((await device(ctx, 'OC-A2')).online).toBe(1);
  });

  it('applies the offline rule on its own timer', async () => {
    start({ sweepIntervalMs: 10 });
    await send(ingest, ...event('OC-A2', { type: 'sessionStart', Time: NOW, OC: '000000' })).settled;
    clock.advance(OFFLINE_AFTER_MS + 1);
    await until(() => patches('OC-A2').some((patch) => patch.Online === false), 'the sweep');
    expect((await device(ctx, 'OC-A2')).online).toBe(0);
  });

  it("keeps each device's order across batches and events, and acknowledges in that order", async () => {
    start({ maxWaitMs: 10_000 });
    const order: string[] = [];
    const mark = (name: string) => () => order.push(name);
    // The event must run after the telemetry and the will before it: it leaves the device online.
    send(ingest, ...telemetry('OC-C1', { Time: AT }), mark('telemetry'));
    send(ingest, 'oc/OC-C1/status', 'offline', mark('offline'));
    send(ingest, 'oc/OC-C1/telemetry', 'bad', mark('bad'));
    const last = send(ingest, ...event('OC-C1', { type: 'fault', Time: AT, code: 'X' }), mark('fault'));
    // Another device's batch stays open behind the event.
    const other = send(ingest, ...telemetry('OC-B1', { Time: AT }), mark('other'));
    await last.settled;
    expect(order).toEqual(['telemetry', 'offline', 'bad', 'fault']);
    expect((await device(ctx, 'OC-C1')).online).toBe(1);
    expect(other.settles()).toBe(0);
    await ingest.close();
    expect(order.at(-1)).toBe('other');
  });

  it("hands acknowledgements of commands to the command log", async () => {
    const command = await recordCommand(ctx.db, 'OC-A1', { type: 'state', State: 'Stop' }, null, NOW);
    await send(ingest, 'oc/OC-A1/ack', JSON.stringify({ cmdId: command.cmdId, ok: false, error: 'door open' })).settled;
    const row = await ctx.db.selectFrom('device_commands').select(['status', 'error']).where('cmd_id', '=', command.cmdId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'refused', error: 'door open' });
    // Another device cannot answer it; the ack is still handled (logged and acknowledged).
    await send(ingest, 'oc/OC-B1/ack', JSON.stringify({ cmdId: command.cmdId, ok: true })).settled;
    expect(ingest.counters.acks).toBe(2);
  });

  it('does not settle a batch whose write fails, retries it with backoff and loses nothing after it', async () => {
    const broken = await breakInserts(ctx);
    const first = send(ingest, ...telemetry('OC-A1', { Time: AT }));
    await until(() => ingest.counters.failures >= 3, 'three failed attempts');
    const later = send(ingest, ...telemetry('OC-A1', { Time: AT + 1000 }));
    const event2 = send(ingest, ...event('OC-B2', { type: 'emergency', Time: NOW, active: true }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([first.settles(), later.settles(), event2.settles()]).toEqual([0, 0, 0]);
    expect(await readings(ctx, 'OC-A1')).toEqual([]);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ work: 'batch', messages: 1 }), 'ingest: write failed; messages not acknowledged');

    await broken.heal();
    await Promise.all([first.settled, later.settled, event2.settled]);
    expect((await readings(ctx, 'OC-A1')).map((row) => row.time)).toEqual([AT, AT + 1000]);
    expect(ingest.counters).toMatchObject({ stored: 2, events: 1, pending: 0 });
  });

  it('while a write is in progress, the open batch keeps filling past maxWaitMs and is written as one when the worker is free', async () => {
    const broken = await breakInserts(ctx);
    const first = send(ingest, ...telemetry('OC-A1', { Time: AT }));
    await until(() => ingest.counters.failures >= 1, 'a failed attempt');
    // Ten readings, each after the 5 ms maxWaitMs has passed, while the worker retries the first batch.
    const later = [];
    for (let i = 1; i <= 10; i += 1) {
      later.push(send(ingest, ...telemetry(i % 2 === 0 ? 'OC-A1' : 'OC-B1', { Time: AT + i * 1000 })));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(later.every((each) => each.settles() === 0)).toBe(true);

    await broken.heal();
    await Promise.all([first.settled, ...later.map((each) => each.settled)]);
    expect(ingest.counters).toMatchObject({ stored: 11, commits: 2, pending: 0 });
    expect((await readings(ctx, 'OC-B1')).map((row) => row.time)).toEqual([1, 3, 5, 7, 9].map((i) => AT + i * 1000));
  });

  it('on close writes what is pending; after close, and beyond maxPending, refuses without acknowledging', async () => {
    start({ maxWaitMs: 10_000, maxPending: 2 });
    const kept = [send(ingest, ...telemetry('OC-A1', { Time: AT })), send(ingest, ...telemetry('OC-A1', { Time: AT + 1 }))];
    const over = send(ingest, ...telemetry('OC-A1', { Time: AT + 2 }));
    expect(ingest.counters.refused.overload).toBe(1);
    await ingest.close();
    expect(kept.map((each) => each.settles())).toEqual([1, 1]);
    const late = send(ingest, ...telemetry('OC-A1', { Time: AT + 3 }));
    expect([over.settles(), late.settles()]).toEqual([0, 0]);
    expect(ingest.counters).toMatchObject({ stored: 2, refused: { overload: 1, closed: 1 }, pending: 0 });
    expect(accounted(ingest.counters)).toBe(ingest.counters.received);
  });

  it('on close gives up a failing write at once, leaving its messages unacknowledged', async () => {
    const broken = await breakInserts(ctx);
    const ingest = start({ retryFirstMs: 60_000, retryMaxMs: 60_000 });
    const stuck = send(ingest, ...telemetry('OC-A1', { Time: AT }));
    // The first attempt waits for the writer thread to start (tsx compiling its modules): 7 s measured on a busy two-core machine.
    await until(() => ingest.counters.failures >= 1, 'a failed attempt', 20_000);
    const started = Date.now();
    await ingest.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(stuck.settles()).toBe(0);
    expect(ingest.counters.pending).toBe(1);
    await broken.heal();
  });
});

describe.each(WRITERS)('ingest batching limits ($name)', ({ kind, writerThread }) => {
  const store = useStore(kind);
  beforeAll(async () => {
    await seedFleet(store.context());
  });

  it("writes a batch larger than one insert statement (the stores' parameter limits) in one transaction", async () => {
    const ctx = store.context({}, () => NOW);
    const ingest = createIngest(ctx, { log: fakeLog() as unknown as IngestLog, batchSize: 5000, maxWaitMs: 10_000, sweepIntervalMs: 0, writerThread });
    const sent = Array.from({ length: 4321 }, (_, i) => send(ingest, ...telemetry(i % 3 === 0 ? 'OC-A1' : 'OC-C2', { Time: AT + i, RCP: 1 })));
    await ingest.close();
    expect(sent.every((each) => each.settles() === 1)).toBe(true);
    expect(ingest.counters).toMatchObject({ stored: 4321, commits: 1 });
    const latest = await ctx.db.selectFrom('devices').select('latest').where('id', '=', 'OC-C2').executeTakeFirstOrThrow();
    expect(JSON.parse(latest.latest ?? 'null')).toEqual({ Time: AT + 4319, RCP: 1, Id: 'OC-C2' });
  });
});
