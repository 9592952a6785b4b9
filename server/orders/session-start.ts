import type { Transaction } from 'kysely';
import { recordAudit, SYSTEM_ACTOR } from '../audit/trail';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { transact } from '../db/transact';
import { isOpen, ORDER_COLUMNS, orderByNum, takeOpenBooking, toState, windowPosition, type OrderState } from './booking';
import { finishOrder, lockDevice, stateSql, stateWhile, type DeviceView } from './session-device';

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
  /** The booking was cancelled; nothing changed. */
  | { outcome: 'cancelled'; order: OrderState }
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
  if (order.cancelledAt !== null) return { outcome: 'cancelled', order };
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

/**
 * The chamber started a session with an operation code. The device's open booking with that code whose
 * window contains `at` becomes used (IsUsed) and the device's running order (OrderNum, State Work) in one
 * transaction, with an `order.used` audit entry. An order the device was still running (its end event
 * was lost) is finished first (`order.finished`, reason superseded). Anything else changes nothing and
 * says why. Concurrent starts of one booking: the conditional update lets exactly one through.
 */
export const startSession = (ctx: Pick<AppContext, 'db' | 'config'>, input: SessionStart): Promise<StartResult> =>
  transact(ctx.db, async (trx): Promise<StartResult> => {
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

    if (!(await takeOpenBooking(trx, booking.id, { to: 'used', at }))) {
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
    return { outcome: 'started', order: { ...booking, isUsed: true, usedAt: at }, superseded };
  });
