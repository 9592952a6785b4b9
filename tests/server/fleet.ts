import type { FastifyInstance } from 'fastify';
import { beforeEach } from 'vitest';
import { seedDemo } from '../../server/accounts/demo';
import type { AppContext } from '../../server/context';
import type { NewDeviceRow, NewOrderRow, NewStateRecordRow } from '../../server/db/schema';
import { DEMO, tokenFor } from './http';
import type { TestStore } from './stores';

/**
 * A small, fully known fleet for list tests: the demo accounts (admin → first → second → client),
 * six devices, five readings per device and eight orders.
 *   first manages OC-A1, OC-A2, OC-B1, OC-B2; second OC-A1, OC-A2; client OC-A1.
 * Text values are chosen for filter tests: 'Hall A' / 'hall a annex' (case), 'Lab_1' and 'Lab 100%'
 * (LIKE's own characters), 'Lab X1'.
 */

export const T0 = 1_767_600_000_000;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** A device row with the defaults a fresh chamber has (closed, offline, no order, no secret). */
export const deviceRow = (
  id: string,
  name: string,
  type: number,
  location: string,
  state: string,
  extra: Partial<NewDeviceRow> = {},
): NewDeviceRow => ({
  id,
  name,
  type,
  location,
  state,
  permission: state === 'Work' ? 'Open' : 'Close',
  order_num: null,
  erd: 0,
  online: 0,
  last_seen_at: null,
  secret_hash: null,
  created_at: T0,
  updated_at: T0,
  ...extra,
});

export const FLEET_DEVICES: readonly NewDeviceRow[] = [
  deviceRow('OC-A1', 'North One', 1, 'Hall A', 'Work', { online: 1, last_seen_at: T0 + 1000, updated_at: T0 + 5000, order_num: 'ORD-0001' }),
  deviceRow('OC-A2', 'North Two', 2, 'hall a annex', 'Stop', { updated_at: T0 + 4000 }),
  deviceRow('OC-B1', 'South One', 2, 'Hall B', 'Work', { online: 1, last_seen_at: T0 + 3000, updated_at: T0 + 3000 }),
  deviceRow('OC-B2', 'South Two', 3, 'Lab_1', 'Repair', { erd: 1, last_seen_at: T0 + 2000, updated_at: T0 + 2000 }),
  deviceRow('OC-C1', 'East One', 4, 'Lab 100%', 'Stop', { online: 1, updated_at: T0 + 1000 }),
  deviceRow('OC-C2', 'East Two', 5, 'Lab X1', 'Work', { online: 1, last_seen_at: T0 + 6000, updated_at: T0 + 6000 }),
];
export const ALL_DEVICES = FLEET_DEVICES.map((device) => device.id);

export const FLEET_ASSIGNMENTS: Readonly<Record<string, readonly string[]>> = {
  first: ['OC-A1', 'OC-A2', 'OC-B1', 'OC-B2'],
  second: ['OC-A1', 'OC-A2'],
  client: ['OC-A1'],
};

export const READINGS_PER_DEVICE = 5;

/** Five readings a minute apart per device; OC-B1's newest has no oxygen or heart-rate reading. */
export const FLEET_READINGS: readonly NewStateRecordRow[] = FLEET_DEVICES.flatMap((device, d) =>
  Array.from({ length: READINGS_PER_DEVICE }, (_, i): NewStateRecordRow => {
    const blank = device.id === 'OC-B1' && i === READINGS_PER_DEVICE - 1;
    return {
      device_id: device.id,
      time: T0 + i * MINUTE,
      l: i % 2,
      sp: 1.5,
      st: 60,
      ss: (['F', 'M', 'S'] as const)[i % 3] ?? 'F',
      sl: 1,
      sa: 0,
      rcp: Math.round((1 + i * 0.1) * 100) / 100,
      rrd: 60 - i,
      rcpi02: blank ? null : Math.round((20 + d * 0.3 + i * 0.05) * 100) / 100,
      rgpi02: 93,
      rct: 22 + d * 0.5,
      rcrh: 60,
      hm_hr: blank ? null : 60 + d * 5 + i,
      hm_sp02: 97,
      hm_bp: '120/80',
    };
  }),
);

const order = (n: number, deviceId: string, hoursAgo: number, extra: Partial<NewOrderRow> = {}): NewOrderRow => ({
  order_num: `ORD-${String(n).padStart(4, '0')}`,
  device_id: deviceId,
  time: T0 - hoursAgo * HOUR,
  set_t: T0 - hoursAgo * HOUR + 2 * HOUR,
  oc: String(100_000 + n),
  open_id: `oOpenId${n}`,
  is_used: 0,
  is_pass: 0,
  finished_at: null,
  ...extra,
});

export const FLEET_ORDERS: readonly NewOrderRow[] = [
  order(1, 'OC-A1', 1, { is_used: 1 }),
  order(2, 'OC-A1', 30, { is_used: 1, finished_at: T0 - 27 * HOUR }),
  order(3, 'OC-A2', 5, { is_pass: 1 }),
  order(4, 'OC-B1', 8),
  order(5, 'OC-B2', 12, { is_used: 1, finished_at: T0 - 9 * HOUR }),
  order(6, 'OC-C1', 2),
  order(7, 'OC-C1', 40, { is_pass: 1, set_t: null }),
  order(8, 'OC-C2', 3, { is_used: 1 }),
];

/** Seeds the demo accounts and the fleet above into an empty store. */
export const seedFleet = async (ctx: AppContext): Promise<void> => {
  await seedDemo(ctx);
  await ctx.db.insertInto('devices').values([...FLEET_DEVICES]).execute();
  const accounts = await ctx.db.selectFrom('accounts').select(['id', 'account']).execute();
  const idOf = (name: string) => {
    const found = accounts.find((account) => account.account === name);
    if (found === undefined) throw new Error(`no account ${name}`);
    return found.id;
  };
  await ctx.db
    .insertInto('account_devices')
    .values(
      Object.entries(FLEET_ASSIGNMENTS).flatMap(([account, devices]) =>
        devices.map((device_id) => ({ account_id: idOf(account), device_id, created_at: T0 })),
      ),
    )
    .execute();
  await ctx.db.insertInto('state_records').values([...FLEET_READINGS]).execute();
  await ctx.db.insertInto('orders').values([...FLEET_ORDERS]).execute();
};

export type DemoName = keyof typeof DEMO;

/** A bearer token for each demo account. */
export const demoTokens = async (app: FastifyInstance): Promise<Record<DemoName, string>> => {
  const entries = await Promise.all(
    (Object.keys(DEMO) as DemoName[]).map(async (name) => [name, await tokenFor(app, DEMO[name].Account, DEMO[name].Code)] as const),
  );
  return Object.fromEntries(entries) as Record<DemoName, string>;
};

/** Every row of the data tables, for "nothing was written" checks (sessions aside: a token use touches them). */
export const snapshot = async (ctx: AppContext): Promise<string> => {
  const { db } = ctx;
  const tables = await Promise.all([
    db.selectFrom('accounts').selectAll().orderBy('id').execute(),
    db.selectFrom('devices').selectAll().orderBy('id').execute(),
    db.selectFrom('account_devices').selectAll().orderBy('account_id').orderBy('device_id').execute(),
    db.selectFrom('orders').selectAll().orderBy('id').execute(),
    db.selectFrom('state_records').selectAll().orderBy('id').execute(),
    db.selectFrom('sign_in_attempts').selectAll().orderBy('id').execute(),
  ]);
  return JSON.stringify(tables);
};

/**
 * Before each test: the store emptied and seeded with the fleet, a fresh app on `now` (the store closes it
 * after the test) and a token per demo account. Read `fleet.app` and `fleet.tokens` inside the tests.
 */
export const useFleetApp = (store: TestStore, now?: () => number) => {
  const fleet = {} as { app: FastifyInstance; tokens: Record<DemoName, string> };
  beforeEach(async () => {
    await store.wipe();
    await seedFleet(store.context());
    fleet.app = await store.app({ now });
    fleet.tokens = await demoTokens(fleet.app);
  });
  return fleet;
};
