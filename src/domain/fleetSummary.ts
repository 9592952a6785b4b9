import { z } from 'zod';
import { STANDING_ALARM_STATES } from './alarms/open';
import { ALARM_PRIORITIES, type AlarmPriority } from './alarms/rules';
import type { DeviceState } from './devices';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './time';

/**
 * The workplace's figures (docs/monitoring.md, "The workplace"): `GET /api/v1/fleet/summary?tz=<offset>`
 * answers them for the chambers the account sees, counted now and over "today".
 *
 * Today is the local day of the browser that asks: `tz` is its `Date.prototype.getTimezoneOffset()`
 * (minutes, UTC minus local time: -480 in China), so the server needs no time zone of its own and two
 * operators in two zones each see their own day. A fixed offset makes every day 24 hours; on a day
 * a daylight-saving change moves the clock, the hours after it are off by one.
 *
 * Each figure is also a list filter (below), so that the figure and the list it links to count the
 * same chambers and orders: the server counts with the same conditions, the mocks count with the
 * shared list query over the filter itself.
 */

export const FLEET_SUMMARY_PATH = 'fleet/summary';

/** getTimezoneOffset's range: UTC+14 (-840) to UTC-12 (720). */
export const fleetSummaryQuerySchema = z.strictObject({
  tz: z.coerce.number().int().min(-840).max(720).default(0),
});

const HOURS_PER_DAY = 24;

const count = z.number().int().nonnegative();

export const fleetSummarySchema = z.strictObject({
  /** The local day counted: its first and last millisecond (epoch ms, inclusive both). */
  from: z.number(),
  to: z.number(),
  /** When the figures were taken (epoch ms). */
  at: z.number(),
  chambers: z.strictObject({
    total: count,
    /** online + offline = total. */
    online: count,
    offline: count,
    /** inSession + idle + repair = total: repair first, whatever runs in it (a technician's test session). */
    inSession: count,
    idle: count,
    repair: count,
  }),
  orders: z.strictObject({
    /** Bookings whose SetT falls today. */
    bookings: count,
    /** Sessions started today: bookings used today (UseTime), whatever their SetT. */
    sessions: count,
    /** Today's bookings already used. */
    used: count,
    /** Today's bookings expired unused. */
    expired: count,
  }),
  /**
   * Standing alarms now (active unacknowledged, active acknowledged, returned unacknowledged; not shelved
   * or suppressed) by priority: what an operator still has to see to.
   */
  alarms: z.strictObject({ high: count, medium: count, low: count }),
  /**
   * Per local hour of the day (24), the share (0–1) of the chambers in scope that were in session during
   * it: the session time within the hour over the hour times the chambers; null for hours not begun.
   */
  utilisation: z.array(z.number().min(0).max(1).nullable()).length(HOURS_PER_DAY),
});
export type FleetSummary = z.infer<typeof fleetSummarySchema>;
export type ChamberFigure = keyof FleetSummary['chambers'];
export type OrderFigure = keyof FleetSummary['orders'];
export type AlarmFigure = keyof FleetSummary['alarms'];

/** The local day holding `now` for a browser at offset `tz`: its first and last millisecond. */
export const localDay = (now: number, tz: number): { from: number; to: number } => {
  const offset = tz * MINUTE_MS;
  const from = Math.floor((now - offset) / DAY_MS) * DAY_MS + offset;
  return { from, to: from + DAY_MS - 1 };
};

/** A session as utilisation counts it: its start and its end (undefined while it runs). */
export interface SessionSpan {
  start: number;
  end?: number | undefined;
}

/** utilisation (above) from the sessions that touch the day; a running session counts up to `now`. */
export const utilisationByHour = (
  sessions: readonly SessionSpan[],
  day: { from: number },
  now: number,
  chambers: number,
): (number | null)[] =>
  Array.from({ length: HOURS_PER_DAY }, (_, hour) => {
    const start = day.from + hour * HOUR_MS;
    if (start > now) return null;
    if (chambers === 0) return 0;
    const end = Math.min(start + HOUR_MS, now);
    if (end <= start) return 0;
    const busy = sessions.reduce((sum, session) => {
      const overlap = Math.min(end, session.end ?? now) - Math.max(start, session.start);
      return sum + Math.max(0, overlap);
    }, 0);
    return Math.min(1, busy / ((end - start) * chambers));
  });

/** The states a chamber out of repair may hold (src/domain/devices.ts). */
const IN_SERVICE: readonly DeviceState[] = ['Work', 'Stop'];

/** What each chamber figure counts, as the device list's filter (wire names). */
export const CHAMBER_FIGURE_FILTERS = {
  online: { Online: true },
  inSession: { InSession: true, State: IN_SERVICE },
  idle: { InSession: false, State: IN_SERVICE },
  repair: { State: 'Repair' },
  offline: { Online: false },
} as const satisfies Record<Exclude<ChamberFigure, 'total'>, Record<string, unknown>>;

/** The day as a range filter of a time field (wire shape; react-admin's inputs name its bounds `_gte`, `_lte`). */
const dayRange = (day: { from: number; to: number }) => ({ gte: day.from, lte: day.to });

/** What each order figure counts, as the order list's filter: by booking time, or (sessions) by when the booking was used. */
export const orderFigureFilters = (day: { from: number; to: number }) =>
  ({
    bookings: { SetT: dayRange(day) },
    used: { SetT: dayRange(day), IsUsed: true },
    expired: { SetT: dayRange(day), IsPass: true },
    sessions: { UseTime: dayRange(day) },
  }) as const satisfies Record<OrderFigure, Record<string, unknown>>;

/** What each alarm figure counts, as the alarm list's filter: the standing alarms of one priority. */
export const ALARM_FIGURE_FILTERS = Object.fromEntries(
  ALARM_PRIORITIES.map((priority) => [priority, { priority, state: STANDING_ALARM_STATES }]),
) as Readonly<Record<AlarmFigure, { priority: AlarmPriority; state: typeof STANDING_ALARM_STATES }>>;
