import { accountsConfig } from '../../src/resources/accounts/config';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import type { AppContext } from '../context';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { asRecords, renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import { accountScope, deviceScope, type Viewer } from '../scope/service';

/**
 * Accounts as `get_Admins` answers them, `{ Account, SubId, Level, SubAdmin, DeviceIds, Disabled }`: SubAdmin
 * and SubId are the upper administrator's Account and id (null for a super administrator at the root);
 * DeviceIds are the devices the account manages (a super administrator: every device); Disabled is true
 * for an account that may not sign in (update_Admin).
 */
export const accountListing = defineListing(
  accountsConfig,
  {
    Account: column('a.account', 'text'),
    Level: column('a.level', 'number'),
    SubAdmin: column('upper.account', 'text', true),
    SubId: column('a.sub_id', 'number', true),
    Disabled: column('a.disabled', 'flag'),
  },
  { computed: ['DeviceIds'] },
);

/** Each listed account's DeviceIds, limited to the devices the viewer sees, sorted. */
const withDeviceIds = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, answer: ListAnswer): Promise<ListAnswer> => {
  const names = answer.list.map((record) => String(record.Account));
  if (names.length === 0) return answer;
  const scope = deviceScope(ctx.db, viewer);
  const assigned = ctx.db
    .selectFrom('account_devices as ad')
    .innerJoin('accounts as a', 'a.id', 'ad.account_id')
    .select(['a.account', 'ad.device_id'])
    .where('a.account', 'in', names)
    .orderBy('ad.device_id');
  const rows = await (scope === undefined ? assigned : assigned.where('ad.device_id', 'in', scope)).execute();
  const byAccount = new Map<string, string[]>();
  for (const row of rows) byAccount.set(row.account, [...(byAccount.get(row.account) ?? []), row.device_id]);
  // Only a super administrator sees a super administrator's row, and it sees every device.
  const everyDevice = answer.list.some((record) => record.Level === 0)
    ? (await ctx.db.selectFrom('devices').select('id').where('removed_at', 'is', null).orderBy('id').execute()).map((row) => row.id)
    : [];
  return {
    total: answer.total,
    list: answer.list.map((record) => ({
      ...record,
      DeviceIds: record.Level === 0 ? everyDevice : (byAccount.get(String(record.Account)) ?? []),
    })),
  };
};

/** The accounts the viewer sees, before filters (compiled once per level: ../lists/compiled.ts, viewerSource). */
const visible = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = accountScope(db, viewer);
  const base = db.selectFrom('accounts as a').leftJoin('accounts as upper', 'upper.id', 'a.sub_id');
  return scope === undefined ? base : base.where('a.id', 'in', scope);
};

/** `get_Admins`: the viewer's subtree (itself and every account below it); the super administrator: all. */
export const listAccounts = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<ListAnswer> =>
  withDeviceIds(ctx, viewer, asRecords(await renderList(viewerSource(ctx.db, viewer, visible), accountListing(), body)));

export const accountsResource: ServedResource = { config: accountsConfig, listing: accountListing, list: listAccounts };
