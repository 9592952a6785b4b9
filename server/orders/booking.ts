import { type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { AppContext } from '../context';
import { isSet, type DB, type OrderRow } from '../db/schema';

/**
 * The booking (order) lifecycle (docs/product.md, "Orders"; docs/orders.md), as services without HTTP:
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
 *
 * Here: a booking as the steps read it and its window. The steps: create-booking.ts, session-start.ts,
 * session-end.ts (with session-device.ts, what both session events do to the device) and expiry.ts (run
 * by sweeper.ts).
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
  /** When its session started; null while unused. */
  usedAt: number | null;
  /** When it was cancelled; a cancelled booking is never used. */
  cancelledAt: number | null;
}


export type Db = Kysely<DB> | Transaction<DB>;

export const ORDER_COLUMNS = ['id', 'order_num', 'device_id', 'time', 'set_t', 'oc', 'open_id', 'is_used', 'is_pass', 'finished_at', 'used_at', 'cancelled_at'] as const;

/** Not used, not expired, not finished, not cancelled: the only bookings a transition may take (checked again in each update). */
export const isOpenBooking = (eb: ExpressionBuilder<DB, 'orders'>) =>
  eb.and([eb('is_used', '=', 0), eb('is_pass', '=', 0), eb('finished_at', 'is', null), eb('cancelled_at', 'is', null)]);

/** What a transition does to the booking it takes: used (at the session's start), expired or cancelled (at that time). */
export type Taking = { to: 'used'; at: number } | { to: 'expired' } | { to: 'cancelled'; at: number };
const takingColumns = (taking: Taking) =>
  taking.to === 'used' ? { is_used: 1, used_at: taking.at } : taking.to === 'expired' ? { is_pass: 1 } : { cancelled_at: taking.at };

/**
 * A transition taking an open booking: marks it used, expired or cancelled only while it is still open, so
 * a concurrent start, sweep or cancellation never takes it twice; true when this one took it.
 */
export const takeOpenBooking = async (trx: Transaction<DB>, id: OrderRow['id'], taking: Taking): Promise<boolean> => {
  const result = await trx
    .updateTable('orders')
    .set(takingColumns(taking))
    .where('id', '=', id)
    .where(isOpenBooking)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

export const toState = (row: OrderRow): OrderState => ({
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
  usedAt: row.used_at === null ? null : Number(row.used_at),
  cancelledAt: row.cancelled_at === null ? null : Number(row.cancelled_at),
});

export const orderByNum = async (db: Db, orderNum: string): Promise<OrderState | undefined> => {
  const row = await db.selectFrom('orders').select(ORDER_COLUMNS).where('order_num', '=', orderNum).executeTakeFirst();
  return row === undefined ? undefined : toState(row);
};

export const orderById = async (db: Db, id: number): Promise<OrderState | undefined> => {
  const row = await db.selectFrom('orders').select(ORDER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toState(row);
};

/** A booking under its wire names, as the order list shows it (src/resources/orders/config.ts). */
export const orderRecord = (order: OrderState) => ({
  id: order.id,
  OrderNum: order.orderNum,
  Id: order.deviceId,
  Time: order.time,
  SetT: order.setT,
  OC: order.oc,
  OpenId: order.openId,
  IsUsed: order.isUsed,
  IsPass: order.isPass,
  UseTime: order.usedAt,
  FinishTime: order.finishedAt,
  CancelTime: order.cancelledAt,
});

export const expiryMs = (ctx: Pick<AppContext, 'config'>): number => ctx.config.orderExpiryMinutes * MINUTE;

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

export const isOpen = (order: OrderState): boolean => !order.isUsed && !order.isPass && order.finishedAt === null && order.cancelledAt === null;

/** For callers that hold an order number: the booking as the lifecycle sees it. */
export const findBooking = (ctx: Pick<AppContext, 'db'>, orderNum: string): Promise<OrderState | undefined> =>
  orderByNum(ctx.db, orderNum);
