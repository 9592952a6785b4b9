import { z } from 'zod';
import { deviceIdSchema } from '../devices/requests';

/**
 * Booking a chamber and cancelling a booking (docs/orders.md, "Booking and cancelling"), shared by the
 * console, the msw mocks and the server:
 *   POST /api/v1/orders               { Id, SetT, OpenId, OC? } → 201 the booking as the order list shows it
 *   POST /api/v1/orders/:id/cancel    → the booking, cancelled
 *   GET  /api/v1/orders/:id/report    → its session report (src/domain/sessionReport.ts)
 */
export const ORDERS_PATH = 'orders';

/** A booking may be made this long after its time has passed (the desk typing while the guest waits). */
export const BOOKING_PAST_TOLERANCE_MINUTES = 5;
/** And at most this far ahead. */
export const BOOKING_AHEAD_DAYS = 30;

/** A messaging platform's user id (WeChat's OpenId is 28 of these characters). */
const OPEN_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
/** The code the guest gives the chamber to start the session; digits and letters. */
const OC_PATTERN = /^[A-Za-z0-9]+$/;

export const bookingBodySchema = z.strictObject({
  Id: deviceIdSchema,
  /** Booking time, epoch ms. */
  SetT: z.number().int().positive(),
  OpenId: z.string().trim().min(6).max(64).regex(OPEN_ID_PATTERN),
  /** Generated (six digits) when left out. */
  OC: z.string().trim().min(4).max(32).regex(OC_PATTERN).optional(),
});
export type BookingBody = z.infer<typeof bookingBodySchema>;

/** Where a booking is in its life (docs/orders.md, "States"), derived from its fields. */
type OrderStateName = 'open' | 'running' | 'finished' | 'expired' | 'cancelled';

const present = (value: unknown) => value !== null && value !== undefined;

export const orderStateOf = (order: Readonly<Record<string, unknown>>): OrderStateName => {
  if (present(order.CancelTime)) return 'cancelled';
  if (order.IsPass === true) return 'expired';
  if (present(order.FinishTime)) return 'finished';
  return order.IsUsed === true ? 'running' : 'open';
};
