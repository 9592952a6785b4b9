import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/domain/random';
import { arrivalTime, BookingPlan, CONFIRM_MS, EARLY_START_MS, LATE_START_MS, LEAD_MS, refreshBookings, type Booking } from './bookings';
import type { OrderRecord } from './api';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 5, 8);
const booking = (orderNum: string, setT: number, deviceId = 'SIM-0001'): Booking => ({ orderNum, deviceId, oc: `OC${orderNum}`, setT });
const order = (entry: Booking, extra: Partial<OrderRecord> = {}): OrderRecord => ({
  OrderNum: entry.orderNum,
  Id: entry.deviceId,
  OC: entry.oc,
  SetT: entry.setT,
  IsUsed: false,
  IsPass: false,
  ...extra,
});

describe('bookings: when guests arrive', () => {
  it('inside the window: up to 10 minutes before SetT, never before it opens, never before the booking is known', () => {
    const random = seededRandom(1);
    for (let run = 0; run < 500; run += 1) {
      const setT = T0 + (run % 50) * MINUTE;
      const seenAt = T0 - 40 * MINUTE + run * 10_000;
      const at = arrivalTime(booking('1', setT), seenAt, random, [2, 20]);
      expect(at).toBeGreaterThanOrEqual(setT - Math.min(LEAD_MS, EARLY_START_MS));
      expect(at).toBeGreaterThanOrEqual(seenAt + 2000);
      expect(at).toBeLessThanOrEqual(Math.max(setT, seenAt + 20_000));
    }
  });
});

describe('bookings: the plan', () => {
  it('plans each booking once, hands out the arrived ones, drops those whose guest waited too long', () => {
    const plan = new BookingPlan(seededRandom(2), [0, 0]);
    const soon = booking('A', T0);
    const later = booking('B', T0 + 60 * MINUTE);
    expect(plan.add([soon, later], T0)).toEqual([soon, later]);
    expect(plan.add([soon], T0)).toEqual([]);
    expect(plan.due(T0)).toEqual([soon]);
    expect(plan.due(T0 + 60 * MINUTE)).toEqual([soon, later]);
    // A chamber that stays busy past SetT + LATE_START_MS: the guest goes home.
    expect(plan.abandoned(T0 + LATE_START_MS)).toEqual([]);
    expect(plan.abandoned(T0 + LATE_START_MS + 1)).toEqual([soon]);
    expect(plan.due(T0 + LATE_START_MS + 1)).toEqual([]);
  });

  it('confirms a start the server marked used, and takes one it did not mark in time as refused', () => {
    const plan = new BookingPlan(seededRandom(3), [0, 0]);
    const used = booking('U', T0);
    const refused = booking('R', T0);
    const pending = booking('P', T0);
    plan.add([used, refused, pending], T0);
    plan.started(used, T0);
    plan.started(refused, T0);
    plan.started(pending, T0 + 20_000);
    expect(plan.awaitingNumbers()).toEqual(['U', 'R', 'P']);
    const orders = [order(used, { IsUsed: true }), order(refused, { IsPass: true }), order(pending)];
    expect(plan.confirm(orders, T0 + CONFIRM_MS + 1)).toEqual({ used: [used], refused: [refused] });
    expect(plan.awaitingNumbers()).toEqual(['P']);
  });

  it('reads open bookings around now and the starts under way from the orders list', async () => {
    const calls: unknown[] = [];
    const open = [order(booking('A', T0)), order({ ...booking('B', T0), oc: '' }, { OC: null })];
    const api = {
      openBookings: async (ids: readonly string[], from: number, to: number) => {
        calls.push({ ids, from, to });
        return open;
      },
      bookings: async (numbers: readonly string[]) => {
        calls.push({ numbers });
        return [];
      },
    };
    const plan = new BookingPlan(seededRandom(4), [0, 0]);
    const result = await refreshBookings(api, plan, ['SIM-0001'], T0);
    expect(result).toEqual({ added: [booking('A', T0)], used: [], refused: [] });
    expect(calls).toEqual([{ ids: ['SIM-0001'], from: T0 - LATE_START_MS, to: T0 + EARLY_START_MS }, { numbers: [] }]);
  });
});
