import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/context';
import { EARLY_START_MINUTES, findBooking, type OrderState } from '../../server/orders/booking';
import { createBooking } from '../../server/orders/create-booking';
import { expireOverdue, EXPIRY_BATCH } from '../../server/orders/expiry';
import { endSession } from '../../server/orders/session-end';
import { startSession } from '../../server/orders/session-start';
import { ORDER_SWEEP_INTERVAL_MS, orderSweeperPlugin } from '../../server/orders/sweeper';
import { seedFleet, snapshot, T0 } from './fleet';
import { fakeClock, MINUTE, STORE_KINDS, useStore } from './stores';

/** Every audit entry, oldest first, with before/after parsed. */
const auditEntries = async (ctx: AppContext) =>
  (await ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute()).map((row) => ({
    ...row,
    at: Number(row.at),
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
  }));

const deviceRow = (ctx: AppContext, id: string) =>
  ctx.db.selectFrom('devices').select(['state', 'order_num', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();

const booking = async (ctx: AppContext, orderNum: string): Promise<OrderState> => {
  const found = await findBooking(ctx, orderNum);
  if (found === undefined) throw new Error(`no booking ${orderNum}`);
  return found;
};

/** The fleet (tests/server/fleet.ts) at T0: OC-A1 runs ORD-0001, OC-A2 and OC-C1 are idle, OC-B2 in repair. */
describe.each(STORE_KINDS)('order lifecycle (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0);
  let ctx: AppContext;
  const EXPIRY = 30 * MINUTE;

  beforeEach(async () => {
    clock.set(T0);
    await store.wipe();
    ctx = store.context({ ORDER_EXPIRY_MINUTES: '30' }, clock.now);
    await seedFleet(ctx);
  });

  /** A booking of `deviceId` at T0 + `inMinutes` with operation code `oc`. */
  const book = (deviceId: string, oc: string, inMinutes = 0, orderNum?: string) =>
    createBooking(ctx, { deviceId, oc, setT: T0 + inMinutes * MINUTE, openId: 'oGuest', ...(orderNum === undefined ? {} : { orderNum }) });

  describe('createBooking', () => {
    it('creates an open booking numbered by day, Time from the clock', async () => {
      clock.set(Date.UTC(2026, 0, 5, 8, 0));
      const first = await book('OC-A2', '123456', 60);
      const second = await book('OC-C1', '654321', 90);
      expect(first).toMatchObject({
        orderNum: '202601050001',
        deviceId: 'OC-A2',
        time: clock.now(),
        setT: T0 + 60 * MINUTE,
        oc: '123456',
        openId: 'oGuest',
        isUsed: false,
        isPass: false,
        finishedAt: null,
      });
      expect(second.orderNum).toBe('202601050002');
      const given = await book('OC-A2', '111111', 0, 'MY-ORDER');
      expect(given.orderNum).toBe('MY-ORDER');
      await expect(book('OC-A2', '111111', 0, 'MY-ORDER')).rejects.toThrow();
    });

    it('refuses an unknown device (40400) and writes nothing', async () => {
      const before = await snapshot(ctx);
      await expect(book('OC-NOPE', '123456')).rejects.toMatchObject({ code: 40400 });
      expect(await snapshot(ctx)).toBe(before);
    });
  });

  describe('startSession', () => {
    it('uses the booking with the matching code: IsUsed, the device runs it (Work), one audit entry', async () => {
      const order = await book('OC-A2', '246810', 10);
      const at = T0 + 5 * MINUTE;
      const result = await startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at });
      expect(result).toMatchObject({ outcome: 'started', superseded: null, order: { orderNum: order.orderNum, isUsed: true } });
      expect(await booking(ctx, order.orderNum)).toMatchObject({ isUsed: true, isPass: false, finishedAt: null });
      expect(await deviceRow(ctx, 'OC-A2')).toEqual({ state: 'Work', order_num: order.orderNum, updated_at: at });
      const entries = await auditEntries(ctx);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        at,
        actor_id: null,
        actor_account: 'system',
        address: 'system',
        action: 'order.used',
        target_type: 'order',
        target_id: order.orderNum,
        device_id: 'OC-A2',
        before: { IsUsed: false, device: { State: 'Stop', OrderNum: null } },
        after: { IsUsed: true, device: { State: 'Work', OrderNum: order.orderNum } },
      });
    });

    it('ignores a wrong code, another device\'s code, an empty code and an unknown device: nothing written', async () => {
      await book('OC-A2', '246810', 10);
      const before = await snapshot(ctx);
      const at = T0 + 5 * MINUTE;
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '999999', at })).toEqual({ outcome: 'unknownCode' });
      expect(await startSession(ctx, { deviceId: 'OC-C1', oc: '246810', at })).toEqual({ outcome: 'unknownCode' });
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '   ', at })).toEqual({ outcome: 'unknownCode' });
      expect(await startSession(ctx, { deviceId: 'OC-NOPE', oc: '246810', at })).toEqual({ outcome: 'unknownDevice' });
      expect(await snapshot(ctx)).toBe(before);
      expect(await auditEntries(ctx)).toEqual([]);
    });

    it('opens the window EARLY_START_MINUTES before SetT and closes it ORDER_EXPIRY_MINUTES after, both ends included', async () => {
      const early = await book('OC-A2', '100001', 60);
      const opensAt = T0 + 60 * MINUTE - EARLY_START_MINUTES * MINUTE;
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '100001', at: opensAt - 1 })).toMatchObject({
        outcome: 'tooEarly',
        order: { orderNum: early.orderNum, isUsed: false },
      });
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '100001', at: opensAt })).toMatchObject({ outcome: 'started' });

      const late = await book('OC-C1', '100002', 0);
      const closesAt = T0 + EXPIRY;
      expect(await startSession(ctx, { deviceId: 'OC-C1', oc: '100002', at: closesAt + 1 })).toMatchObject({
        outcome: 'expired',
        order: { orderNum: late.orderNum, isUsed: false, isPass: false },
      });
      expect((await booking(ctx, late.orderNum)).isUsed).toBe(false);
      expect(await startSession(ctx, { deviceId: 'OC-C1', oc: '100002', at: closesAt })).toMatchObject({ outcome: 'started' });
    });

    it('a repeated start of the running booking is answered alreadyRunning and writes nothing', async () => {
      const order = await book('OC-A2', '246810', 0);
      await startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 });
      const before = await snapshot(ctx);
      const again = await startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 + 1000 });
      expect(again).toMatchObject({ outcome: 'alreadyRunning', order: { orderNum: order.orderNum } });
      expect(await snapshot(ctx)).toBe(before);
      expect((await auditEntries(ctx)).map((entry) => entry.action)).toEqual(['order.used']);
    });

    it('two concurrent starts of one booking: exactly one succeeds, one audit entry', async () => {
      const order = await book('OC-A2', '246810', 0);
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) => startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 + i })),
      );
      expect(results.filter((result) => result.outcome === 'started')).toHaveLength(1);
      expect(results.filter((result) => result.outcome === 'alreadyRunning')).toHaveLength(3);
      expect((await auditEntries(ctx)).map((entry) => [entry.action, entry.target_id])).toEqual([['order.used', order.orderNum]]);
      expect((await deviceRow(ctx, 'OC-A2')).order_num).toBe(order.orderNum);
    });

    it('two bookings starting at once on one device: the later one runs, the other is finished as superseded', async () => {
      const first = await book('OC-A2', '111111', 0);
      const second = await book('OC-A2', '222222', 0);
      const results = await Promise.all([
        startSession(ctx, { deviceId: 'OC-A2', oc: '111111', at: T0 }),
        startSession(ctx, { deviceId: 'OC-A2', oc: '222222', at: T0 }),
      ]);
      expect(results.map((result) => result.outcome)).toEqual(['started', 'started']);
      const running = (await deviceRow(ctx, 'OC-A2')).order_num;
      const other = running === first.orderNum ? second : first;
      expect([first.orderNum, second.orderNum]).toContain(running);
      expect(await booking(ctx, other.orderNum)).toMatchObject({ isUsed: true, finishedAt: T0 });
      expect(results.map((result) => (result.outcome === 'started' ? result.superseded : undefined))).toContain(other.orderNum);
      const entries = await auditEntries(ctx);
      expect(entries.map((entry) => [entry.action, entry.target_id])).toEqual(
        expect.arrayContaining([['order.used', first.orderNum], ['order.used', second.orderNum], ['order.finished', other.orderNum]]),
      );
      expect(entries).toHaveLength(3);
    });

    it('a booking used and finished cannot start again', async () => {
      await book('OC-A2', '246810', 0);
      await startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 });
      await endSession(ctx, { deviceId: 'OC-A2', at: T0 + 20 * MINUTE });
      const before = await snapshot(ctx);
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 + 21 * MINUTE })).toMatchObject({ outcome: 'alreadyUsed' });
      expect(await snapshot(ctx)).toBe(before);
    });

    it('of two bookings with one code, uses the open one whose window holds the start', async () => {
      const yesterday = await book('OC-A2', '555555', -24 * 60);
      const today = await book('OC-A2', '555555', 5);
      await expireOverdue(ctx, T0);
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '555555', at: T0 })).toMatchObject({
        outcome: 'started',
        order: { orderNum: today.orderNum },
      });
      expect(await booking(ctx, yesterday.orderNum)).toMatchObject({ isUsed: false, isPass: true });
    });

    it('a device still running an order (its end was lost) finishes that one first', async () => {
      const order = await book('OC-A1', '777777', 0);
      const at = T0 + MINUTE;
      expect(await startSession(ctx, { deviceId: 'OC-A1', oc: '777777', at })).toMatchObject({ outcome: 'started', superseded: 'ORD-0001' });
      expect(await booking(ctx, 'ORD-0001')).toMatchObject({ isUsed: true, finishedAt: at });
      expect(await deviceRow(ctx, 'OC-A1')).toMatchObject({ state: 'Work', order_num: order.orderNum });
      const entries = await auditEntries(ctx);
      expect(entries.map((entry) => [entry.action, entry.target_id])).toEqual([
        ['order.finished', 'ORD-0001'],
        ['order.used', order.orderNum],
      ]);
      expect(entries[0]?.after).toMatchObject({ FinishTime: at, reason: 'superseded' });
    });

    it('a device in repair keeps its Repair state while running and after', async () => {
      const order = await book('OC-B2', '121212', 0);
      expect(await startSession(ctx, { deviceId: 'OC-B2', oc: '121212', at: T0 })).toMatchObject({ outcome: 'started' });
      expect(await deviceRow(ctx, 'OC-B2')).toMatchObject({ state: 'Repair', order_num: order.orderNum });
      expect(await endSession(ctx, { deviceId: 'OC-B2', at: T0 + MINUTE })).toMatchObject({ outcome: 'finished' });
      expect(await deviceRow(ctx, 'OC-B2')).toMatchObject({ state: 'Repair', order_num: null });
    });
  });

  describe('endSession', () => {
    it('finishes the running order: FinishTime, the device idle (Stop), one audit entry; a repeat changes nothing', async () => {
      const order = await book('OC-A2', '246810', 0);
      await startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 });
      const at = T0 + 45 * MINUTE;
      const result = await endSession(ctx, { deviceId: 'OC-A2', at });
      expect(result).toMatchObject({ outcome: 'finished', order: { orderNum: order.orderNum, finishedAt: at } });
      expect(await booking(ctx, order.orderNum)).toMatchObject({ isUsed: true, finishedAt: at });
      expect(await deviceRow(ctx, 'OC-A2')).toEqual({ state: 'Stop', order_num: null, updated_at: at });
      const finished = (await auditEntries(ctx)).filter((entry) => entry.action === 'order.finished');
      expect(finished).toEqual([
        expect.objectContaining({
          at,
          actor_account: 'system',
          target_type: 'order',
          target_id: order.orderNum,
          device_id: 'OC-A2',
          before: { FinishTime: null, device: { State: 'Work', OrderNum: order.orderNum } },
          after: { FinishTime: at, device: { State: 'Stop', OrderNum: null }, reason: 'sessionEnd' },
        }),
      ]);

      const before = await snapshot(ctx);
      expect(await endSession(ctx, { deviceId: 'OC-A2', at: at + 1000 })).toEqual({ outcome: 'notRunning' });
      expect(await snapshot(ctx)).toBe(before);
      expect(await auditEntries(ctx)).toHaveLength(2);
    });

    it('two concurrent ends finish the order once', async () => {
      const results = await Promise.all([
        endSession(ctx, { deviceId: 'OC-A1', at: T0 }),
        endSession(ctx, { deviceId: 'OC-A1', at: T0 + 1 }),
        endSession(ctx, { deviceId: 'OC-A1', at: T0 + 2 }),
      ]);
      expect(results.filter((result) => result.outcome === 'finished')).toHaveLength(1);
      expect(results.filter((result) => result.outcome === 'notRunning')).toHaveLength(2);
      expect((await auditEntries(ctx)).map((entry) => [entry.action, entry.target_id])).toEqual([['order.finished', 'ORD-0001']]);
    });

    it('a device running nothing, or unknown, changes nothing', async () => {
      const before = await snapshot(ctx);
      expect(await endSession(ctx, { deviceId: 'OC-A2', at: T0 })).toEqual({ outcome: 'notRunning' });
      expect(await endSession(ctx, { deviceId: 'OC-NOPE', at: T0 })).toEqual({ outcome: 'unknownDevice' });
      expect(await snapshot(ctx)).toBe(before);
    });
  });

  describe('expireOverdue', () => {
    it('expires a booking one millisecond after SetT + ORDER_EXPIRY_MINUTES, not at it', async () => {
      const order = await book('OC-A2', '246810', 60);
      const closesAt = T0 + 60 * MINUTE + EXPIRY;
      // The fleet's open ORD-0004 (SetT 6 hours before T0) and ORD-0006 (SetT T0) are overdue by then.
      clock.set(closesAt);
      expect(await expireOverdue(ctx, clock.now())).toEqual({ count: 2, orderNums: ['ORD-0004', 'ORD-0006'] });
      expect((await booking(ctx, order.orderNum)).isPass).toBe(false);
      clock.advance(1);
      expect(await expireOverdue(ctx, clock.now())).toEqual({ count: 1, orderNums: [order.orderNum] });
      expect(await booking(ctx, order.orderNum)).toMatchObject({ isPass: true, isUsed: false });
      const expired = (await auditEntries(ctx)).filter((entry) => entry.target_id === order.orderNum);
      expect(expired).toEqual([
        expect.objectContaining({
          at: clock.now(),
          action: 'order.expired',
          actor_account: 'system',
          target_type: 'order',
          device_id: 'OC-A2',
          before: { IsPass: false, SetT: T0 + 60 * MINUTE },
          after: { IsPass: true, SetT: T0 + 60 * MINUTE, expiryMinutes: 30 },
        }),
      ]);
      // Idempotent: nothing is left to expire.
      expect(await expireOverdue(ctx, clock.now() + 1000)).toEqual({ count: 0, orderNums: [] });
    });

    it('follows ORDER_EXPIRY_MINUTES', async () => {
      const longer = store.context({ ORDER_EXPIRY_MINUTES: '90' }, clock.now);
      const order = await book('OC-A2', '246810', 0);
      expect((await expireOverdue(longer, T0 + 90 * MINUTE)).orderNums).not.toContain(order.orderNum);
      expect(await startSession(longer, { deviceId: 'OC-A2', oc: '246810', at: T0 + 90 * MINUTE + 1 })).toMatchObject({ outcome: 'expired' });
      expect((await expireOverdue(longer, T0 + 90 * MINUTE + 1)).orderNums).toContain(order.orderNum);
    });

    it('an expired booking cannot be used, even inside its window', async () => {
      const order = await book('OC-A2', '246810', 0);
      // Expired by a sweep whose clock ran ahead (or an operator's later tooling): IsPass is final.
      await expireOverdue(ctx, T0 + EXPIRY + 1);
      const before = await snapshot(ctx);
      expect(await startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 + MINUTE })).toMatchObject({
        outcome: 'expired',
        order: { orderNum: order.orderNum, isPass: true },
      });
      expect(await snapshot(ctx)).toBe(before);
    });

    it('leaves used, finished, already expired and SetT-less bookings alone', async () => {
      const { orderNums } = await expireOverdue(ctx, T0 + 365 * 24 * 60 * MINUTE);
      // ORD-0004 and ORD-0006 were open; 1, 2, 5, 8 used; 3 and 7 expired (7 has no SetT).
      expect(orderNums.sort()).toEqual(['ORD-0004', 'ORD-0006']);
      expect(await expireOverdue(ctx, T0 + 366 * 24 * 60 * MINUTE)).toEqual({ count: 0, orderNums: [] });
    });

    it(`works a backlog larger than one batch (${EXPIRY_BATCH})`, async () => {
      const rows = Array.from({ length: EXPIRY_BATCH * 2 + 7 }, (_, i) => ({
        order_num: `OLD-${String(i).padStart(5, '0')}`,
        device_id: 'OC-C2',
        time: T0 - 48 * 60 * MINUTE,
        set_t: T0 - 47 * 60 * MINUTE + i,
        oc: String(i),
        open_id: null,
        is_used: 0,
        is_pass: 0,
        finished_at: null,
      }));
      for (let start = 0; start < rows.length; start += 400) {
        await ctx.db.insertInto('orders').values(rows.slice(start, start + 400)).execute();
      }
      const result = await expireOverdue(ctx, T0 - 2 * 60 * MINUTE);
      // The fleet's ORD-0004 (SetT T0 - 6 h) is overdue too, and comes last by SetT.
      expect(result.count).toBe(rows.length + 1);
      expect(result.orderNums.slice(0, 2)).toEqual(['OLD-00000', 'OLD-00001']);
      expect(result.orderNums.at(-1)).toBe('ORD-0004');
      const left = await ctx.db.selectFrom('orders').select('id').where('order_num', 'like', 'OLD-%').where('is_pass', '=', 0).execute();
      expect(left).toEqual([]);
      const entries = await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(entries.n)).toBe(rows.length + 1);
    });

    it('a start and a sweep racing at the window\'s end: the booking is used or expired, never both', async () => {
      const order = await book('OC-A2', '246810', 0);
      const [started] = await Promise.all([
        startSession(ctx, { deviceId: 'OC-A2', oc: '246810', at: T0 + EXPIRY }),
        expireOverdue(ctx, T0 + EXPIRY + 1),
      ]);
      const after = await booking(ctx, order.orderNum);
      expect(after.isUsed !== after.isPass).toBe(true);
      expect(started.outcome === 'started').toBe(after.isUsed);
      const actions = (await auditEntries(ctx)).filter((entry) => entry.target_id === order.orderNum).map((entry) => entry.action);
      expect(actions).toEqual([after.isUsed ? 'order.used' : 'order.expired']);
    });
  });

  describe('the sweeper plugin', () => {
    const waitFor = async (check: () => Promise<boolean>, ms: number): Promise<boolean> => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        if (await check()) return true;
        await sleep(10);
      }
      return check();
    };

    it('expires overdue bookings on its interval, at the app\'s clock, and stops when the app closes', async () => {
      const app = await store.app({
        now: clock.now,
        env: { ORDER_EXPIRY_MINUTES: '30' },
        setup: (instance) => void instance.register(orderSweeperPlugin, { intervalMs: 40 }),
      });
      const order = await book('OC-A2', '246810', 0);
      // Not overdue yet at the app's clock: sweeps come and go and leave it open.
      await sleep(150);
      expect((await booking(ctx, order.orderNum)).isPass).toBe(false);
      expect((await booking(ctx, 'ORD-0004')).isPass).toBe(true);

      clock.set(T0 + EXPIRY + 1);
      expect(await waitFor(async () => (await booking(ctx, order.orderNum)).isPass, 2000)).toBe(true);
      expect((await auditEntries(ctx)).filter((entry) => entry.action === 'order.expired').map((entry) => entry.target_id).sort()).toEqual(
        ['ORD-0004', 'ORD-0006', order.orderNum].sort(),
      );

      await app.close();
      const later = await book('OC-C1', '135790', 0);
      clock.set(T0 + 10 * EXPIRY);
      await sleep(200);
      expect((await booking(ctx, later.orderNum)).isPass).toBe(false);
    });

    it('sweeps every ORDER_SWEEP_INTERVAL_MS by default and refuses a nonsense interval', async () => {
      expect(ORDER_SWEEP_INTERVAL_MS).toBe(30_000);
      await expect(
        store.app({ setup: (instance) => void instance.register(orderSweeperPlugin, { intervalMs: 0 }) }),
      ).rejects.toThrow(/intervalMs/);
    });
  });
});
