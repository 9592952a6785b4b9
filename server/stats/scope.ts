import { sql, type Kysely } from 'kysely';
import type { PivotChamber } from '../../src/domain/stats';
import type { DB } from '../db/schema';
import { deviceScope, type Viewer } from '../scope/service';

/**
 * What every analysis query reads through: the viewer's chambers, orders, commands and alarms (the scope
 * model of docs/scope.md, as every list reads them), and the session spans of a range in SQL.
 */

export const scopedOrders = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = db.selectFrom('orders as o');
  return scope === undefined ? base : base.where('o.device_id', 'in', scope);
};

export const scopedCommands = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = db.selectFrom('device_commands as c');
  return scope === undefined ? base : base.where('c.device_id', 'in', scope);
};

export const scopedRollups = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = db.selectFrom('reading_rollups as r');
  return scope === undefined ? base : base.where('r.device_id', 'in', scope);
};

/** The viewer's chambers in service (a removed one is no longer of the fleet), with their type's name, by Id. */
export const scopedChambers = async (db: Kysely<DB>, viewer: Viewer): Promise<PivotChamber[]> => {
  const query = db
    .selectFrom('devices as d')
    .leftJoin('device_types as t', 't.id', 'd.type')
    .where('d.removed_at', 'is', null)
    .select(['d.id as id', 'd.name as name', 'd.location as site', 'd.type as type', 't.name as typeName'])
    .orderBy('d.id');
  const scope = deviceScope(db, viewer);
  const rows = await (scope === undefined ? query : query.where('d.id', 'in', scope)).execute();
  return rows.map((row) => ({ ...row, type: Number(row.type), typeName: row.typeName ?? String(row.type) }));
};

/** The local day number of a time column for a browser at offset `tz` (src/domain/stats.ts localDayNumber); integer division on both stores. */
export const dayOf = (column: string, tz: number) => sql<number>`(${sql.ref(column)} - ${sql.lit(tz * 60_000)}) / ${sql.lit(86_400_000)}`;

/**
 * A session's time within [from, to), ms: from its start (o.used_at) to its end (o.finished_at, or `now`
 * while its chamber still runs it), clipped to the range. CASE rather than least/greatest, which only
 * PostgreSQL has.
 */
export const sessionMsWithin = (from: number, to: number) => {
  const end = sql`coalesce(o.finished_at, ${sql.lit(to)})`;
  return sql<number>`(case when ${end} > ${sql.lit(to)} then ${sql.lit(to)} else ${end} end) - (case when o.used_at < ${sql.lit(from)} then ${sql.lit(from)} else o.used_at end)`;
};

/**
 * The viewer's sessions that overlap [from, to): started at most a day before it (as the workplace counts
 * them), and either finished after `from` or still run by their chamber (a lost session end is not busy
 * time for ever). `to` is at most now, so a running session counts up to it. The chamber is looked up only
 * for a session without an end (an order's chamber always exists: a foreign key), not for each of a
 * year's million finished ones; the columns read are all in the index orders_used_at_sessions. `started`
 * narrows the starts read (server/stats/sessionTime.ts reads a range's ends so).
 */
export const overlappingSessions = (db: Kysely<DB>, viewer: Viewer, from: number, to: number, started: readonly [number, number] = [from - 86_400_000, to]) =>
  scopedOrders(db, viewer)
    .where('o.used_at', '>=', started[0])
    .where('o.used_at', '<', started[1])
    .where((eb) =>
      eb.or([
        eb('o.finished_at', '>', from),
        eb.and([
          eb('o.finished_at', 'is', null),
          eb.exists(eb.selectFrom('devices as d').select('d.id').whereRef('d.id', '=', 'o.device_id').whereRef('d.order_num', '=', 'o.order_num')),
        ]),
      ]),
    );
