import type { Random } from '../src/domain/random';
import type { OrderRecord, ServerApi } from './api';
import { between } from './physics';

/**
 * Sessions come from bookings (docs/simulator.md, "Bookings"): the simulator watches the open bookings
 * of its chambers through the orders list, and a guest turns up for each inside its window
 * (docs/orders.md: from SetT − 30 min) and starts the session with the booking's operation code. The
 * server is the judge of a code: a start it has not marked used within CONFIRM_MS is taken as refused
 * and the session is ended.
 */

export interface Booking {
  orderNum: string;
  deviceId: string;
  oc: string;
  setT: number;
}

const MINUTE = 60_000;
/** docs/orders.md: a booking may be used from 30 minutes before its SetT. */
export const EARLY_START_MS = 30 * MINUTE;
/** A guest not there by SetT + 25 min does not come: inside the server's default expiry (30 min). */
export const LATE_START_MS = 25 * MINUTE;
/** Guests arrive up to this long before SetT (never before the window opens). */
export const LEAD_MS = 10 * MINUTE;
/** A start the server has not marked used within this long was refused (expired, unknown code). */
export const CONFIRM_MS = 30_000;

/**
 * When the guest arrives: a random lead before SetT, or a few seconds (`delay`, s) after the simulator
 * learns of the booking if that is later.
 */
export const arrivalTime = (booking: Booking, seenAt: number, random: Random, delay: readonly [number, number]): number => {
  const planned = Math.max(booking.setT - between(random, 0, LEAD_MS), booking.setT - EARLY_START_MS);
  return Math.max(planned, seenAt + between(random, delay[0], delay[1]) * 1000);
};

const toBooking = (order: OrderRecord): Booking | null =>
  order.OC === null || order.OC === undefined || order.SetT === null || order.SetT === undefined
    ? null
    : { orderNum: order.OrderNum, deviceId: order.Id, oc: order.OC, setT: order.SetT };

export interface Confirmations {
  /** Marked used by the server. */
  used: Booking[];
  /** Not marked used in time: the server refused the code. */
  refused: Booking[];
}

/** Which bookings to start when, and whether the server took the starts. No timers of its own. */
export class BookingPlan {
  private readonly planned = new Map<string, { booking: Booking; at: number }>();
  private readonly awaiting = new Map<string, { booking: Booking; startedAt: number }>();
  /** Every booking ever planned: a booking is tried once. */
  private readonly known = new Set<string>();

  constructor(
    private readonly random: Random,
    private readonly delay: readonly [number, number],
  ) {}

  /** Plans the bookings not seen before; answers the new ones. */
  add(bookings: readonly Booking[], now: number): Booking[] {
    const fresh = bookings.filter((booking) => !this.known.has(booking.orderNum));
    for (const booking of fresh) {
      this.known.add(booking.orderNum);
      this.planned.set(booking.orderNum, { booking, at: arrivalTime(booking, now, this.random, this.delay) });
    }
    return fresh;
  }

  /** Guests who have arrived, earliest first. */
  due(now: number): Booking[] {
    return [...this.planned.values()]
      .filter((entry) => entry.at <= now)
      .sort((a, b) => a.at - b.at)
      .map((entry) => entry.booking);
  }

  /** The session started: now the server has to mark it used. */
  started(booking: Booking, now: number): void {
    this.planned.delete(booking.orderNum);
    this.awaiting.set(booking.orderNum, { booking, startedAt: now });
  }

  /** Guests who waited in vain (the chamber stayed busy, closed or in repair): answered once. */
  abandoned(now: number): Booking[] {
    const late = [...this.planned.values()].filter((entry) => now > entry.booking.setT + LATE_START_MS).map((entry) => entry.booking);
    for (const booking of late) this.planned.delete(booking.orderNum);
    return late;
  }

  awaitingNumbers(): string[] {
    return [...this.awaiting.keys()];
  }

  /** Sorts the starts under way by what the server says of them now (`orders`: those bookings as listed). */
  confirm(orders: readonly OrderRecord[], now: number): Confirmations {
    const used = new Set(orders.filter((order) => order.IsUsed === true).map((order) => order.OrderNum));
    const result: Confirmations = { used: [], refused: [] };
    for (const [orderNum, { booking, startedAt }] of this.awaiting) {
      if (used.has(orderNum)) result.used.push(booking);
      else if (now - startedAt > CONFIRM_MS) result.refused.push(booking);
      else continue;
      this.awaiting.delete(orderNum);
    }
    return result;
  }
}

/** One look at the server: open bookings in or near their window are planned, starts under way checked. */
export const refreshBookings = async (
  api: Pick<ServerApi, 'openBookings' | 'bookings'>,
  plan: BookingPlan,
  deviceIds: readonly string[],
  now: number,
): Promise<{ added: Booking[] } & Confirmations> => {
  const open = await api.openBookings(deviceIds, now - LATE_START_MS, now + EARLY_START_MS);
  const added = plan.add(
    open.map(toBooking).filter((booking): booking is Booking => booking !== null),
    now,
  );
  const confirmations = plan.confirm(await api.bookings(plan.awaitingNumbers()), now);
  return { added, ...confirmations };
};
