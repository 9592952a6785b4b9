import type { Config } from '../server/config';
import { createDatabase } from '../server/db/database';
import { createBooking } from '../server/orders/create-booking';
import { EARLY_START_MS, LATE_START_MS } from '../simulator/bookings';

/**
 * The demo's booking desk. The server has no call that creates a booking yet (docs/orders.md:
 * `createBooking` is a service "used by the demo, a simulator and tests"), so `npm run demo` books
 * guests itself, through that service on the server's own store: every minute, for the simulated
 * chambers that are open for use and have no session running or coming, until about half of them are
 * busy. The simulator finds these bookings through the orders list like any other, and starts their
 * sessions with their operation codes (docs/simulator.md, "Bookings").
 */

export interface DeskOptions {
  /** The simulator's chambers: the first `devices` devices by Id. */
  devices: number;
  log: (line: string) => void;
  intervalMs?: number;
  /** The share of open chambers kept busy (running or booked in the coming window). */
  busyShare?: number;
}

const MINUTE = 60_000;
/** New bookings per round at most, so guests trickle in. */
const PER_ROUND = 4;
const OPEN_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

export const startBookingDesk = (config: Config, options: DeskOptions): { stop(): Promise<void> } => {
  const { db } = createDatabase(config, { onPoolError: (error) => options.log(`booking desk: ${error.message}`) });
  const ctx = { db, now: Date.now };

  const round = async (): Promise<void> => {
    const now = Date.now();
    const devices = await db.selectFrom('devices').select(['id', 'permission', 'state', 'order_num']).orderBy('id').limit(options.devices).execute();
    const open = devices.filter((device) => device.permission === 'Open' && device.state !== 'Repair');
    if (open.length === 0) return;
    const booked = await db
      .selectFrom('orders')
      .select('device_id')
      .distinct()
      .where('device_id', 'in', open.map((device) => device.id))
      .where('is_used', '=', 0)
      .where('is_pass', '=', 0)
      .where('set_t', '>=', now - LATE_START_MS)
      .where('set_t', '<=', now + EARLY_START_MS)
      .execute();
    const busy = new Set([...open.filter((device) => device.order_num !== null).map((device) => device.id), ...booked.map((row) => row.device_id)]);
    const free = open.filter((device) => !busy.has(device.id)).map((device) => device.id);
    const wanted = Math.min(PER_ROUND, Math.ceil((options.busyShare ?? 0.5) * open.length) - busy.size);
    for (let made = 0; made < wanted && free.length > 0; made += 1) {
      const deviceId = pick(free) ?? '';
      free.splice(free.indexOf(deviceId), 1);
      // The guest is due in 2–20 minutes: inside the window already, so the session can start soon.
      const setT = Math.ceil((now + (2 + Math.random() * 18) * MINUTE) / MINUTE) * MINUTE;
      const oc = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
      const openId = `o${Array.from({ length: 27 }, () => pick([...OPEN_ID_CHARS]) ?? 'x').join('')}`;
      const order = await createBooking(ctx, { deviceId, setT, oc, openId });
      options.log(`booking desk: ${order.orderNum} for ${deviceId} at ${new Date(setT).toISOString()} (OC ${oc})`);
    }
  };

  let running: Promise<void> = Promise.resolve();
  const tick = (): void => {
    running = round().catch((error: unknown) => options.log(`booking desk: ${error instanceof Error ? error.message : String(error)}`));
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? MINUTE);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      await db.destroy();
    },
  };
};
