import type { ListAnswer, ListBody } from '../../src/resources/query';
import { ordersConfig } from '../../src/resources/orders/config';
import type { AppContext } from '../context';
import { column, defineListing, runList } from '../lists/engine';
import { deviceScope, type Viewer } from '../scope/service';

/** Orders under their wire names (src/resources/orders/config.ts) ↔ the orders table. */
export const orderListing = defineListing(ordersConfig, {
  id: column('o.id', 'number'),
  OrderNum: column('o.order_num', 'text'),
  Id: column('o.device_id', 'text'),
  Time: column('o.time', 'number'),
  SetT: column('o.set_t', 'number', true),
  OC: column('o.oc', 'text', true),
  OpenId: column('o.open_id', 'text', true),
  IsUsed: column('o.is_used', 'flag'),
  IsPass: column('o.is_pass', 'flag'),
  FinishTime: column('o.finished_at', 'number', true),
});

/** `list/get_Records`: the orders of the devices the viewer sees. */
export const listOrders = (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<ListAnswer> => {
  const scope = deviceScope(ctx.db, viewer);
  const base = ctx.db.selectFrom('orders as o');
  return runList(scope === undefined ? base : base.where('o.device_id', 'in', scope), orderListing(), body);
};
