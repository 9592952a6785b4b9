import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { sessionReportSchema } from '../../src/domain/sessionReport';
import { openAlarm } from '../../server/alarms/store';
import { SYSTEM_ACTOR } from '../../server/audit/trail';
import { endSession } from '../../server/orders/session-end';
import { startSession } from '../../server/orders/session-start';
import { HOUR, MINUTE, snapshot, T0, type DemoName, useFleetApp } from './fleet';
import { fakeClock, STORE_KINDS, useStore } from './stores';

interface RestOptions {
  who?: DemoName;
  lang?: string;
  body?: unknown;
}

/**
 * Booking and cancelling from the console (docs/orders.md, "Booking and cancelling") and the session
 * report, on both stores, over the fleet of tests/server/fleet.ts (client manages OC-A1 only; second
 * OC-A1 and OC-A2; OC-A1 runs ORD-0001; OC-C1 has the open ORD-0006 booked at T0).
 */
describe.each(STORE_KINDS)('order manager (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + MINUTE);
  const fleet = useFleetApp(store, clock.now);
  beforeEach(() => clock.set(T0 + MINUTE));

  const rest = (method: 'GET' | 'POST', url: string, { who = 'admin', lang = 'en-US', body }: RestOptions = {}) =>
    fleet.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: {
        authorization: `Bearer ${fleet.tokens[who]}`,
        'accept-language': lang,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const json = (response: LightMyRequestResponse) => ({ http: response.statusCode, body: response.json<Record<string, unknown>>() });
  const book = (body: Record<string, unknown>, options: Omit<RestOptions, 'body'> = {}) => rest('POST', '/orders', { ...options, body });
  const orderEntries = () =>
    store.context().db.selectFrom('audit_log').select(['action', 'actor_account', 'target_id', 'device_id', 'before', 'after']).where('target_type', '=', 'order').orderBy('id').execute();
  /** A refused call writes nothing: no order, no audit entry. */
  const unchanged = async (refused: () => Promise<LightMyRequestResponse>) => {
    const before = await snapshot(store.context());
    const entries = await orderEntries();
    const response = await refused();
    expect(await snapshot(store.context())).toBe(before);
    expect(await orderEntries()).toEqual(entries);
    return json(response);
  };
  const GUEST = 'oGuest-4711';
  /** Ids are the store's own (a wiped store does not restart its sequence). */
  const idOf = async (orderNum: string) =>
    Number((await store.context().db.selectFrom('orders').select('id').where('order_num', '=', orderNum).executeTakeFirstOrThrow()).id);

  describe('POST /api/v1/orders', () => {
    it('books a chamber: 201, an open booking with a generated six-digit code, audited as its maker', async () => {
      const answer = json(await book({ Id: 'OC-A2', SetT: T0 + 2 * HOUR, OpenId: GUEST }, { who: 'second' }));
      expect(answer.http).toBe(201);
      expect(answer.body).toMatchObject({ Id: 'OC-A2', SetT: T0 + 2 * HOUR, OpenId: GUEST, IsUsed: false, IsPass: false, UseTime: null, CancelTime: null });
      expect(answer.body.OC).toMatch(/^\d{6}$/);
      expect(await orderEntries()).toEqual([
        {
          action: 'order.created',
          actor_account: 'second',
          target_id: answer.body.OrderNum,
          device_id: 'OC-A2',
          before: null,
          after: JSON.stringify({ Id: 'OC-A2', SetT: T0 + 2 * HOUR, OpenId: GUEST, OC: answer.body.OC }),
        },
      ]);
    });

    it('keeps an operation code that is given', async () => {
      const answer = json(await book({ Id: 'OC-A2', SetT: T0 + HOUR, OpenId: GUEST, OC: 'AB1234' }));
      expect(answer.body.OC).toBe('AB1234');
    });

    it("refuses a booking that overlaps another of the chamber, naming it, and allows one after that one's window", async () => {
      // ORD-0006 of OC-C1 is booked at T0; windows are ORDER_EXPIRY_MINUTES (30) long.
      const refused = await unchanged(() => book({ Id: 'OC-C1', SetT: T0 + 20 * MINUTE, OpenId: GUEST }));
      expect(refused).toEqual({ http: 400, body: { code: CODES.badInput, message: 'the booking time overlaps booking ORD-0006 of device OC-C1 (SetT)' } });
      const zh = await unchanged(() => book({ Id: 'OC-C1', SetT: T0 + 20 * MINUTE, OpenId: GUEST }, { lang: 'zh-CN' }));
      expect(zh.body.message).toBe('预约时间与设备 OC-C1 的订单 ORD-0006 冲突（SetT）');
      expect(json(await book({ Id: 'OC-C1', SetT: T0 + 31 * MINUTE, OpenId: GUEST })).http).toBe(201);
    });

    it('refuses a booking while a session runs on the chamber, until one window from now', async () => {
      // OC-A1 runs ORD-0001.
      const refused = await unchanged(() => book({ Id: 'OC-A1', SetT: T0 + 10 * MINUTE, OpenId: GUEST }));
      expect(refused.body.message).toBe('the booking time overlaps booking ORD-0001 of device OC-A1 (SetT)');
      expect(json(await book({ Id: 'OC-A1', SetT: T0 + 40 * MINUTE, OpenId: GUEST })).http).toBe(201);
    });

    it('refuses a time long past or too far ahead, naming SetT in the caller’s language', async () => {
      expect((await unchanged(() => book({ Id: 'OC-A2', SetT: T0 - 10 * MINUTE, OpenId: GUEST }))).body).toEqual({
        code: CODES.badInput,
        message: 'the booking time has passed (SetT)',
      });
      expect((await unchanged(() => book({ Id: 'OC-A2', SetT: T0 + 31 * 24 * HOUR, OpenId: GUEST }, { lang: 'zh-CN' }))).body.message).toBe(
        '预约时间最多只能提前 30 天（SetT）',
      );
      // A few minutes late is the desk typing while the guest waits.
      expect(json(await book({ Id: 'OC-A2', SetT: T0 - 3 * MINUTE, OpenId: GUEST })).http).toBe(201);
    });

    it('names a bad OpenId, OC or a missing field, in both languages', async () => {
      expect((await unchanged(() => book({ Id: 'OC-A2', SetT: T0 + HOUR, OpenId: 'no spaces here' }))).body.message).toBe('OpenId is invalid');
      expect((await unchanged(() => book({ Id: 'OC-A2', SetT: T0 + HOUR, OpenId: GUEST, OC: '12' }))).body.message).toBe(
        'OC must be at least 4 characters',
      );
      const zh = await unchanged(() => book({ Id: 'OC-A2', OpenId: GUEST }, { lang: 'zh-CN' }));
      expect(zh.http).toBe(400);
      expect(zh.body.message).toContain('SetT');
      expect(zh.body.message).not.toMatch(/[a-z]{4}/);
    });

    it('answers a device out of scope as one that does not exist, and a client may not book', async () => {
      const outOfScope = await unchanged(() => book({ Id: 'OC-C1', SetT: T0 + 2 * HOUR, OpenId: GUEST }, { who: 'second' }));
      const missing = await unchanged(() => book({ Id: 'OC-ZZ', SetT: T0 + 2 * HOUR, OpenId: GUEST }, { who: 'second' }));
      expect(outOfScope).toEqual(missing);
      expect(outOfScope.body.code).toBe(CODES.notFound);
      const client = await unchanged(() => book({ Id: 'OC-A1', SetT: T0 + 2 * HOUR, OpenId: GUEST }, { who: 'client' }));
      expect(client).toMatchObject({ http: 403, body: { code: CODES.forbidden } });
    });
  });

  describe('POST /api/v1/orders/:id/cancel', () => {
    it('cancels a booking not yet used: CancelTime, IsPass untouched, audited; its code no longer starts a session', async () => {
      const id = await idOf('ORD-0006');
      const answer = json(await rest('POST', `/orders/${id}/cancel`, { who: 'first' }));
      // first does not manage OC-C1: out of scope.
      expect(answer.body.code).toBe(CODES.notFound);
      const cancelled = json(await rest('POST', `/orders/${id}/cancel`));
      expect(cancelled).toMatchObject({ http: 200, body: { OrderNum: 'ORD-0006', CancelTime: clock.now(), IsPass: false, IsUsed: false } });
      expect((await orderEntries()).map((entry) => [entry.action, entry.actor_account, entry.target_id])).toEqual([['order.cancelled', 'admin', 'ORD-0006']]);
      expect(await startSession(store.context(), { deviceId: 'OC-C1', oc: '100006', at: clock.now() })).toMatchObject({ outcome: 'cancelled' });
      // A cancelled booking no longer holds its time.
      expect(json(await book({ Id: 'OC-C1', SetT: T0 + 5 * MINUTE, OpenId: GUEST })).http).toBe(201);
    });

    it('refuses to cancel a used, expired or cancelled booking, in both languages', async () => {
      const running = await idOf('ORD-0001');
      const used = await unchanged(() => rest('POST', `/orders/${running}/cancel`));
      expect(used).toEqual({
        http: 400,
        body: { code: CODES.badInput, message: 'booking ORD-0001 has been used, has expired or was cancelled: only a booking not yet used can be cancelled' },
      });
      const expired = await idOf('ORD-0003');
      expect((await unchanged(() => rest('POST', `/orders/${expired}/cancel`, { lang: 'zh-CN' }))).body.message).toBe(
        '订单 ORD-0003 已使用、已过期或已取消：只能取消尚未使用的预约',
      );
    });

    it('a client may not cancel', async () => {
      const created = json(await book({ Id: 'OC-A1', SetT: T0 + 2 * HOUR, OpenId: GUEST }));
      expect((await unchanged(() => rest('POST', `/orders/${String(created.body.id)}/cancel`, { who: 'client' }))).http).toBe(403);
    });
  });

  describe('GET /api/v1/orders/:id/report', () => {
    it("answers the session's readings, settings and commands, from its start to its end", async () => {
      const ctx = store.context();
      const created = json(await book({ Id: 'OC-A2', SetT: T0 + 10 * MINUTE, OpenId: GUEST, OC: '777777' }));
      const start = T0 + 10 * MINUTE;
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '777777', at: start })).toMatchObject({ outcome: 'started' });
      const reading = (minute: number, rcp: number) => ({
        device_id: 'OC-A2',
        time: start + minute * MINUTE,
        sp: 1.6,
        st: 60,
        ss: 'M',
        sl: 1,
        sa: minute === 0 ? 0 : 1,
        rcp,
        rcpi02: 24,
        rct: 23,
        rcrh: 55,
        hm_hr: 70 + minute,
        hm_sp02: 98,
        hm_bp: '118/76',
      });
      await ctx.db.insertInto('state_records').values([reading(0, 1.1), reading(1, 1.3), reading(2, 1.6)]).execute();
      await ctx.db
        .insertInto('device_commands')
        .values({ cmd_id: 'cmd-in-session', device_id: 'OC-A2', type: 'settings', payload: '{"type":"settings","SA":1}', status: 'acked', error: null, issued_by: null, issued_at: start + 30_000, answered_at: start + 31_000 })
        .execute();
      // Alarms: two of the chamber raised in the session (one then acknowledged), one before and one after it,
      // and one of another chamber in it; only the first two are the session's.
      const raise = async (deviceId: string, alarmKind: 'o2-high' | 'humidity' | 'temperature' | 'heart-rate', at: number) =>
        Number((await openAlarm(ctx.db, { deviceId, kind: alarmKind, priority: alarmKind === 'humidity' ? 'low' : 'high', state: 'active-unacked', value: 23.6, threshold: 23.5 }, SYSTEM_ACTOR, at))?.id);
      await raise('OC-A2', 'temperature', start - MINUTE);
      const o2 = await raise('OC-A2', 'o2-high', start + 20_000);
      const humidity = await raise('OC-A2', 'humidity', start + 90_000);
      await raise('OC-A1', 'heart-rate', start + 30_000);
      clock.set(start + MINUTE);
      expect((await rest('POST', `/alarms/${o2}/ack`, { who: 'second', body: { comment: 'checked' } })).statusCode).toBe(200);
      expect(await endSession(ctx, { deviceId: 'OC-A2', at: start + 2 * MINUTE })).toMatchObject({ outcome: 'finished' });
      // A reading and an alarm after the session are not the session's.
      await ctx.db.insertInto('state_records').values([reading(5, 1.0)]).execute();
      await raise('OC-A2', 'heart-rate', start + 3 * MINUTE);

      const answer = json(await rest('GET', `/orders/${String(created.body.id)}/report`, { who: 'second' }));
      expect(answer.http).toBe(200);
      const report = sessionReportSchema.parse(answer.body);
      expect(report.order).toMatchObject({ OrderNum: created.body.OrderNum, UseTime: start, FinishTime: start + 2 * MINUTE, IsUsed: true });
      expect(report.device).toEqual({ Id: 'OC-A2', name: 'North Two', Type: 2, Location: 'hall a annex' });
      expect(report.session).toEqual({ from: start, to: start + 2 * MINUTE, running: false });
      expect(report.readings.map((row) => row.RCP)).toEqual([1.1, 1.3, 1.6]);
      expect(report.readings[2]).toEqual({ Time: start + 2 * MINUTE, RCP: 1.6, SP: 1.6, RCPi02: 24, RCT: 23, RCRH: 55, HmHR: 72, HmSP02: 98, HmBP: '118/76' });
      expect(report.settings).toEqual({ atStart: { SP: 1.6, ST: 60, SS: 'M', SL: 1, SA: 0 }, atEnd: { SP: 1.6, ST: 60, SS: 'M', SL: 1, SA: 1 } });
      expect(report.commands).toEqual([
        { cmdId: 'cmd-in-session', type: 'settings', command: { type: 'settings', SA: 1 }, status: 'acked', error: null, actor: null, issuedAt: start + 30_000, answeredAt: start + 31_000 },
      ]);
      expect(report.truncated).toBe(false);
      expect(report.alarms).toEqual([
        { id: o2, deviceId: 'OC-A2', kind: 'o2-high', priority: 'high', state: 'active-acked', value: 23.6, threshold: 23.5, raisedAt: start + 20_000, ackedAt: start + MINUTE, ackedBy: 'second', closedAt: null, shelvedUntil: null, comment: 'checked' },
        { id: humidity, deviceId: 'OC-A2', kind: 'humidity', priority: 'low', state: 'active-unacked', value: 23.6, threshold: 23.5, raisedAt: start + 90_000, ackedAt: null, ackedBy: null, closedAt: null, shelvedUntil: null, comment: null },
      ]);
    });

    it('a booking never used has no session; an order of a chamber out of scope is 404 like a missing one', async () => {
      const open = json(await rest('GET', `/orders/${await idOf('ORD-0006')}/report`));
      expect(open.body).toMatchObject({ session: null, readings: [], commands: [], settings: null, alarms: [] });
      // ORD-0008 runs on OC-C2, which the client does not manage.
      const outOfScope = json(await rest('GET', `/orders/${await idOf('ORD-0008')}/report`, { who: 'client' }));
      const missing = json(await rest('GET', '/orders/2000000000/report', { who: 'client' }));
      expect(outOfScope).toEqual(missing);
      expect(outOfScope.http).toBe(404);
    });
  });
});
