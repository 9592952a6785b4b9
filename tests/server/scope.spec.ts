import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../server/accounts/service';
import type { AppContext } from '../../server/context';
import { listAccounts } from '../../server/accounts/list';
import { listDevices } from '../../server/devices/list';
import { asRecords } from '../../server/lists/answer';
import { listOrders } from '../../server/orders/list';
import { accountScope, seesEverything, visibleDeviceIds, type Viewer } from '../../server/scope/service';
import { listStateRecords } from '../../server/telemetry/list';
import { asLevel } from '../../server/accounts/levels';
import { ALL_DEVICES, FLEET_ASSIGNMENTS, FLEET_ORDERS, READINGS_PER_DEVICE, seedFleet } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/** The scope rules as a service, without HTTP (docs/product.md, "Account hierarchy"). */
describe.each(STORE_KINDS)('scope (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;
  const ids: Record<string, number> = {};

  const viewer = async (account: string): Promise<Viewer> => {
    const row = await ctx.db.selectFrom('accounts').select(['id', 'level']).where('account', '=', account).executeTakeFirstOrThrow();
    return { id: row.id, level: asLevel(row.level) };
  };

  beforeAll(async () => {
    ctx = store.context();
    await seedFleet(ctx);
    // A second branch under the super administrator, and a second client under second.
    const admin = await viewer('admin');
    const other = await createAccount(ctx, { account: 'other', password: 'Other2026x', level: 1, subId: admin.id });
    await createAccount(ctx, { account: 'other-client', password: 'Other2026x', level: 3, subId: other.id });
    const second = await viewer('second');
    await createAccount(ctx, { account: 'client2', password: 'Client2026x', level: 3, subId: second.id });
    await ctx.db.insertInto('account_devices').values({ account_id: other.id, device_id: 'OC-C1', created_at: 0 }).execute();
    for (const row of await ctx.db.selectFrom('accounts').select(['id', 'account']).execute()) ids[row.account] = row.id;
  });

  it('the super administrator sees every device; any other account the devices assigned to it', async () => {
    expect(seesEverything(await viewer('admin'))).toBe(true);
    expect(await visibleDeviceIds(ctx, await viewer('admin'))).toEqual(ALL_DEVICES);
    for (const [account, devices] of Object.entries(FLEET_ASSIGNMENTS)) {
      expect(seesEverything(await viewer(account))).toBe(false);
      expect(await visibleDeviceIds(ctx, await viewer(account)), account).toEqual([...devices].sort());
    }
    expect(await visibleDeviceIds(ctx, await viewer('other'))).toEqual(['OC-C1']);
    expect(await visibleDeviceIds(ctx, await viewer('client2'))).toEqual([]);
  });

  it('an account sees itself and every account below it, recursively; the super administrator all', async () => {
    // What every account list narrows to: the accounts in the viewer's subtree (accountScope).
    const visibleAccountIds = async (seen: Viewer): Promise<number[]> => {
      const scope = accountScope(ctx.db, seen);
      const query = ctx.db.selectFrom('accounts').select('accounts.id');
      return (await (scope === undefined ? query : query.where('accounts.id', 'in', scope)).execute()).map((row) => row.id);
    };
    const names = async (account: string) => {
      const visible = await visibleAccountIds(await viewer(account));
      return Object.entries(ids)
        .filter(([, id]) => visible.includes(id))
        .map(([name]) => name)
        .sort();
    };
    expect(await names('admin')).toEqual(Object.keys(ids).sort());
    expect(await names('first')).toEqual(['client', 'client2', 'first', 'second']);
    expect(await names('second')).toEqual(['client', 'client2', 'second']);
    expect(await names('client')).toEqual(['client']);
    expect(await names('other')).toEqual(['other', 'other-client']);
  });

  it('every list service keeps to the scope', async () => {
    const body = { current: 1, pageSize: 100 };
    const other = await viewer('other');
    expect(asRecords(await listDevices(ctx, other, body)).list.map((device) => device.Id)).toEqual(['OC-C1']);
    const readings = asRecords(await listStateRecords(ctx, other, body));
    expect(readings.total).toBe(READINGS_PER_DEVICE);
    expect(readings.list.every((record) => record.Id === 'OC-C1')).toBe(true);
    const orders = asRecords(await listOrders(ctx, other, body));
    expect(orders.total).toBe(FLEET_ORDERS.filter((order) => order.device_id === 'OC-C1').length);
    const accounts = await listAccounts(ctx, other, { ...body, sort: { field: 'Account', order: 'ASC' } });
    expect(accounts.list).toEqual([
      { Account: 'other', Level: 1, SubAdmin: 'admin', SubId: ids.admin, DeviceIds: ['OC-C1'], Disabled: false },
      { Account: 'other-client', Level: 3, SubAdmin: 'other', SubId: ids.other, DeviceIds: [], Disabled: false },
    ]);
    const none = await viewer('client2');
    expect(asRecords(await listDevices(ctx, none, body))).toEqual({ list: [], total: 0 });
    expect(asRecords(await listStateRecords(ctx, none, body))).toEqual({ list: [], total: 0 });
    expect(asRecords(await listOrders(ctx, none, body))).toEqual({ list: [], total: 0 });
  });

  it("shows an account's devices only as far as the viewer sees them", async () => {
    // An assignment beyond the upper administrator's own devices (the account calls refuse making one)
    // still does not show the viewer a device it does not manage.
    const client = await viewer('client');
    await ctx.db.insertInto('account_devices').values({ account_id: client.id, device_id: 'OC-C2', created_at: 0 }).execute();
    try {
      const seen = await listAccounts(ctx, await viewer('second'), { current: 1, pageSize: 10, filter: { Account: ['client'] } });
      expect(seen.list[0]?.DeviceIds).toEqual(['OC-A1']);
      const all = await listAccounts(ctx, await viewer('admin'), { current: 1, pageSize: 10, filter: { Account: ['client'] } });
      expect(all.list[0]?.DeviceIds).toEqual(['OC-A1', 'OC-C2']);
    } finally {
      await ctx.db.deleteFrom('account_devices').where('account_id', '=', client.id).where('device_id', '=', 'OC-C2').execute();
    }
  });
});
