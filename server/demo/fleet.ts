import type { Kysely } from 'kysely';
import { seededRandom, seededRandomFor, type Random } from '../../src/domain/random';
import { ratedMaxAtaIn, sessionSetPoint, type RatedMaxima } from '../../src/domain/deviceTypes';
import { DEMO_ASSIGNMENTS, DEMO_DEVICES, type DemoDevice } from '../../src/domain/demo';
import type { AppContext } from '../context';
import type { DB, NewDeviceRow, NewOrderRow, NewStateRecordRow } from '../db/schema';
import { ratedMaxima } from '../device-types/ratedMax';

/**
 * The demo fleet (`--demo`): the chambers of src/domain/demo.ts, assigned down the demo chain as it says, a few hours of
 * plausible readings per chamber and about 60 bookings. Idempotent: each part is added only where it
 * is missing (devices by Id, assignments by pair, readings for a device without any, orders when no
 * demo device has any). Deterministic apart from the clock: readings and orders count back from now.
 */

const ids = DEMO_DEVICES.map((demo) => demo.id);

export interface FleetOptions {
  /** Readings per device at most (default 300, one a minute during sessions). */
  recordsPerDevice?: number;
  /** Orders in all (default 60). */
  orders?: number;
}

export interface FleetResult {
  devices: number;
  assignments: number;
  stateRecords: number;
  orders: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Rows per INSERT: well under both stores' parameter limits (17 columns × 500 < 32,766). */
const BATCH = 500;



const between = (random: Random, min: number, max: number) => min + random() * (max - min);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** A random walk step kept inside [min, max]. */
const walk = (random: Random, value: number, step: number, min: number, max: number) =>
  clamp(value + between(random, -step, step), min, max);

const SESSION_MINUTES = 60;
const GAP_MINUTES = 15;

/**
 * One device's readings: back-to-back 60-minute sessions (pressurise, hold, depressurise) with a
 * 15-minute gap, one reading a minute, the newest `quietHours` before now; at most `limit` of them. Each
 * session's set point lies below the device type's rating (`sessionSetPoint`), and its pressure never
 * passes the set point by more than the sensor's noise, so the demo's own data raises no pressure alarm
 * (and a simulated chamber resuming its session from the newest reading holds within its rating).
 */
export const demoReadings = (demo: DemoDevice, now: number, limit: number, maxima: RatedMaxima): NewStateRecordRow[] => {
  const ratedMaxAta = ratedMaxAtaIn(maxima, demo.type);
  const random = seededRandomFor(demo.id);
  const last = Math.floor((now - demo.quietHours * HOUR) / MINUTE) * MINUTE;
  const rows: NewStateRecordRow[] = [];
  // The newest session is under way at `last` (for a working chamber, now): count back from it.
  let minutesIntoSession = demo.state === 'Work' ? Math.floor(between(random, 10, 40)) : SESSION_MINUTES - 1;
  let o2 = between(random, 20.8, 22.0);
  let generator = between(random, 91, 94);
  let temperature = between(random, 21, 24);
  let humidity = between(random, 55, 65);
  let heartRate = between(random, 65, 85);
  let spo2 = between(random, 96, 98.5);
  let systolic = between(random, 110, 126);
  let diastolic = between(random, 70, 80);
  let setPressure = sessionSetPoint(random, ratedMaxAta);
  let speed = (['F', 'M', 'S'] as const)[Math.floor(random() * 3)] ?? 'M';
  let atmosphere = random() < 0.5 ? 1 : 0;
  for (let time = last; rows.length < limit; time -= MINUTE) {
    if (minutesIntoSession < 0) {
      // The gap before this session: no readings; then the previous session, with its own settings.
      time -= (GAP_MINUTES - 1) * MINUTE;
      minutesIntoSession = SESSION_MINUTES - 1;
      setPressure = sessionSetPoint(random, ratedMaxAta);
      speed = (['F', 'M', 'S'] as const)[Math.floor(random() * 3)] ?? 'M';
      atmosphere = random() < 0.5 ? 1 : 0;
      heartRate = between(random, 65, 85);
      systolic = between(random, 110, 126);
      diastolic = between(random, 70, 80);
      continue;
    }
    const ramp = speed === 'F' ? 6 : speed === 'M' ? 10 : 14;
    const fromEnd = SESSION_MINUTES - 1 - minutesIntoSession;
    const progress = Math.min(1, minutesIntoSession / ramp, fromEnd / ramp);
    o2 = walk(random, o2, 0.15, 20.5, 22.5);
    generator = walk(random, generator, 0.3, 90, 95);
    temperature = walk(random, temperature, 0.2, 20, 25);
    humidity = walk(random, humidity, 0.8, 50, 70);
    heartRate = walk(random, heartRate, 2, 60, 90);
    spo2 = walk(random, spo2, 0.4, 95, 99);
    systolic = walk(random, systolic, 1.5, 108, 132);
    diastolic = walk(random, diastolic, 1, 68, 86);
    rows.push({
      device_id: demo.id,
      time,
      l: 1,
      sp: setPressure,
      st: SESSION_MINUTES,
      ss: speed,
      sl: 1,
      sa: atmosphere,
      rcp: round(clamp(1 + (setPressure - 1) * progress + between(random, -0.01, 0.01), 1, setPressure + 0.01), 2),
      rrd: SESSION_MINUTES - minutesIntoSession,
      rcpi02: round(o2, 1),
      rgpi02: round(generator, 1),
      rct: round(temperature, 1),
      rcrh: round(humidity, 1),
      hm_hr: Math.round(heartRate),
      hm_sp02: Math.round(spo2),
      hm_bp: `${Math.round(systolic)}/${Math.round(diastolic)}`,
    });
    minutesIntoSession -= 1;
  }
  return rows;
};

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const dateStamp = (time: number) => {
  const date = new Date(time);
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
};
const OPEN_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * About `count` bookings over the last three days and the next day: one running order per working
 * chamber (used, not finished: the device's OrderNum), finished ones, expired ones and upcoming ones.
 */
const demoOrders = (now: number, count: number): { orders: NewOrderRow[]; running: Map<string, string> } => {
  const random = seededRandom(20_260_105);
  const drafts: Omit<NewOrderRow, 'order_num'>[] = [];
  for (const demo of DEMO_DEVICES.filter((candidate) => candidate.state === 'Work')) {
    const setT = Math.floor((now - between(random, 10, 40) * MINUTE) / MINUTE) * MINUTE;
    drafts.push({ device_id: demo.id, time: setT - Math.round(between(random, 2, 30)) * HOUR, set_t: setT, is_used: 1, is_pass: 0, finished_at: null, used_at: setT });
  }
  while (drafts.length < count) {
    const demo = DEMO_DEVICES[Math.floor(random() * DEMO_DEVICES.length)] ?? DEMO_DEVICES[0];
    if (demo === undefined) break;
    const time = Math.floor((now - between(random, 1, 72) * HOUR) / MINUTE) * MINUTE;
    const setT = Math.floor((time + between(random, 0.5, 30) * HOUR) / (15 * MINUTE)) * 15 * MINUTE;
    const past = setT + SESSION_MINUTES * MINUTE < now;
    const used = past && random() < 0.75;
    drafts.push({
      device_id: demo.id,
      time,
      set_t: setT,
      is_used: used ? 1 : 0,
      is_pass: past && !used ? 1 : 0,
      finished_at: used ? setT + Math.round(between(random, SESSION_MINUTES, SESSION_MINUTES + 10)) * MINUTE : null,
      // A used booking's session started at its booking time (UseTime), so the demo's sessions are counted and charted.
      used_at: used ? setT : null,
    });
  }
  drafts.sort((a, b) => a.time - b.time);
  const perDay = new Map<string, number>();
  const running = new Map<string, string>();
  const orders = drafts.map((draft) => {
    const day = dateStamp(draft.time);
    const sequence = (perDay.get(day) ?? 0) + 1;
    perDay.set(day, sequence);
    const orderNum = `${day}${pad(sequence, 4)}`;
    if (draft.is_used === 1 && draft.finished_at === null) running.set(draft.device_id, orderNum);
    const openId = `o${Array.from({ length: 27 }, () => OPEN_ID_CHARS[Math.floor(random() * OPEN_ID_CHARS.length)]).join('')}`;
    return { ...draft, order_num: orderNum, oc: pad(Math.floor(random() * 1_000_000), 6), open_id: openId };
  });
  return { orders, running };
};

const insertBatches = async <T extends 'state_records' | 'orders'>(
  db: Kysely<DB>,
  table: T,
  rows: (T extends 'orders' ? NewOrderRow : NewStateRecordRow)[],
): Promise<void> => {
  for (let start = 0; start < rows.length; start += BATCH) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + BATCH) as never)
      .execute();
  }
};

/** Seeds what is missing of the demo fleet; returns how many rows of each kind it added. */
export const seedDemoFleet = async (ctx: Pick<AppContext, 'db' | 'now'>, options: FleetOptions = {}): Promise<FleetResult> => {
  const now = ctx.now();
  const result: FleetResult = { devices: 0, assignments: 0, stateRecords: 0, orders: 0 };
  await ctx.db.transaction().execute(async (trx) => {
    const existing = new Set(
      (await trx.selectFrom('devices').select('id').where('id', 'in', ids).execute()).map((row) => row.id),
    );
    const haveOrders = await trx.selectFrom('orders').select('id').where('device_id', 'in', ids).limit(1).executeTakeFirst();
    const { orders, running } = haveOrders === undefined ? demoOrders(now, options.orders ?? 60) : { orders: [], running: new Map<string, string>() };

    const missing = DEMO_DEVICES.filter((demo) => !existing.has(demo.id));
    if (missing.length > 0) {
      const rows: NewDeviceRow[] = missing.map((demo, index) => ({
        id: demo.id,
        name: demo.name,
        type: demo.type,
        permission: demo.permission,
        location: demo.location,
        state: demo.state,
        order_num: running.get(demo.id) ?? null,
        erd: demo.erd ? 1 : 0,
        online: demo.online ? 1 : 0,
        // An online chamber was heard from seconds ago; an offline one when it went quiet.
        last_seen_at: now - demo.quietHours * HOUR - (demo.online ? (index % 5) * 1000 : 0),
        secret_hash: null,
        created_at: now - 30 * 24 * HOUR,
        updated_at: now - demo.quietHours * HOUR,
      }));
      await trx.insertInto('devices').values(rows).execute();
      result.devices = rows.length;
    }

    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'account'])
      .where('account', 'in', Object.keys(DEMO_ASSIGNMENTS))
      .execute();
    const pairs = accounts.flatMap((account) =>
      (DEMO_ASSIGNMENTS[account.account] ?? []).map((deviceId) => ({ account_id: account.id, device_id: deviceId, created_at: now })),
    );
    if (pairs.length > 0) {
      const inserted = await trx
        .insertInto('account_devices')
        .values(pairs)
        .onConflict((conflict) => conflict.columns(['account_id', 'device_id']).doNothing())
        .executeTakeFirst();
      result.assignments = Number(inserted.numInsertedOrUpdatedRows ?? 0);
    }

    const withReadings = new Set(
      (
        await trx
          .selectFrom('state_records')
          .select('device_id')
          .distinct()
          .where('device_id', 'in', ids)
          .execute()
      ).map((row) => row.device_id),
    );
    const maxima = await ratedMaxima(trx);
    const readings = DEMO_DEVICES.filter((demo) => !withReadings.has(demo.id)).flatMap((demo) =>
      demoReadings(demo, now, options.recordsPerDevice ?? 300, maxima),
    );
    await insertBatches(trx, 'state_records', readings);
    result.stateRecords = readings.length;

    await insertBatches(trx, 'orders', orders);
    result.orders = orders.length;
  });
  return result;
};
