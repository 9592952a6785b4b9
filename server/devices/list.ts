import { sql, type Kysely, type SqlBool } from 'kysely';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import { devicesConfig } from '../../src/resources/devices/config';
import type { AppContext } from '../context';
import { compiledOnce, parameter } from '../db/database';
import type { DB } from '../db/schema';
import { asRecords, renderList, type RenderedList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import { deviceScope, seesEverything, type Viewer } from '../scope/service';

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
  SessionOC: column('d.session_oc', 'text', true),
  InSession: column('d.in_session', 'flag'),
  Reading: column('d.latest', 'json', true),
});

/** Devices in service: one removed while it had history keeps its row for that history, and leaves the lists. */
const inService = (db: Kysely<DB>) => db.selectFrom('devices as d').where('d.removed_at', 'is', null);

/** The rows the viewer sees, before filters (compiled once per level: ../lists/compiled.ts, viewerSource). */
const visible = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = inService(db);
  return scope === undefined ? base : base.where('d.id', 'in', scope);
};

/**
 * The same rows, for SQLite to read in the order of the sort's index: `+d.id` is not a column SQLite
 * can look up, so the planner walks the index of the sort (the primary key, devices_name_id,
 * devices_updated_at_id) and tests each device against the viewer's assignments, stopping once the
 * page is full, instead of looking up every assigned device and sorting them all.
 */
const visibleInSortOrder = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = inService(db);
  return scope === undefined ? base : base.where(sql<SqlBool>`+${sql.ref('d.id')} in (${scope})`);
};

/** Sort fields an index holds in the list's order (the tie-breaker `id` included): the primary key, migration 0008. */
const INDEXED_SORTS: ReadonlySet<string> = new Set(['Id', 'name', 'UpdateTime']);

/**
 * Walking the sort's index reads about `(offset + pageSize) × fleet / assigned` index entries (the
 * viewer's devices spread through the order); looking the assigned devices up reads and sorts all of
 * them, each several times dearer than a step of the walk (docs/performance.md: 300 of 1,000 devices, a page
 * 240–290 µs looked up, 95–100 µs walked). Walk while it reads at most this many entries per assigned
 * device, so a viewer whose few devices sit among a large fleet is still looked up.
 */
const WALK_ENTRIES_PER_ASSIGNED = 4;

const assignedCount = compiledOnce((db) =>
  db.selectFrom('account_devices').select(sql<number>`count(*)`.as('n')).where('account_devices.account_id', '=', parameter<number>(0)),
);

/** At least the number of devices (SQLite's largest rowid, a B-tree's last entry): walking is judged by it, never answered with it. */
const fleetBound = compiledOnce((db) => db.selectFrom('devices').select(sql<number>`max(rowid)`.as('n')));

/** The `n` of a one-row count answer (PostgreSQL's bigint counts arrive as numbers: server/db/database.ts). */
const countOf = (rows: readonly { n: number | null }[]): number => rows[0]?.n ?? 0;

/** True when the body filters nothing: its list is the viewer's whole scope. */
const unfiltered = (body: ListBody): boolean => Object.values(body.filter ?? {}).every((value) => value === undefined);

/** How listDevices answers a body: from which rows, and with the total already known (undefined: counted). */
export interface DeviceListPlan {
  walk: boolean;
  total: number | undefined;
}

/**
 * An unfiltered list of an account with assignments is the most frequent call (the console's device
 * list): its total is the number of assigned devices (every assignment names one existing device, by
 * its foreign key), so it is not counted; on SQLite its page walks the sort's index when that reads
 * fewer rows (above). Every other list is the plain scoped query, counted.
 */
export const planDeviceList = async (ctx: Pick<AppContext, 'db' | 'kind'>, viewer: Viewer, body: ListBody): Promise<DeviceListPlan> => {
  if (seesEverything(viewer) || !unfiltered(body)) return { walk: false, total: undefined };
  const assigned = countOf((await assignedCount(ctx.db, [viewer.id])).rows);
  const field = body.sort?.field ?? devicesConfig.defaultSort.field;
  const walk =
    ctx.kind === 'sqlite' &&
    INDEXED_SORTS.has(field) &&
    body.current * body.pageSize * countOf((await fleetBound(ctx.db, [])).rows) <= WALK_ENTRIES_PER_ASSIGNED * assigned * assigned;
  return { walk, total: assigned };
};

/** `list/get_OCProperty`: the devices the viewer sees (the super administrator: all; others: assigned). */
export const listDevices = async (ctx: Pick<AppContext, 'db' | 'kind'>, viewer: Viewer, body: ListBody): Promise<RenderedList> => {
  const { walk, total } = await planDeviceList(ctx, viewer, body);
  return renderList(viewerSource(ctx.db, viewer, walk ? visibleInSortOrder : visible), deviceListing(), body, total);
};

export const devicesResource: ServedResource = { config: devicesConfig, listing: deviceListing, list: listDevices };

/** A device as the viewer lists it, or none (the answer of every device write, inside its transaction: never a walk). */
export const listDeviceById = async (db: Kysely<DB>, viewer: Viewer, id: string): Promise<ListAnswer> =>
  asRecords(await renderList(viewerSource(db, viewer, visible), deviceListing(), { current: 1, pageSize: 1, filter: { Id: [id] } }));
