import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context';
import { storeErrorCode } from '../db/errors';
import { notFound } from '../http/envelope';
import { orderByNum, type Db, type OrderState } from './booking';

export interface NewBooking {
  deviceId: string;
  /** Booking time, epoch ms. */
  setT: number;
  /** Operation code: the chamber starts the session with it. */
  oc: string;
  openId?: string | null;
  /** Generated when absent: `yyyymmdd` (UTC, of the creation time) + a daily sequence, as the demo fleet's. */
  orderNum?: string;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const dayStamp = (time: number): string => {
  const date = new Date(time);
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
};

/** The next free `yyyymmdd` + 4-digit number of the day; past 9999 a random suffix. */
const nextOrderNum = async (db: Db, time: number): Promise<string> => {
  const day = dayStamp(time);
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.max('order_num').as('last'))
    .where('order_num', '>=', `${day}0000`)
    .where('order_num', '<=', `${day}9999`)
    .executeTakeFirst();
  const last = row?.last ?? null;
  const sequence = last === null || !/^\d{12}$/.test(last) ? 1 : Number(last.slice(8)) + 1;
  return sequence <= 9999 ? `${day}${pad(sequence, 4)}` : `${day}-${randomBytes(4).toString('hex')}`;
};

const UNIQUE_VIOLATIONS = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const isUniqueViolation = (error: unknown): boolean => UNIQUE_VIOLATIONS.has(storeErrorCode(error) ?? '');

/**
 * Creates an open booking (demo, simulator, tests; a booking API later). The device must be in service (else
 * 40400). A generated order number that another booking took meanwhile is retried; a given one that
 * exists fails with the store's unique error.
 */
export const createBooking = async (ctx: Pick<AppContext, 'db' | 'now'>, input: NewBooking): Promise<OrderState> => {
  const device = await ctx.db.selectFrom('devices').select('id').where('id', '=', input.deviceId).where('removed_at', 'is', null).executeTakeFirst();
  if (device === undefined) throw notFound();
  const time = ctx.now();
  for (let attempt = 1; ; attempt += 1) {
    const orderNum = input.orderNum ?? (await nextOrderNum(ctx.db, time));
    try {
      await ctx.db
        .insertInto('orders')
        .values({
          order_num: orderNum,
          device_id: input.deviceId,
          time,
          set_t: input.setT,
          oc: input.oc,
          open_id: input.openId ?? null,
          is_used: 0,
          is_pass: 0,
          finished_at: null,
        })
        .execute();
      const created = await orderByNum(ctx.db, orderNum);
      if (created === undefined) throw new Error(`booking ${orderNum} vanished after it was created`);
      return created;
    } catch (error) {
      if (input.orderNum !== undefined || attempt >= 5 || !isUniqueViolation(error)) throw error;
    }
  }
};
