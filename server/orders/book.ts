import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import { BOOKING_AHEAD_DAYS, BOOKING_PAST_TOLERANCE_MINUTES, type BookingBody } from '../../src/resources/orders/requests';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { transact } from '../db/transact';
import { badInput, notFound } from '../http/envelope';
import { deviceScope, type Viewer } from '../scope/service';
import { expiryMs, isOpenBooking, orderById, takeOpenBooking, type OrderState } from './booking';
import { createBooking } from './create-booking';

/**
 * Booking a chamber for a guest and cancelling a booking not yet used, by an operator (docs/orders.md,
 * "Booking and cancelling"). Each runs in one transaction that first takes the device's row lock within
 * the caller's scope (a device out of scope is answered as one that does not exist), so two bookings of
 * one chamber made at once are checked for overlap one after the other, and writes its audit entry.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type BookingContext = Pick<AppContext, 'db' | 'now' | 'config'>;

/** Takes the device's row lock when it is in service and in the viewer's scope (a no-op update); else 40400. */
const lockScopedDevice = async (trx: Transaction<DB>, viewer: Viewer, deviceId: string): Promise<void> => {
  const scope = deviceScope(trx, viewer);
  const touch = trx
    .updateTable('devices')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('devices.id', '=', deviceId)
    .where('devices.removed_at', 'is', null);
  const result = await (scope === undefined ? touch : touch.where('devices.id', 'in', scope)).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound();
};

/** A booking time a few minutes past (the desk typing while the guest waits) up to BOOKING_AHEAD_DAYS ahead. */
const checkBookingTime = (setT: number, now: number): void => {
  if (setT < now - BOOKING_PAST_TOLERANCE_MINUTES * MINUTE) throw badInput('order.setTPast', { field: 'SetT' });
  if (setT > now + BOOKING_AHEAD_DAYS * DAY) throw badInput('order.setTTooFar', { field: 'SetT', days: BOOKING_AHEAD_DAYS });
};

/**
 * The device's booking that the new one would collide with, if any: an open booking whose window
 * [SetT, SetT + ORDER_EXPIRY_MINUTES] meets the new one's, or a session running now, which is taken to
 * hold the chamber for one more window (a new booking must start after now + ORDER_EXPIRY_MINUTES).
 */
const conflictingBooking = async (trx: Transaction<DB>, ctx: BookingContext, deviceId: string, setT: number, now: number) => {
  const window = expiryMs(ctx);
  return trx
    .selectFrom('orders')
    .select(['order_num'])
    .where('device_id', '=', deviceId)
    .where((eb) =>
      eb.or([
        eb.and([isOpenBooking(eb), eb('set_t', '>=', setT - window), eb('set_t', '<=', setT + window)]),
        setT <= now + window
          ? eb.and([eb('is_used', '=', 1), eb('finished_at', 'is', null), eb('cancelled_at', 'is', null)])
          : eb.lit(false),
      ]),
    )
    .orderBy('set_t')
    .executeTakeFirst();
};

/** Six digits, not shared with another open booking of the device (the chamber tells bookings apart by it). */
const freshCode = async (trx: Transaction<DB>, deviceId: string): Promise<string> => {
  for (;;) {
    const oc = String(randomInt(100_000, 1_000_000));
    const taken = await trx.selectFrom('orders').select('id').where('device_id', '=', deviceId).where('oc', '=', oc).where(isOpenBooking).executeTakeFirst();
    if (taken === undefined) return oc;
  }
};

/**
 * `POST /api/v1/orders`: books the chamber `Id` at `SetT` for the guest `OpenId`, with the operation code
 * `OC` or a generated one; `order.created` in the audit trail. Refused (40000 naming SetT) when the time
 * has passed, is too far ahead or overlaps another booking of the chamber (the message names it).
 */
export const bookChamber = (ctx: BookingContext, viewer: Viewer, actor: AuditActor, body: BookingBody): Promise<OrderState> =>
  transact(ctx.db, async (trx) => {
    const now = ctx.now();
    checkBookingTime(body.SetT, now);
    await lockScopedDevice(trx, viewer, body.Id);
    const conflict = await conflictingBooking(trx, ctx, body.Id, body.SetT, now);
    if (conflict !== undefined) throw badInput('order.overlap', { field: 'SetT', device: body.Id, order: conflict.order_num });
    const oc = body.OC ?? (await freshCode(trx, body.Id));
    const booking = await createBooking({ db: trx, now: () => now }, { deviceId: body.Id, setT: body.SetT, oc, openId: body.OpenId });
    await recordAudit(
      trx,
      actor,
      {
        action: 'order.created',
        targetType: 'order',
        targetId: booking.orderNum,
        deviceId: body.Id,
        after: { Id: body.Id, SetT: body.SetT, OpenId: body.OpenId, OC: oc },
      },
      now,
    );
    return booking;
  });

/**
 * `POST /api/v1/orders/:id/cancel`: cancels a booking not yet used (CancelTime = now; it stays in the
 * list, IsUsed and IsPass false); `order.cancelled` in the audit trail. A used, expired or cancelled
 * booking is 40000; one of a device out of scope 40400.
 */
export const cancelBooking = (ctx: BookingContext, viewer: Viewer, actor: AuditActor, id: number): Promise<OrderState> =>
  transact(ctx.db, async (trx) => {
    const now = ctx.now();
    const booking = await orderById(trx, id);
    if (booking === undefined) throw notFound();
    await lockScopedDevice(trx, viewer, booking.deviceId);
    if (!(await takeOpenBooking(trx, booking.id, { to: 'cancelled', at: now }))) {
      throw badInput('order.notCancellable', { order: booking.orderNum });
    }
    await recordAudit(
      trx,
      actor,
      {
        action: 'order.cancelled',
        targetType: 'order',
        targetId: booking.orderNum,
        deviceId: booking.deviceId,
        before: { CancelTime: null, SetT: booking.setT },
        after: { CancelTime: now, SetT: booking.setT },
      },
      now,
    );
    return { ...booking, cancelledAt: now };
  });
