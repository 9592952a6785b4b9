import type { Kysely } from 'kysely';
import { recordAudit, SYSTEM_ACTOR } from '../audit/trail';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { transact } from '../db/transact';
import { expiryMs, isOpenBooking, takeOpenBooking } from './booking';

export interface ExpiryResult {
  count: number;
  /** The order numbers expired, oldest booking time first. */
  orderNums: string[];
}

/** Bookings expired per transaction: a long outage's backlog is worked off in bounded steps. */
export const EXPIRY_BATCH = 500;

/**
 * Expires every booking never used whose window closed before `now` (SetT + ORDER_EXPIRY_MINUTES <
 * now): IsPass = 1, with an `order.expired` audit entry each, in batches of EXPIRY_BATCH per
 * transaction. The update is conditional, so a concurrent start or a second sweeper (another server on
 * the same PostgreSQL) never expires a booking that was used, nor one twice. Bookings without SetT never
 * expire on their own.
 */
export const expireOverdue = async (ctx: Pick<AppContext, 'db' | 'config'>, now: number): Promise<ExpiryResult> => {
  const cutoff = now - expiryMs(ctx);
  const overdue = (db: Kysely<DB>) => db.selectFrom('orders').where(isOpenBooking).where('set_t', 'is not', null).where('set_t', '<', cutoff);
  const orderNums: string[] = [];
  for (;;) {
    // Looked for before the transaction, which takes SQLite's write lock at once (server/db/database.ts):
    // a sweep that finds nothing must not wait for the ingestion's writer.
    if ((await overdue(ctx.db).select('id').limit(1).executeTakeFirst()) === undefined) break;
    const batch = await transact(ctx.db, async (trx) => {
      const due = await overdue(trx)
        .select(['id', 'order_num', 'device_id', 'set_t'])
        .orderBy('set_t')
        .orderBy('id')
        .limit(EXPIRY_BATCH)
        .execute();
      // Every booking is taken before any entry is appended: the audit chain's lock (PostgreSQL) is taken
      // last, so this sweep never holds it while waiting for a booking a session start holds and audits.
      const taken: typeof due = [];
      for (const row of due) if (await takeOpenBooking(trx, row.id, { to: 'expired' })) taken.push(row);
      const expired: string[] = [];
      for (const row of taken) {
        await recordAudit(
          trx,
          SYSTEM_ACTOR,
          {
            action: 'order.expired',
            targetType: 'order',
            targetId: row.order_num,
            deviceId: row.device_id,
            before: { IsPass: false, SetT: row.set_t },
            after: { IsPass: true, SetT: row.set_t, expiryMinutes: ctx.config.orderExpiryMinutes },
          },
          now,
        );
        expired.push(row.order_num);
      }
      return { seen: due.length, expired };
    });
    orderNums.push(...batch.expired);
    if (batch.seen < EXPIRY_BATCH) break;
  }
  return { count: orderNums.length, orderNums };
};
