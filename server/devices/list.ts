import type { Kysely } from 'kysely';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import { devicesConfig } from '../../src/resources/devices/config';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { column, defineListing, runCachedList, viewerSource } from '../lists/engine';
import { deviceScope, type Viewer } from '../scope/service';

/** Devices under their wire names (src/resources/devices/config.ts) ↔ the devices table. */
export const deviceListing = defineListing(devicesConfig, {
  Id: column('d.id', 'text'),
  name: column('d.name', 'text'),
  Type: column('d.type', 'number'),
  Location: column('d.location', 'text'),
  State: column('d.state', 'text'),
  Permission: column('d.permission', 'text'),
  OrderNum: column('d.order_num', 'text', true),
  Emergency: column('d.erd', 'flag'),
  Online: column('d.online', 'flag'),
  LastSeen: column('d.last_seen_at', 'number', true),
  UpdateTime: column('d.updated_at', 'number'),
});

/** The rows the viewer sees, before filters (compiled once per level: ../lists/engine.ts, viewerSource). */
const visible = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = db.selectFrom('devices as d');
  return scope === undefined ? base : base.where('d.id', 'in', scope);
};

/** `list/get_OCProperty`: the devices the viewer sees (the super administrator: all; others: assigned). */
export const listDevices = (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<ListAnswer> =>
  runCachedList(viewerSource(ctx.db, viewer, visible), deviceListing(), body);
