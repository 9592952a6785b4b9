import type { AppContext } from '../context';
import { transact } from '../db/transact';
import { orderByNum, type OrderState } from './booking';
import { finishOrder, lockDevice, stateSql, stateWhile, type DeviceView } from './session-device';

export interface SessionEnd {
  deviceId: string;
  /** When the session ended, epoch ms. */
  at: number;
}

export type EndResult =
  /** The running order is finished (FinishTime = at); the device runs none and is idle (Stop, or still Repair). */
  | { outcome: 'finished'; order: OrderState }
  /** The device runs no order (a repeated end, or a session started with an unknown code); nothing changed. */
  | { outcome: 'notRunning' }
  | { outcome: 'unknownDevice' };

/**
 * The chamber ended its session: its running order is finished, the device's OrderNum cleared and its
 * State back to Stop (Repair stays), with an `order.finished` audit entry, in one transaction. The
 * device row is cleared conditionally (only while it still names that order), so a repeated or
 * concurrent end finishes nothing twice.
 */
export const endSession = (ctx: Pick<AppContext, 'db'>, input: SessionEnd): Promise<EndResult> =>
  transact(ctx.db, async (trx): Promise<EndResult> => {
    const { deviceId, at } = input;
    const device = await lockDevice(trx, deviceId);
    if (device === undefined) return { outcome: 'unknownDevice' };
    if (device.order_num === null) return { outcome: 'notRunning' };
    const orderNum = device.order_num;

    const cleared = await trx
      .updateTable('devices')
      .set({ order_num: null, state: stateSql(false), updated_at: at })
      .where('id', '=', deviceId)
      .where('order_num', '=', orderNum)
      .executeTakeFirst();
    if (Number(cleared.numUpdatedRows) === 0) return { outcome: 'notRunning' };

    const order = await orderByNum(trx, orderNum);
    // The device named an order that does not exist (hand-edited data): the device is cleared all the same.
    if (order === undefined) return { outcome: 'notRunning' };
    const before: DeviceView = { State: device.state, OrderNum: orderNum };
    const after: DeviceView = { State: stateWhile(device.state, false), OrderNum: null };
    const finished = await finishOrder(trx, order, at, { before, after }, 'sessionEnd');
    return { outcome: 'finished', order: finished ? { ...order, finishedAt: at } : order };
  });
