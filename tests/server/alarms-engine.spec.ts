import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DEVICE_TYPES } from '../../src/domain/deviceTypes';
import type { LiveEvent } from '../../src/domain/live';
import { actOnAlarm } from '../../server/alarms/actions';
import type { AppContext } from '../../server/context';
import type { InboundMessage } from '../../server/mqtt/transport';
import { createIngest, type Ingest } from '../../server/telemetry/ingest';
import type { IngestLog } from '../../server/telemetry/log';
import { OFFLINE_AFTER_MS } from '../../server/telemetry/presence';
import { demoTokens, seedFleet, T0 } from './fleet';
import { fakeClock, HOUR, MINUTE, STORE_KINDS, useStore } from './stores';

/**
 * The safety alarm engine (server/alarms/, docs/alarms.md) fed by ingestion on both stores, as the MQTT
 * transport feeds it (SQLite: batches in the writer thread): readings a second apart, each acknowledged
 * before the next is sent, as a chamber publishes them.
 */

const NOW = T0 + HOUR;
const AT = T0 + 30 * MINUTE;

const fakeLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

describe.each(STORE_KINDS)('the alarm engine (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(NOW);
  let ctx: AppContext;
  let ingest: Ingest;
  let live: LiveEvent[];
  let log: ReturnType<typeof fakeLog>;
  const started: Ingest[] = [];
  const start = (): Ingest => {
    ingest = createIngest(ctx, { log: log as unknown as IngestLog, maxWaitMs: 2, sweepIntervalMs: 0 });
    started.push(ingest);
    return ingest;
  };

  beforeEach(async () => {
    clock.set(NOW);
    await store.wipe();
    ctx = store.context({}, clock.now);
    await seedFleet(ctx);
    // The types are not wiped: one test edits a rating.
    for (const { id, ratedMaxAta } of DEFAULT_DEVICE_TYPES) await ctx.db.updateTable('device_types').set({ rated_max_ata: ratedMaxAta }).where('id', '=', id).execute();
    live = [];
    log = fakeLog();
    ctx.live.subscribe((item) => live.push(item));
    start();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((each) => each.close()));
    // An evaluation that failed is only logged: none may have.
    expect(log.error).not.toHaveBeenCalled();
  });

  /** Publishes one message and waits for its acknowledgement. */
  const publish = (topic: string, payload: unknown): Promise<void> =>
    new Promise((settled) => {
      const message: InboundMessage = { topic, payload: Buffer.from(JSON.stringify(payload)), qos: 1, settle: () => settled() };
      ingest.accept(message);
    });
  /** Readings of `deviceId` one a second from `from` (each acknowledged before the next), then the alarms evaluated. */
  const feed = async (deviceId: string, readings: readonly Record<string, unknown>[], from: number) => {
    for (const [second, fields] of readings.entries()) await publish(`oc/${deviceId}/telemetry`, { Time: from + second * 1000, ...fields });
    await ingest.alarms.settled();
  };
  /** Readings one a second from `from` published at once, in `order`, as a device sends the backlog it buffered: one batch. */
  const backlog = async (deviceId: string, readings: readonly Record<string, unknown>[], from: number, order: 'oldest first' | 'newest first') => {
    const sent = readings.map((fields, second) => ({ Time: from + second * 1000, ...fields }));
    if (order === 'newest first') sent.reverse();
    await Promise.all(sent.map((reading) => publish(`oc/${deviceId}/telemetry`, reading)));
    await ingest.alarms.settled();
  };
  const held = (fields: Record<string, unknown>, seconds: number) => Array.from({ length: seconds }, () => fields);
  const alarms = (deviceId?: string) => {
    const query = ctx.db.selectFrom('alarms').select(['id', 'device_id', 'kind', 'priority', 'state', 'value', 'threshold']).orderBy('id');
    return (deviceId === undefined ? query : query.where('device_id', '=', deviceId)).execute();
  };
  const states = async (deviceId: string) => (await alarms(deviceId)).map((row) => `${row.kind}:${row.priority}:${row.state}`);

  it('raises oxygen at 23.49 % as medium and at 23.5 % as high, once its 3 s on-delay has passed', async () => {
    await feed('OC-A1', held({ RCPi02: 23.49 }, 3), AT);
    expect(await alarms('OC-A1')).toEqual([]);
    await feed('OC-A1', [{ RCPi02: 23.49 }], AT + 3000);
    await feed('OC-C2', held({ RCPi02: 23.5 }, 4), AT);
    expect(await alarms()).toMatchObject([
      { device_id: 'OC-A1', kind: 'o2-high', priority: 'medium', state: 'active-unacked', value: 23.49, threshold: 23 },
      { device_id: 'OC-C2', kind: 'o2-high', priority: 'high', state: 'active-unacked', value: 23.5, threshold: 23.5 },
    ]);
    // Announced to the device's viewers as the REST answer shows it.
    expect(live.filter((event) => event.type === 'alarm').map((event) => event.type === 'alarm' && [event.data.deviceId, event.data.state])).toEqual([
      ['OC-A1', 'active-unacked'],
      ['OC-C2', 'active-unacked'],
    ]);
  });

  it('a single noisy sample raises nothing; a value oscillating within the deadband raises one alarm', async () => {
    await feed('OC-A1', [{ RCT: 24 }, { RCT: 35 }, ...held({ RCT: 24 }, 3)], AT);
    expect(await alarms()).toEqual([]);
    const oscillating = Array.from({ length: 12 }, (_, second) => ({ RCPi02: second % 2 === 0 ? 23.05 : 22.85 }));
    await feed('OC-A1', [...held({ RCPi02: 23.1 }, 4), ...oscillating], AT + 10_000);
    expect(await states('OC-A1')).toEqual(['o2-high:medium:active-unacked']);
  });

  it('returns to normal after the off-delay, closes once acknowledged, and a returning condition opens a new alarm', async () => {
    await feed('OC-A1', [...held({ RCPi02: 23.6 }, 4), ...held({ RCPi02: 22 }, 10)], AT);
    expect(await states('OC-A1')).toEqual(['o2-high:high:active-unacked']);
    await feed('OC-A1', [{ RCPi02: 22 }], AT + 14_000);
    expect(await states('OC-A1')).toEqual(['o2-high:high:rtn-unacked']);
    const [first] = await alarms('OC-A1');
    const acked = await actOnAlarm(ctx, { id: 1, level: 0 }, { id: 1, account: 'admin', address: 'test' }, Number(first?.id), { input: 'ack' });
    expect(acked).toMatchObject({ state: 'closed', ackedBy: 'admin' });
    await feed('OC-A1', held({ RCPi02: 23.1 }, 4), AT + 20_000);
    expect(await states('OC-A1')).toEqual(['o2-high:high:closed', 'o2-high:medium:active-unacked']);
  });

  it("pressure-high alarms high above the type's rated maximum, and follows an edit of the rating", async () => {
    // The seeded rules leave the high limit to the types.
    const limits = await ctx.db.selectFrom('alarm_rules').select('high_above').where('kind', '=', 'pressure-high').execute();
    expect(limits.map((row) => row.high_above)).toEqual([null, null, null, null, null]);
    // OC-B1 is of type 2, rated 1.5 ATA: at the rating nothing, above it high once held 3 s.
    await feed('OC-B1', held({ RCP: 1.5 }, 4), AT);
    expect(await alarms('OC-B1')).toEqual([]);
    await feed('OC-B1', held({ RCP: 1.51 }, 3), AT + 4000);
    expect(await alarms('OC-B1')).toEqual([]);
    await feed('OC-B1', [{ RCP: 1.51 }], AT + 7000);
    expect(await alarms('OC-B1')).toMatchObject([{ kind: 'pressure-high', priority: 'high', state: 'active-unacked', value: 1.51, threshold: 1.5 }]);

    // The super administrator rates type 2 at 1.6 ATA; the engine's next sweep applies it.
    const app = await store.app({ now: clock.now });
    const { admin } = await demoTokens(app);
    const headers = { authorization: `Bearer ${admin}` };
    const type = (await app.inject({ method: 'GET', url: '/api/v1/device-types/2', headers })).json<Record<string, unknown>>();
    const edited = await app.inject({ method: 'PUT', url: '/api/v1/device-types/2', headers, payload: { ...type, ratedMaxAta: 1.6 } });
    expect(edited.statusCode).toBe(200);
    await ingest.alarms.sweep();
    // OC-A2, of the same type: 1.55 ATA is within the new rating, 1.61 above it.
    await feed('OC-A2', held({ RCP: 1.55 }, 4), AT);
    expect(await alarms('OC-A2')).toEqual([]);
    await feed('OC-A2', held({ RCP: 1.61 }, 4), AT + 4000);
    expect(await alarms('OC-A2')).toMatchObject([{ kind: 'pressure-high', priority: 'high', value: 1.61, threshold: 1.6 }]);
  });

  it("a backlog sent at once drives the timers by its readings' Times", async () => {
    // An on-delay completed inside the backlog raises; a single noisy sample inside one raises nothing.
    await backlog('OC-A1', [...held({ RCPi02: 22 }, 2), ...held({ RCPi02: 23.6 }, 3), { RCPi02: 23.7 }, ...held({ RCPi02: 22 }, 4)], AT, 'oldest first');
    await backlog('OC-C2', [...held({ RCT: 24 }, 3), { RCT: 35 }, ...held({ RCT: 24 }, 6)], AT, 'oldest first');
    expect(await alarms()).toMatchObject([{ device_id: 'OC-A1', kind: 'o2-high', priority: 'high', state: 'active-unacked', value: 23.7, threshold: 23.5 }]);
    // Flushed newest first, a backlog is still evaluated oldest first: raised, then returned after the off-delay.
    await backlog('OC-C1', [...held({ RCPi02: 23.6 }, 4), ...held({ RCPi02: 22 }, 11)], AT, 'newest first');
    expect(await states('OC-C1')).toEqual(['o2-high:high:rtn-unacked']);
    const [returned] = await alarms('OC-C1');
    const history = await ctx.db.selectFrom('alarm_transitions').select(['from_state', 'to_state']).where('alarm_id', '=', Number(returned?.id)).orderBy('id').execute();
    expect(history).toEqual([
      { from_state: null, to_state: 'active-unacked' },
      { from_state: 'active-unacked', to_state: 'rtn-unacked' },
    ]);
    // Readings older than the newest evaluated arrive late, in a backlog of their own: skipped.
    await backlog('OC-C2', held({ RCT: 35 }, 40), AT - 60_000, 'oldest first');
    expect(await alarms('OC-C2')).toEqual([]);
  });

  it('a restart between raise and close neither loses nor duplicates the alarm', async () => {
    await feed('OC-A1', held({ RCPi02: 23.6 }, 4), AT + 1000);
    expect(await states('OC-A1')).toEqual(['o2-high:high:active-unacked']);
    await ingest.close();
    start();
    // Still high after the restart: nothing new; then normal for the off-delay: returned, the same alarm.
    await feed('OC-A1', [...held({ RCPi02: 23.6 }, 5), ...held({ RCPi02: 22 }, 11)], AT + 10_000);
    expect(await states('OC-A1')).toEqual(['o2-high:high:rtn-unacked']);
  });

  it('redelivered and out-of-order readings neither raise again nor move an alarm back', async () => {
    const raising = held({ HmSP02: 85 }, 11);
    await publish('oc/OC-A1/event', { type: 'sessionStart', Time: AT - 1000, OC: 'S-1' });
    await feed('OC-A1', raising, AT);
    // The same readings again (QoS 1 redelivery), then older ones, normal, arriving late.
    await feed('OC-A1', raising, AT);
    await feed('OC-A1', held({ HmSP02: 99 }, 20), AT - 60_000);
    expect(await states('OC-A1')).toEqual(['spo2-low:high:active-unacked']);
  });

  it('a device reconnecting in a loop keeps one alarm', async () => {
    await publish('oc/OC-A1/event', { type: 'emergency', Time: AT, active: true });
    await ingest.alarms.settled();
    for (let loop = 0; loop < 10; loop += 1) {
      await publish('oc/OC-A1/status', 'offline');
      await publish('oc/OC-A1/status', 'online');
      await publish('oc/OC-A1/event', { type: 'emergency', Time: AT + loop, active: true });
      await feed('OC-A1', [{ RCP: 1.3 }], AT + loop * 1000);
    }
    expect(await states('OC-A1')).toEqual(['erd:high:active-unacked']);
    await publish('oc/OC-A1/event', { type: 'emergency', Time: AT + 20_000, active: false });
    await ingest.alarms.settled();
    expect(await states('OC-A1')).toEqual(['erd:high:rtn-unacked']);
  });

  it('lost telemetry during a session raises one alarm, which returns at the first reading', async () => {
    await publish('oc/OC-A1/event', { type: 'sessionStart', Time: AT, OC: 'S-2' });
    clock.advance(OFFLINE_AFTER_MS + 1000);
    await ingest.sweep();
    await ingest.sweep();
    await ingest.alarms.settled();
    expect(await states('OC-A1')).toEqual(['offline:medium:active-unacked']);
    await feed('OC-A1', [{ RCP: 1.3 }], AT + 40_000);
    expect(await states('OC-A1')).toEqual(['offline:medium:rtn-unacked']);
  });

  it('suppresses the rules of a device in Repair, and vitals outside a session: listed, never signalled', async () => {
    // OC-B2 is in Repair.
    await feed('OC-B2', held({ RCPi02: 24 }, 4), AT);
    // OC-A1 runs no session: its vitals are suppressed.
    await feed('OC-A1', held({ HmHR: 150 }, 11), AT);
    expect(await states('OC-B2')).toEqual(['o2-high:high:suppressed']);
    expect(await states('OC-A1')).toEqual(['heart-rate:high:suppressed']);
    // Out of Repair: the sweep brings the standing alarm back unacknowledged.
    await ctx.db.updateTable('devices').set({ state: 'Work' }).where('id', '=', 'OC-B2').execute();
    await ingest.alarms.sweep();
    expect(await states('OC-B2')).toEqual(['o2-high:high:active-unacked']);
  });

  it('one open alarm per device and rule, whatever writes it: the store refuses a second', async () => {
    const row = { device_id: 'OC-A1', kind: 'erd', priority: 'high', state: 'active-unacked', condition: 1, raised_at: NOW };
    await ctx.db.insertInto('alarms').values(row).execute();
    await expect(ctx.db.insertInto('alarms').values({ ...row, state: 'shelved' }).execute()).rejects.toThrow();
    await ctx.db.insertInto('alarms').values({ ...row, state: 'closed' }).execute();
  });
});
