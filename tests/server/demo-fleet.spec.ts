import { beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/accounts/demo';
import { asLevel } from '../../server/accounts/levels';
import { listAccounts } from '../../server/accounts/list';
import { DEMO_ASSIGNMENTS, DEMO_DEVICES } from '../../src/domain/demo';
import { seedDemoFleet } from '../../server/demo/fleet';
import { listDevices } from '../../server/devices/list';
import { asRecords } from '../../server/lists/answer';
import { listOrders } from '../../server/orders/list';
import { visibleDeviceIds, type Viewer } from '../../server/scope/service';
import { listStateRecords } from '../../server/telemetry/list';
import { accountsConfig } from '../../src/resources/accounts/config';
import type { WireRecord } from '../../src/resources/model';
import { devicesConfig } from '../../src/resources/devices/config';
import { ordersConfig } from '../../src/resources/orders/config';
import { recordSchema } from '../../src/resources/schema';
import { isBloodPressure } from '../../src/domain/bloodPressure';
import { stateRecordsConfig } from '../../src/resources/state-records/config';
import { call, DEMO, envelope, tokenFor } from './http';
import { fakeClock, HOUR, STORE_KINDS, useStore } from './stores';

describe.each(STORE_KINDS)('demo fleet (%s)', (kind) => {
  const store = useStore(kind);
  beforeEach(() => store.wipe());
  const clock = fakeClock();

  const demoContext = async () => {
    const ctx = store.context(undefined, clock.now);
    await seedDemo(ctx);
    return ctx;
  };
  const viewer = async (ctx: ReturnType<typeof store.context>, account: string): Promise<Viewer> => {
    const row = await ctx.db.selectFrom('accounts').select(['id', 'level']).where('account', '=', account).executeTakeFirstOrThrow();
    return { id: row.id, level: asLevel(row.level) };
  };

  it('seeds 12 devices, their assignments down the chain, 300 readings each and 60 orders, fast and once', async () => {
    const ctx = await demoContext();
    const started = performance.now();
    expect(await seedDemoFleet(ctx)).toEqual({ devices: 12, assignments: 14, stateRecords: 12 * 300, orders: 60 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await seedDemoFleet(ctx)).toEqual({ devices: 0, assignments: 0, stateRecords: 0, orders: 0 });

    // A part that went missing is added again, and only it.
    await ctx.db.deleteFrom('state_records').where('device_id', '=', 'OC-SH-002').execute();
    await ctx.db.deleteFrom('account_devices').execute();
    expect(await seedDemoFleet(ctx)).toEqual({ devices: 0, assignments: 14, stateRecords: 300, orders: 0 });
  });

  it('assigns admin all (by level), first 8, second 4 of first, client 2 of second', async () => {
    const ctx = await demoContext();
    await seedDemoFleet(ctx);
    const seen = async (account: string) => visibleDeviceIds(ctx, await viewer(ctx, account));
    expect(await seen('admin')).toHaveLength(12);
    const [first, second, client] = [await seen('first'), await seen('second'), await seen('client')];
    expect([first.length, second.length, client.length]).toEqual([8, 4, 2]);
    expect(second.every((id) => first.includes(id))).toBe(true);
    expect(client.every((id) => second.includes(id))).toBe(true);
    expect(first).toEqual([...(DEMO_ASSIGNMENTS.first ?? [])].sort());
    // The console shows the same through the real server.
    const app = await store.app({ now: clock.now });
    const token = await tokenFor(app, DEMO.client.Account, DEMO.client.Code);
    const answer = envelope<{ total: number }>(await call(app, '/list/get_OCProperty', {}, { token }));
    expect(answer.data.total).toBe(2);
  });

  it('holds plausible readings and bookings that the shared schemas accept', async () => {
    const ctx = await demoContext();
    await seedDemoFleet(ctx);
    const admin = await viewer(ctx, 'admin');
    const now = clock.now();
    const page = { current: 1, pageSize: 1000 };

    const records: WireRecord[] = [];
    for (let current = 1; current <= 4; current += 1) records.push(...asRecords(await listStateRecords(ctx, admin, { ...page, current })).list);
    expect(records).toHaveLength(3600);
    const schema = recordSchema(stateRecordsConfig);
    for (const record of records) {
      expect(schema.safeParse(record).success, JSON.stringify(record)).toBe(true);
      const r = record as Record<string, number>;
      expect(r.RCPi02).toBeGreaterThanOrEqual(20.5);
      expect(r.RCPi02).toBeLessThanOrEqual(22.5);
      expect(r.RCP).toBeGreaterThanOrEqual(1);
      expect(r.RCP).toBeLessThanOrEqual(1.5);
      expect(r.RCT).toBeGreaterThanOrEqual(20);
      expect(r.RCT).toBeLessThanOrEqual(25);
      expect(r.RCRH).toBeGreaterThanOrEqual(50);
      expect(r.RCRH).toBeLessThanOrEqual(70);
      expect(r.HmHR).toBeGreaterThanOrEqual(60);
      expect(r.HmHR).toBeLessThanOrEqual(90);
      expect(r.HmSP02).toBeGreaterThanOrEqual(95);
      expect(r.HmSP02).toBeLessThanOrEqual(99);
      expect(isBloodPressure(String(record.HmBP))).toBe(true);
      expect(r.Time).toBeLessThanOrEqual(now);
      expect(r.Time).toBeGreaterThan(now - 12 * HOUR);
    }
    // A working chamber is reporting now; one in repair went quiet hours ago.
    const newest = (id: string) => Math.max(...records.filter((record) => record.Id === id).map((record) => record.Time as number));
    expect(now - newest('OC-BJ-001')).toBeLessThan(2 * 60_000);
    expect(now - newest('OC-BJ-004')).toBeGreaterThan(4 * HOUR);

    const devices = asRecords(await listDevices(ctx, admin, { current: 1, pageSize: 100 })).list;
    const orders = asRecords(await listOrders(ctx, admin, { current: 1, pageSize: 100 })).list;
    expect(devices).toHaveLength(DEMO_DEVICES.length);
    expect(orders).toHaveLength(60);
    expect(new Set(orders.map((order) => order.OrderNum)).size).toBe(60);
    for (const device of devices) expect(recordSchema(devicesConfig).safeParse(device).success, JSON.stringify(device)).toBe(true);
    for (const order of orders) expect(recordSchema(ordersConfig).safeParse(order).success, JSON.stringify(order)).toBe(true);
    for (const device of devices.filter((candidate) => candidate.State === 'Work')) {
      const running = orders.find((order) => order.OrderNum === device.OrderNum);
      expect(running, String(device.Id)).toMatchObject({ Id: device.Id, IsUsed: true, IsPass: false, FinishTime: null });
    }
    expect(new Set(devices.map((device) => device.Location)).size).toBe(4);
    expect(new Set(devices.map((device) => device.Type))).toEqual(new Set([1, 2, 3, 4, 5]));
    const accounts = (await listAccounts(ctx, admin, { current: 1, pageSize: 10 })).list;
    for (const account of accounts) expect(recordSchema(accountsConfig).safeParse(account).success).toBe(true);
  });
});
