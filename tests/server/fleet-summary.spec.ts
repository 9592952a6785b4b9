import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AlarmKind, AlarmPriority, AlarmState } from '../../src/domain/alarms/rules';
import { ALARM_FIGURE_FILTERS, CHAMBER_FIGURE_FILTERS, fleetSummarySchema, orderFigureFilters, type FleetSummary } from '../../src/domain/fleetSummary';
import { openAlarm } from '../../server/alarms/store';
import { SYSTEM_ACTOR } from '../../server/audit/trail';
import { createBooking } from '../../server/orders/create-booking';
import { endSession } from '../../server/orders/session-end';
import { startSession } from '../../server/orders/session-start';
import { expireOverdue } from '../../server/orders/expiry';
import { demoTokens, seedFleet, type DemoName } from './fleet';
import { call, envelope } from './http';
import { HOUR, STORE_KINDS, useStore } from './stores';

/**
 * `GET /api/v1/fleet/summary`: the workplace's figures, counted over the caller's chambers only, for
 * the local day of the browser's offset, from bookings and sessions made through the order lifecycle,
 * and the standing alarms by priority.
 */

/** The local day in China (UTC+8, getTimezoneOffset -480) that begins 2026-01-11T16:00Z. */
const CHINA = -480;
const DAY = Date.UTC(2026, 0, 11, 16);
const NOW = DAY + 14.5 * HOUR;

describe.each(STORE_KINDS)('the fleet summary (%s)', (kind) => {
  const store = useStore(kind);
  let tokens: Record<DemoName, string>;
  let app: FastifyInstance;
  let summary: (who: DemoName, query?: string) => Promise<FleetSummary>;

  beforeEach(async () => {
    await store.wipe();
    const ctx = store.context({}, () => NOW);
    await seedFleet(ctx);
    const session = async (deviceId: string, oc: string, setT: number, end?: number) => {
      await createBooking(ctx, { deviceId, setT, oc });
      expect((await startSession(ctx, { deviceId, oc, at: setT })).outcome).toBe('started');
      if (end !== undefined) expect((await endSession(ctx, { deviceId, at: end })).outcome).toBe('finished');
    };
    // OC-C1 ran a session from an hour before the day to an hour into it (yesterday's booking).
    await session('OC-C1', 'C1-YESTERDAY', DAY - HOUR, DAY + HOUR);
    // OC-B2, in repair, ran a technician's session with a booking from 03:00 to 05:00.
    await session('OC-B2', 'B2-TEST', DAY + 3 * HOUR, DAY + 5 * HOUR);
    // OC-A1: a session 09:00–10:00, and one since 14:00 that still runs.
    await session('OC-A1', 'A1-MORNING', DAY + 9 * HOUR, DAY + 10 * HOUR);
    await session('OC-A1', 'A1-NOW', DAY + 14 * HOUR);
    // OC-A2's 08:00 booking expired unused; OC-B1's at 20:00 waits; OC-C2's is tomorrow's.
    await createBooking(ctx, { deviceId: 'OC-A2', setT: DAY + 8 * HOUR, oc: 'A2-MISSED' });
    // (The seeded fleet's open bookings of a week before expire too, outside the day.)
    expect((await expireOverdue(ctx, NOW)).orderNums).toContain((await ctx.db.selectFrom('orders').select('order_num').where('oc', '=', 'A2-MISSED').executeTakeFirstOrThrow()).order_num);
    await createBooking(ctx, { deviceId: 'OC-B1', setT: DAY + 20 * HOUR, oc: 'B1-EVENING' });
    await createBooking(ctx, { deviceId: 'OC-C2', setT: DAY + 25 * HOUR, oc: 'C2-TOMORROW' });
    // What the chambers report: OC-A1 is in its session, OC-B2 runs its test in repair.
    await ctx.db.updateTable('devices').set({ session_oc: 'A1-NOW' }).where('id', '=', 'OC-A1').execute();
    await ctx.db.updateTable('devices').set({ session_oc: 'B2-TEST' }).where('id', '=', 'OC-B2').execute();
    // Alarms in every state: only active-unacked, active-acked and rtn-unacked stand.
    const alarms: [string, AlarmKind, AlarmPriority, AlarmState][] = [
      ['OC-A1', 'o2-high', 'high', 'active-unacked'],
      ['OC-A1', 'temperature', 'medium', 'rtn-unacked'],
      ['OC-A2', 'humidity', 'low', 'active-acked'],
      ['OC-A2', 'pressure-rate', 'medium', 'shelved'],
      ['OC-B1', 'heart-rate', 'high', 'suppressed'],
      ['OC-C1', 'erd', 'high', 'active-acked'],
      ['OC-C2', 'o2-high', 'high', 'closed'],
    ];
    for (const [deviceId, alarmKind, priority, state] of alarms) {
      await openAlarm(ctx.db, { deviceId, kind: alarmKind, priority, state, value: null, threshold: null }, SYSTEM_ACTOR, NOW - HOUR);
    }

    app = await store.app({ now: () => NOW });
    tokens = await demoTokens(app);
    summary = async (who, query = `tz=${CHINA}`) => {
      const response = await app.inject({ method: 'GET', url: `/api/v1/fleet/summary?${query}`, headers: { authorization: `Bearer ${tokens[who]}` } });
      expect(response.statusCode, response.body).toBe(200);
      return fleetSummarySchema.parse(response.json());
    };
  });

  it('counts every chamber for the super administrator: online, offline, in session, idle, in repair', async () => {
    // Seeded: OC-A1, OC-B1, OC-C1, OC-C2 online; OC-B2 in repair; OC-A1 in session.
    expect((await summary('admin')).chambers).toEqual({ total: 6, online: 4, offline: 2, inSession: 1, idle: 4, repair: 1 });
  });

  it("counts today's bookings, sessions started, used and expired in the browser's day", async () => {
    const answer = await summary('admin');
    expect(answer).toMatchObject({ from: DAY, to: DAY + 24 * HOUR - 1, at: NOW });
    expect(answer.orders).toEqual({ bookings: 5, sessions: 3, used: 3, expired: 1 });
  });

  it('gives each hour begun the share of chambers in session, from session starts and ends', async () => {
    const sixth = 1 / 6;
    const expected = [sixth, 0, 0, sixth, sixth, 0, 0, 0, 0, sixth, 0, 0, 0, 0, sixth, ...Array<null>(9).fill(null)];
    const utilisation = (await summary('admin')).utilisation;
    expect(utilisation).toHaveLength(24);
    utilisation.forEach((share, hour) => (share === null ? expect(expected[hour]).toBeNull() : expect(share).toBeCloseTo(expected[hour] ?? -1, 6)));
  });

  it('counts a day in another time zone from its own midnight', async () => {
    // UTC: the day began at 00:00Z on 2026-01-12 (08:00 in China): OC-B2's test and OC-C1's session were yesterday's,
    // and OC-C2's booking (09:00Z) is today's.
    const answer = await summary('admin', 'tz=0');
    expect(answer.from).toBe(Date.UTC(2026, 0, 12));
    expect(answer.orders).toEqual({ bookings: 5, sessions: 2, used: 2, expired: 1 });
    expect(answer.utilisation.filter((share) => share !== null)).toHaveLength(7);
  });

  it('counts the standing alarms by priority, of the chambers in the caller scope only', async () => {
    expect((await summary('admin')).alarms).toEqual({ high: 2, medium: 1, low: 1 });
    expect((await summary('first')).alarms).toEqual({ high: 1, medium: 1, low: 1 });
    expect((await summary('second')).alarms).toEqual({ high: 1, medium: 1, low: 1 });
    expect((await summary('client')).alarms).toEqual({ high: 1, medium: 1, low: 0 });
  });

  it('counts only the chambers and orders in the caller scope', async () => {
    const client = await summary('client');
    expect(client.chambers).toEqual({ total: 1, online: 1, offline: 0, inSession: 1, idle: 0, repair: 0 });
    expect(client.orders).toEqual({ bookings: 2, sessions: 2, used: 2, expired: 0 });
    expect(client.utilisation[9]).toBeCloseTo(1, 6);
    const second = await summary('second');
    expect(second.chambers).toEqual({ total: 2, online: 1, offline: 1, inSession: 1, idle: 1, repair: 0 });
    expect(second.orders).toEqual({ bookings: 3, sessions: 2, used: 2, expired: 1 });
    expect(second.utilisation[14]).toBeCloseTo(0.5, 6);
  });

  it('counts what the list each figure links to finds with its filter', async () => {
    for (const who of ['admin', 'second'] as const) {
      const answer = await summary(who);
      const total = async (path: string, filter: object) =>
        envelope<{ total: number }>(await call(app, path, { current: 1, pageSize: 100, filter }, { token: tokens[who] })).data.total;
      for (const [figure, filter] of Object.entries(CHAMBER_FIGURE_FILTERS)) {
        expect([who, figure, await total('/list/get_OCProperty', filter)]).toEqual([who, figure, answer.chambers[figure as keyof typeof CHAMBER_FIGURE_FILTERS]]);
      }
      const orderFilters = orderFigureFilters(answer);
      for (const [figure, filter] of Object.entries(orderFilters)) {
        expect([who, figure, await total('/list/get_Records', filter)]).toEqual([who, figure, answer.orders[figure as keyof typeof orderFilters]]);
      }
      for (const [figure, filter] of Object.entries(ALARM_FIGURE_FILTERS)) {
        const alarms = await app.inject({
          method: 'GET',
          url: `/api/v1/alarms?range=[0,99]&filter=${encodeURIComponent(JSON.stringify(filter))}`,
          headers: { authorization: `Bearer ${tokens[who]}` },
        });
        expect(alarms.statusCode, alarms.body).toBe(200);
        expect([who, figure, alarms.json<unknown[]>().length]).toEqual([who, figure, answer.alarms[figure as keyof typeof ALARM_FIGURE_FILTERS]]);
      }
    }
  });

  it('refuses a caller not signed in, and names a bad offset', async () => {
    const anonymous = await (await store.app({ now: () => NOW })).inject({ method: 'GET', url: '/api/v1/fleet/summary' });
    expect(anonymous.statusCode).toBe(401);
    app = await store.app({ now: () => NOW });
    const bad = await app.inject({
      method: 'GET',
      url: '/api/v1/fleet/summary?tz=9999',
      headers: { authorization: `Bearer ${tokens.admin}`, 'accept-language': 'en-US' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/tz/);
  });
});
