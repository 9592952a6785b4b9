import { sql, type Transaction } from 'kysely';
import { recordAudit, SYSTEM_ACTOR } from '../audit/trail';
import type { DB } from '../db/schema';
import type { OrderState } from './booking';

/**
 * What both session events (session-start.ts, session-end.ts) do to the device: read it under its row
 * lock, set its State while a session runs, and finish the order it ran.
 */

/**
 * Reads a device for a session event, holding its row lock until the transaction ends (a no-op update:
 * PostgreSQL locks the row, SQLite runs write transactions one at a time), so the events of one device
 * are handled one after another and what is read here stays true until the commit.
 */
export const lockDevice = (trx: Transaction<DB>, deviceId: string) =>
  trx
    .updateTable('devices')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', deviceId)
    .returning(['state', 'order_num'])
    .executeTakeFirst();

/** The device fields a session changes, under their wire names. */
export interface DeviceView {
  State: string;
  OrderNum: string | null;
}

/** Work for a session, except that a device in repair stays in repair until an operator says otherwise. */
export const stateWhile = (state: string, running: boolean): string => (state === 'Repair' ? 'Repair' : running ? 'Work' : 'Stop');
export const stateSql = (running: boolean) =>
  sql<string>`case when ${sql.ref('state')} = 'Repair' then 'Repair' else ${running ? 'Work' : 'Stop'} end`;

/** Finishes the order a device is running (its FinishTime = at) with its audit entry; false when it already was. */
export const finishOrder = async (
  trx: Transaction<DB>,
  order: OrderState,
  at: number,
  device: { before: DeviceView; after: DeviceView },
  reason: 'sessionEnd' | 'superseded',
): Promise<boolean> => {
  const result = await trx
    .updateTable('orders')
    .set({ finished_at: at })
    .where('id', '=', order.id)
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await recordAudit(
    trx,
    SYSTEM_ACTOR,
    {
      action: 'order.finished',
      targetType: 'order',
      targetId: order.orderNum,
      deviceId: order.deviceId,
      before: { FinishTime: null, device: device.before },
      after: { FinishTime: at, device: device.after, reason },
    },
    at,
  );
  return true;
};
