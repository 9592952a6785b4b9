import type { Kysely } from 'kysely';
import type { Level } from '../../src/domain/roles';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';

/**
 * Scope (docs/scope.md, the model of src/domain/scope/ in SQL): which devices and accounts an account may see. Every
 * list builds its query on these, so the rules are written once and tested without HTTP.
 * - The super administrator (Level 0) sees every device and every account.
 * - Any other account sees the devices assigned to it (account_devices), and the accounts of its own
 *   subtree: itself and every account below it, following sub_id down.
 * - Orders and state records are visible exactly when their device is.
 */

/** Who is looking: the signed-in account (SignedInAccount satisfies it). */
export interface Viewer {
  id: number;
  level: Level;
}

/** True when the viewer sees every device and every account. */
export const seesEverything = (viewer: Viewer): boolean => viewer.level === 0;

/** The ids of the devices assigned to an account, as a subquery (`device_id in (…)`). */
const assignedDevicesQuery = (db: Kysely<DB>, accountId: number) =>
  db.selectFrom('account_devices').select('account_devices.device_id').where('account_devices.account_id', '=', accountId);

/**
 * The viewer's device ids as a subquery, or undefined when it sees every device (no restriction).
 * Use: `scope === undefined ? query : query.where('x.device_id', 'in', scope)`.
 */
export const deviceScope = (db: Kysely<DB>, viewer: Viewer) =>
  seesEverything(viewer) ? undefined : assignedDevicesQuery(db, viewer.id);

/** The ids of an account and every account below it, as a subquery (a recursive CTE over sub_id). */
export const subtreeQuery = (db: Kysely<DB>, rootId: number) =>
  db
    .withRecursive('subtree(id)', (qb) =>
      qb
        .selectFrom('accounts')
        .select('accounts.id')
        .where('accounts.id', '=', rootId)
        // union, not union all: even a corrupted tree with a cycle ends.
        .union(qb.selectFrom('accounts as below').innerJoin('subtree', 'subtree.id', 'below.sub_id').select('below.id')),
    )
    .selectFrom('subtree')
    .select('subtree.id');

/** The viewer's account ids as a subquery, or undefined when it sees every account. */
export const accountScope = (db: Kysely<DB>, viewer: Viewer) => (seesEverything(viewer) ? undefined : subtreeQuery(db, viewer.id));

/**
 * The accounts that see a device: every super administrator (seesEverything) and the accounts it is
 * assigned to. Two index lookups (accounts by level, account_devices by device), whatever the number of
 * accounts: who is told about a device's alarm.
 */
export const deviceViewers = async (db: Kysely<DB>, deviceId: string): Promise<number[]> => {
  const rows = await db
    .selectFrom('accounts')
    .select('accounts.id as id')
    .where('accounts.level', '=', 0)
    .union(db.selectFrom('account_devices').select('account_devices.account_id as id').where('account_devices.device_id', '=', deviceId))
    .execute();
  return rows.map((row) => row.id);
};

/** The device ids the viewer sees, sorted. */
export const visibleDeviceIds = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer): Promise<string[]> => {
  const scope = deviceScope(ctx.db, viewer);
  const query = ctx.db.selectFrom('devices').select('devices.id').where('devices.removed_at', 'is', null).orderBy('devices.id');
  return (await (scope === undefined ? query : query.where('devices.id', 'in', scope)).execute()).map((row) => row.id);
};
