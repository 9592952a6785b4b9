import type { Kysely } from 'kysely';
import type { WireRecord } from '../../src/resources/model';
import type { AccountRow, DB } from '../db/schema';
import { subtreeQuery, type Viewer } from '../scope/service';
import { listAccounts } from './list';
import { accountNotFound } from './service';

/** What an administrator reaches: the devices it manages and the accounts below it (docs/server-accounts.md). */

/** Which of `ids` the caller manages: every existing device for a super administrator, else its assignments. */
export const managedAmong = async (db: Kysely<DB>, caller: Viewer, ids: readonly string[]): Promise<Set<string>> => {
  if (ids.length === 0) return new Set();
  const rows =
    caller.level === 0
      ? await db.selectFrom('devices').select('devices.id as device_id').where('devices.id', 'in', ids).where('devices.removed_at', 'is', null).execute()
      : await db
          .selectFrom('account_devices')
          .select('account_devices.device_id')
          .where('account_devices.account_id', '=', caller.id)
          .where('account_devices.device_id', 'in', ids)
          .execute();
  return new Set(rows.map((row) => row.device_id));
};

/**
 * An account strictly below the caller in its subtree (a super administrator: any account but itself),
 * or undefined: for the caller itself, an account elsewhere and an account that does not exist alike.
 */
export const findSubordinate = (db: Kysely<DB>, caller: Viewer, account: string): Promise<AccountRow | undefined> => {
  const query = db
    .selectFrom('accounts')
    .selectAll()
    .where('accounts.account', '=', account)
    .where('accounts.id', '<>', caller.id);
  return (caller.level === 0 ? query : query.where('accounts.id', 'in', subtreeQuery(db, caller.id))).executeTakeFirst();
};

/** Every super administrator but `except` (an account's id): each may decide what any other account asks. */
export const superAdministratorsBut = async (db: Kysely<DB>, except: number): Promise<number[]> =>
  (await db.selectFrom('accounts').select('id').where('level', '=', 0).where('id', '!=', except).execute()).map((row) => row.id);

/**
 * The accounts above an account (its id), nearest first, following the upper-administrator links. Each is
 * visited once, so even a corrupted tree with a cycle ends.
 */
export const accountsAbove = async (db: Kysely<DB>, id: number): Promise<{ id: number; level: number }[]> => {
  const above: { id: number; level: number }[] = [];
  const seen = new Set<number>([id]);
  let upper = (await db.selectFrom('accounts').select('sub_id').where('id', '=', id).executeTakeFirst())?.sub_id ?? null;
  while (upper !== null && !seen.has(upper)) {
    seen.add(upper);
    const row = await db.selectFrom('accounts').select(['id', 'level', 'sub_id']).where('id', '=', upper).executeTakeFirst();
    if (row === undefined) break;
    above.push({ id: row.id, level: row.level });
    upper = row.sub_id;
  }
  return above;
};

/** The devices assigned to an account, sorted. */
export const assignedDevices = async (db: Kysely<DB>, accountId: number): Promise<string[]> =>
  (
    await db
      .selectFrom('account_devices')
      .select('device_id')
      .where('account_id', '=', accountId)
      .orderBy('device_id')
      .execute()
  ).map((row) => row.device_id);

/** An account as `get_Admins` lists it to the caller. */
export const listedAccount = async (db: Kysely<DB>, caller: Viewer, account: string): Promise<WireRecord> => {
  const { list } = await listAccounts({ db }, caller, { current: 1, pageSize: 1, filter: { Account: [account] } });
  const [record] = list;
  if (record === undefined) throw accountNotFound();
  return record;
};
