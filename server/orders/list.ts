import type { Kysely } from 'kysely';
import type { ListBody } from '../../src/resources/query';
import { ordersConfig } from '../../src/resources/orders/config';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { renderList, type RenderedList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
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
  UseTime: column('o.used_at', 'number', true),
  FinishTime: column('o.finished_at', 'number', true),
  CancelTime: column('o.cancelled_at', 'number', true),
});

/** The rows the viewer sees, before filters (compiled once per level: ../lists/compiled.ts, viewerSource). */
const visible = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = db.selectFrom('orders as o');
  return scope === undefined ? base : base.where('o.device_id', 'in', scope);
};

/** `list/get_Records`: the orders of the devices the viewer sees. */
export const listOrders = (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<RenderedList> =>
  renderList(viewerSource(ctx.db, viewer, visible), orderListing(), body);

export const ordersResource: ServedResource = { config: ordersConfig, listing: orderListing, list: listOrders };
