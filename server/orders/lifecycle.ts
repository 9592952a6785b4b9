import { randomBytes } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { recordAudit, SYSTEM_ACTOR } from '../audit/trail';
import type { AppContext } from '../context';
import { isSet, type DB, type OrderRow } from '../db/schema';
import { notFound } from '../http/envelope';

/**
 * The booking (order) lifecycle (decisions.md, "Orders"; docs/orders.md), as services without HTTP:
 *
 *   open ──startSession (its OC, inside its window)──▶ used, running ──endSession──▶ finished
 *     └──expireOverdue (SetT + ORDER_EXPIRY_MINUTES has passed, never used)──▶ expired (IsPass)
 *
 * A booking may be used from EARLY_START_MINUTES before its SetT up to and including SetT +
 * ORDER_EXPIRY_MINUTES; one minute-tick later the sweeper expires it. Every transition writes its audit
 * entry (order.used, order.finished, order.expired) in the transaction of the change, by the system
 * actor. Each step is one transaction with conditional updates, so a repeated or concurrent event
 * changes nothing twice, on SQLite and on PostgreSQL alike; the session events of one device take its
 * row lock first, so they are handled one after another.
 */

/** A session may start this long before the booking time (a guest arriving early). */
export const EARLY_START_MINUTES = 30;
const MINUTE = 60_000;

/** A booking as the lifecycle sees it. */
export interface OrderState {
  id: number;
  orderNum: string;
  deviceId: string;
  /** Created, epoch ms. */
  time: number;
  setT: number | null;
  oc: string | null;
  openId: string | null;
  isUsed: boolean;
  isPass: boolean;
  finishedAt: number | null;
}

type Db = Kysely<DB> | Transaction<DB>;

const ORDER_COLUMNS = ['id', 'order_num', 'device_id', 'time', 'set_t', 'oc', 'open_id', 'is_used', 'is_pass', 'finished_at'] as const;


/** Not used, not expired, not finished: the only bookings a transition may take (checked again in each update). */
const isOpenBooking = (eb: ExpressionBuilder<DB, 'orders'>) =>
  eb.and([eb('is_used', '=', 0), eb('is_pass', '=', 0), eb('finished_at', 'is', null)]);

const toState = (row: OrderRow): OrderState => ({
  id: Number(row.id),
  orderNum: row.order_num,
  deviceId: row.device_id,
  time: Number(row.time),
  setT: row.set_t === null ? null : Number(row.set_t),
  oc: row.oc,
  openId: row.open_id,
  isUsed: isSet(row.is_used),
  isPass: isSet(row.is_pass),
  finishedAt: row.finished_at === null ? null : Number(row.finished_at),
});

const orderByNum = async (db: Db, orderNum: string): Promise<OrderState | undefined> => {
  const row = await db.selectFrom('orders').select(ORDER_COLUMNS).where('order_num', '=', orderNum).executeTakeFirst();
  return row === undefined ? undefined : toState(row);
};

const expiryMs = (ctx: Pick<AppContext, 'config'>): number => ctx.config.orderExpiryMinutes * MINUTE;

/** Where `at` falls in the booking's window: before it, inside it (both ends included), or after it. */
export const windowPosition = (
  ctx: Pick<AppContext, 'config'>,
  order: Pick<OrderState, 'setT'>,
  at: number,
): 'early' | 'inside' | 'late' => {
  // A booking without a booking time (older data) has no window: it may be used whenever it is open.
  if (order.setT === null) return 'inside';
  if (at < order.setT - EARLY_START_MINUTES * MINUTE) return 'early';
  return at > order.setT + expiryMs(ctx) ? 'late' : 'inside';
};

const isOpen = (order: OrderState): boolean => !order.isUsed && !order.isPass && order.finishedAt === null;

// ---------------------------------------------------------------------------------------------------
// createBooking

export interface NewBooking {
  deviceId: string;
  /** Booking time, epoch ms. */
  setT: number;
  /** Operation code: the chamber starts the session with it. */
  oc: string;
  openId?: string | null;
  /** Generated when absent: `yyyymmdd` (UTC, of the creation time) + a daily sequence, as the demo fleet's. */
  orderNum?: string;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const dayStamp = (time: number): string => {
  const date = new Date(time);
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
};

/** The next free `yyyymmdd` + 4-digit number of the day; past 9999 a random suffix. */
const nextOrderNum = async (db: Db, time: number): Promise<string> => {
  const day = dayStamp(time);
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.max('order_num').as('last'))
    .where('order_num', '>=', `${day}0000`)
    .where('order_num', '<=', `${day}9999`)
    .executeTakeFirst();
  const last = row?.last ?? null;
  const sequence = last === null || !/^\d{12}$/.test(last) ? 1 : Number(last.slice(8)) + 1;
  return sequence <= 9999 ? `${day}${pad(sequence, 4)}` : `${day}-${randomBytes(4).toString('hex')}`;
};

const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

/**
 * Creates an open booking (demo, simulator, tests; a booking API later). The device must exist (else
 * 40400). A generated order number that another booking took meanwhile is retried; a given one that
 * exists fails with the store's unique error.
 */
export const createBooking = async (ctx: Pick<AppContext, 'db' | 'now'>, input: NewBooking): Promise<OrderState> => {
  const device = await ctx.db.selectFrom('devices').select('id').where('id', '=', input.deviceId).executeTakeFirst();
  if (device === undefined) throw notFound();
  const time = ctx.now();
  for (let attempt = 1; ; attempt += 1) {
    const orderNum = input.orderNum ?? (await nextOrderNum(ctx.db, time));
    try {
      await ctx.db
        .insertInto('orders')
        .values({
          order_num: orderNum,
          device_id: input.deviceId,
          time,
          set_t: input.setT,
          oc: input.oc,
          open_id: input.openId ?? null,
          is_used: 0,
          is_pass: 0,
          finished_at: null,
        })
        .execute();
      const created = await orderByNum(ctx.db, orderNum);
      if (created === undefined) throw new Error(`booking ${orderNum} vanished after it was created`);
      return created;
    } catch (error) {
      if (input.orderNum !== undefined || attempt >= 5 || !isUniqueViolation(error)) throw error;
    }
  }
};

// ---------------------------------------------------------------------------------------------------
// startSession

export interface SessionStart {
  deviceId: string;
  /** The operation code the chamber started the session with. */
  oc: string;
  /** When the session started, epoch ms. */
  at: number;
}

/** What a session start did, so the caller (the MQTT event handler) can log or raise an alarm. */
export type StartResult =
  /** The booking is now used and running on the device; `superseded` is the order it was still running, now finished. */
  | { outcome: 'started'; order: OrderState; superseded: string | null }
  /** A repeated event: the device already runs this booking; nothing changed. */
  | { outcome: 'alreadyRunning'; order: OrderState }
  /** The booking was used before (and is finished or ran elsewhere in time); nothing changed. */
  | { outcome: 'alreadyUsed'; order: OrderState }
  /** The booking expired (IsPass) or its window closed; nothing changed. */
  | { outcome: 'expired'; order: OrderState }
  /** The booking's window has not opened yet; nothing changed. */
  | { outcome: 'tooEarly'; order: OrderState }
  /** No booking of this device has this OC (another device's booking does not count); nothing changed. */
  | { outcome: 'unknownCode' }
  | { outcome: 'unknownDevice' };

/** Of the bookings with the code, the one the session means: open and inside its window first, then the nearest in time. */
const pickBooking = (ctx: Pick<AppContext, 'config'>, candidates: OrderState[], at: number): OrderState | undefined => {
  const distance = (order: OrderState) => (order.setT === null ? Number.MAX_SAFE_INTEGER : Math.abs(order.setT - at));
  const sorted = [...candidates].sort((a, b) => distance(a) - distance(b) || a.id - b.id);
  return sorted.find((order) => isOpen(order) && windowPosition(ctx, order, at) === 'inside') ?? sorted[0];
};

const refusal = (ctx: Pick<AppContext, 'config'>, order: OrderState, at: number): StartResult => {
  if (order.isUsed || order.finishedAt !== null) return { outcome: 'alreadyUsed', order };
  if (order.isPass) return { outcome: 'expired', order };
  const position = windowPosition(ctx, order, at);
  return { outcome: position === 'early' ? 'tooEarly' : 'expired', order };
};

/**
 * The answer for a booking this start cannot use. A used, unfinished booking that the device runs is a
 * repeated event (alreadyRunning): the device is read again here, since a concurrent start may have
 * committed between this transaction's first read of the device and its read of the booking
 * (PostgreSQL's read committed: each statement sees what was committed before it began).
 */
const settled = async (trx: Transaction<DB>, ctx: Pick<AppContext, 'config'>, deviceId: string, order: OrderState, at: number): Promise<StartResult> => {
  if (order.isUsed && order.finishedAt === null) {
    const current = await trx.selectFrom('devices').select('order_num').where('id', '=', deviceId).executeTakeFirst();
    if (current?.order_num === order.orderNum) return { outcome: 'alreadyRunning', order };
  }
  return refusal(ctx, order, at);
};

/** Finishes the order a device is running (its FinishTime = at) with its audit entry; false when it already was. */
const finishOrder = async (
  trx: Transaction<DB>,
  order: OrderState,
  at: number,
  device: { before: DeviceView; after: DeviceView },
  reason: 'sessionEnd' | 'superseded',
): Promise<boolean> => {
  const result = await trx
    .updateTable('orders')
    .set({ finished_at: at })
    .where('id', '=', order.id)
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await recordAudit(
    trx,
    SYSTEM_ACTOR,
    {
      action: 'order.finished',
      targetType: 'order',
      targetId: order.orderNum,
      deviceId: order.deviceId,
      before: { FinishTime: null, device: device.before },
      after: { FinishTime: at, device: device.after, reason },
    },
    at,
  );
  return true;
};

/**
 * Reads a device for a session event, holding its row lock until the transaction ends (a no-op update:
 * PostgreSQL locks the row, SQLite runs write transactions one at a time), so the events of one device
 * are handled one after another and what is read here stays true until the commit.
 */
const lockDevice = (trx: Transaction<DB>, deviceId: string) =>
  trx
    .updateTable('devices')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', deviceId)
    .returning(['state', 'order_num'])
    .executeTakeFirst();

/** The device fields a session changes, under their wire names. */
interface DeviceView {
  State: string;
  OrderNum: string | null;
}

/** Work for a session, except that a device in repair stays in repair until an operator says otherwise. */
const stateWhile = (state: string, running: boolean): string => (state === 'Repair' ? 'Repair' : running ? 'Work' : 'Stop');
const stateSql = (running: boolean) =>
  sql<string>`case when ${sql.ref('state')} = 'Repair' then 'Repair' else ${running ? 'Work' : 'Stop'} end`;

/**
 * The chamber started a session with an operation code. The device's open booking with that code whose
 * window contains `at` becomes used (IsUsed) and the device's running order (OrderNum, State Work) in one
 * transaction, with an `order.used` audit entry. An order the device was still running (its end event
 * was lost) is finished first (`order.finished`, reason superseded). Anything else changes nothing and
 * says why. Concurrent starts of one booking: the conditional update lets exactly one through.
 */
export const startSession = (ctx: Pick<AppContext, 'db' | 'config'>, input: SessionStart): Promise<StartResult> =>
  ctx.db.transaction().execute(async (trx): Promise<StartResult> => {
    const { deviceId, at } = input;
    const oc = input.oc.trim();
    const device = await lockDevice(trx, deviceId);
    if (device === undefined) return { outcome: 'unknownDevice' };
    if (oc === '') return { outcome: 'unknownCode' };

    const running = device.order_num === null ? undefined : await orderByNum(trx, device.order_num);
    if (running !== undefined && running.oc === oc && running.finishedAt === null && running.deviceId === deviceId) {
      return { outcome: 'alreadyRunning', order: running };
    }

    const candidates = (
      await trx.selectFrom('orders').select(ORDER_COLUMNS).where('device_id', '=', deviceId).where('oc', '=', oc).execute()
    ).map(toState);
    const booking = pickBooking(ctx, candidates, at);
    if (booking === undefined) return { outcome: 'unknownCode' };
    if (!isOpen(booking) || windowPosition(ctx, booking, at) !== 'inside') return settled(trx, ctx, deviceId, booking, at);

    const used = await trx
      .updateTable('orders')
      .set({ is_used: 1 })
      .where('id', '=', booking.id)
      .where(isOpenBooking)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) {
      // Another start (or the sweeper) got there first: answer as a repeated event would be answered.
      const now = await orderByNum(trx, booking.orderNum);
      return now === undefined ? { outcome: 'unknownCode' } : settled(trx, ctx, deviceId, now, at);
    }

    // The device still runs another order (its end event was lost): that one ends where this one starts.
    let superseded: string | null = null;
    if (running !== undefined && running.finishedAt === null && running.deviceId === deviceId) {
      const devices = { before: { State: device.state, OrderNum: running.orderNum }, after: { State: device.state, OrderNum: null } };
      if (await finishOrder(trx, running, at, devices, 'superseded')) superseded = running.orderNum;
    }
    const before: DeviceView = { State: device.state, OrderNum: superseded === null ? device.order_num : null };
    const after: DeviceView = { State: stateWhile(device.state, true), OrderNum: booking.orderNum };
    await trx
      .updateTable('devices')
      .set({ order_num: booking.orderNum, state: stateSql(true), updated_at: at })
      .where('id', '=', deviceId)
      .execute();
    await recordAudit(
      trx,
      SYSTEM_ACTOR,
      {
        action: 'order.used',
        targetType: 'order',
        targetId: booking.orderNum,
        deviceId,
        before: { IsUsed: false, device: before },
        after: { IsUsed: true, device: after },
      },
      at,
    );
    return { outcome: 'started', order: { ...booking, isUsed: true }, superseded };
  });

// ---------------------------------------------------------------------------------------------------
// endSession

export interface SessionEnd {
  deviceId: string;
  /** When the session ended, epoch ms. */
  at: number;
}

export type EndResult =
  /** The running order is finished (FinishTime = at); the device runs none and is idle (Stop, or still Repair). */
  | { outcome: 'finished'; order: OrderState }
  /** The device runs no order (a repeated end, or a session started with an unknown code); nothing changed. */
  | { outcome: 'notRunning' }
  | { outcome: 'unknownDevice' };

/**
 * The chamber ended its session: its running order is finished, the device's OrderNum cleared and its
 * State back to Stop (Repair stays), with an `order.finished` audit entry, in one transaction. The
 * device row is cleared conditionally (only while it still names that order), so a repeated or
 * concurrent end finishes nothing twice.
 */
export const endSession = (ctx: Pick<AppContext, 'db'>, input: SessionEnd): Promise<EndResult> =>
  ctx.db.transaction().execute(async (trx): Promise<EndResult> => {
    const { deviceId, at } = input;
    const device = await lockDevice(trx, deviceId);
    if (device === undefined) return { outcome: 'unknownDevice' };
    if (device.order_num === null) return { outcome: 'notRunning' };
    const orderNum = device.order_num;

    const cleared = await trx
      .updateTable('devices')
      .set({ order_num: null, state: stateSql(false), updated_at: at })
      .where('id', '=', deviceId)
      .where('order_num', '=', orderNum)
      .executeTakeFirst();
    if (Number(cleared.numUpdatedRows) === 0) return { outcome: 'notRunning' };

    const order = await orderByNum(trx, orderNum);
    // The device named an order that does not exist (hand-edited data): the device is cleared all the same.
    if (order === undefined) return { outcome: 'notRunning' };
    const before: DeviceView = { State: device.state, OrderNum: orderNum };
    const after: DeviceView = { State: stateWhile(device.state, false), OrderNum: null };
    const finished = await finishOrder(trx, order, at, { before, after }, 'sessionEnd');
    return { outcome: 'finished', order: finished ? { ...order, finishedAt: at } : order };
  });

// ---------------------------------------------------------------------------------------------------
// expireOverdue

export interface ExpiryResult {
  count: number;
  /** The order numbers expired, oldest booking time first. */
  orderNums: string[];
}

/** Bookings expired per transaction: a long outage's backlog is worked off in bounded steps. */
export const EXPIRY_BATCH = 500;

/**
 * Expires every booking never used whose window closed before `now` (SetT + ORDER_EXPIRY_MINUTES <
 * now): IsPass = 1, with an `order.expired` audit entry each, in batches of EXPIRY_BATCH per
 * transaction. The update is conditional, so a concurrent start or a second sweeper (another server on
 * the same PostgreSQL) never expires a booking that was used, nor one twice. Bookings without SetT never
 * expire on their own.
 */
export const expireOverdue = async (ctx: Pick<AppContext, 'db' | 'config'>, now: number): Promise<ExpiryResult> => {
  const cutoff = now - expiryMs(ctx);
  const overdue = (db: Kysely<DB>) => db.selectFrom('orders').where(isOpenBooking).where('set_t', 'is not', null).where('set_t', '<', cutoff);
  const orderNums: string[] = [];
  for (;;) {
    // Looked for before the transaction, which takes SQLite's write lock at once (server/db/database.ts):
    // a sweep that finds nothing must not wait for the ingestion's writer.
    if ((await overdue(ctx.db).select('id').limit(1).executeTakeFirst()) === undefined) break;
    const batch = await ctx.db.transaction().execute(async (trx) => {
      const due = await overdue(trx)
        .select(['id', 'order_num', 'device_id', 'set_t'])
        .orderBy('set_t')
        .orderBy('id')
        .limit(EXPIRY_BATCH)
        .execute();
      const expired: string[] = [];
      for (const row of due) {
        const result = await trx
          .updateTable('orders')
          .set({ is_pass: 1 })
          .where('id', '=', row.id)
          .where(isOpenBooking)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) continue;
        await recordAudit(
          trx,
          SYSTEM_ACTOR,
          {
            action: 'order.expired',
            targetType: 'order',
            targetId: row.order_num,
            deviceId: row.device_id,
            before: { IsPass: false, SetT: row.set_t },
            after: { IsPass: true, SetT: row.set_t, expiryMinutes: ctx.config.orderExpiryMinutes },
          },
          now,
        );
        expired.push(row.order_num);
      }
      return { seen: due.length, expired };
    });
    orderNums.push(...batch.expired);
    if (batch.seen < EXPIRY_BATCH) break;
  }
  return { count: orderNums.length, orderNums };
};

/** For callers that hold an order number: the booking as the lifecycle sees it. */
export const findBooking = (ctx: Pick<AppContext, 'db'>, orderNum: string): Promise<OrderState | undefined> =>
  orderByNum(ctx.db, orderNum);
