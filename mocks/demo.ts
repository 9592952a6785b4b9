import { DEMO_ACCOUNTS, DEMO_ADMIN, DEMO_ASSIGNMENTS, DEMO_DEVICES } from '../src/domain/demo';
import { seededRandomFor } from '../src/domain/random';
import { RESOURCE_CONFIGS } from '../src/resources/configs';
import type { WireRecord } from '../src/resources/model';
import { orderStateOf } from '../src/resources/orders/requests';
import type { ResourceConfig } from '../src/resources/types';
import { seededAlarms } from './alarms';
import { mockCredentials, type MockAccount } from './auth';
import { noCommands } from './deviceCommands';
import { settleSeededOrders } from './orders';
import { seededReading } from './readings';
import { seedTables } from './seed';
import type { MockState } from './state';
import { noUserSettings } from './userSettings';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The demo's chain of accounts, ids in order from the super administrator (1), each under the one before. */
const DEMO_CHAIN: readonly MockAccount[] = [DEMO_ADMIN, ...DEMO_ACCOUNTS].map(({ account, password, level }, index, chain) => ({
  Account: account,
  Code: password,
  Level: level,
  id: index + 1,
  SubAdmin: chain[index - 1]?.account ?? null,
}));

/** The demo's accounts as the mocks sign them in. */
export const demoCredentials = () => mockCredentials(DEMO_CHAIN);

/** The accounts as get_Admins lists them: every one below the super administrator, with the devices it manages. */
const demoAccounts = (): WireRecord[] =>
  DEMO_CHAIN.slice(1).map((account) => ({
    Account: account.Account,
    SubId: DEMO_CHAIN.find((upper) => upper.Account === account.SubAdmin)?.id ?? null,
    Level: account.Level,
    SubAdmin: account.SubAdmin,
    DeviceIds: [...(DEMO_ASSIGNMENTS[account.Account] ?? [])].sort(),
  }));

/** The demo's chambers as the device list shows them, each with a newest reading from when it last reported. */
const demoDevices = (now: number): WireRecord[] =>
  DEMO_DEVICES.map((device, index) => {
    const lastSeen = now - device.quietHours * HOUR - (device.online ? (index % 5) * 1000 : 0);
    return {
      Id: device.id,
      name: device.name,
      Type: device.type,
      Location: device.location,
      State: device.state,
      Permission: device.permission,
      OrderNum: null,
      Emergency: device.erd,
      Online: device.online,
      LastSeen: lastSeen,
      UpdateTime: now - device.quietHours * HOUR,
      SessionOC: null,
      InSession: false,
      Reading: seededReading(index, seededRandomFor(device.id), lastSeen),
    };
  });

/**
 * Each working chamber runs the newest running booking (its OrderNum and the session's code), as the
 * demo's seeder has one running order per working chamber; the other running bookings belong to the
 * chambers that are not working, and are finished.
 */
const runSessions = (devices: WireRecord[], orders: WireRecord[], now: number): void => {
  const working = devices.filter((device) => device.State === 'Work');
  const running = orders.filter((order) => orderStateOf(order) === 'running');
  running.forEach((order, index) => {
    const device = working[index];
    if (device === undefined) {
      order.FinishTime = Math.min(now, Number(order.UseTime) + HOUR);
      return;
    }
    Object.assign(order, { Id: device.Id, SetT: now - (10 + index * 5) * MINUTE, UseTime: now - (10 + index * 5) * MINUTE });
    Object.assign(device, { OrderNum: order.OrderNum, SessionOC: order.OC, InSession: true });
  });
};

/** Bookings not yet used are for later today: one every quarter of an hour from now on. */
const bookAhead = (orders: WireRecord[], now: number): void => {
  orders
    .filter((order) => orderStateOf(order) === 'open')
    .forEach((order, index) => Object.assign(order, { Time: Math.min(Number(order.Time), now), SetT: now + (index + 1) * 15 * MINUTE }));
};

/**
 * `npm run dev:mock`'s data: the demo's accounts (src/domain/demo.ts: admin, first, second, client with
 * the demo's passwords, each under the one above, managing the demo's assignments) and its chambers;
 * the other records generated over them and dated from `now`: readings a minute apart over the last
 * hour, bookings twenty minutes apart (those not yet used are for later today, a working chamber runs
 * one), alarms raised minutes ago.
 */
export const demoState = (now: number, resources: readonly ResourceConfig[] = RESOURCE_CONFIGS): MockState => {
  const devices = demoDevices(now);
  const tables = seedTables(resources, {
    epoch: now,
    given: { devices, accounts: demoAccounts() },
    stepMs: { 'state-records': MINUTE, orders: 20 * MINUTE, 'audit-log': 10 * MINUTE },
  });
  const orders = tables.get('orders') ?? [];
  settleSeededOrders(orders);
  runSessions(devices, orders, now);
  bookAhead(orders, now);
  const { history, condition } = seededAlarms(devices, now);
  return { tables, credentials: demoCredentials(), commands: noCommands(), alarms: { history, condition }, userSettings: noUserSettings(), seededAt: now, frozen: false };
};
