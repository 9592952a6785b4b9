import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import type { ListBody } from '../../src/resources/query';
import { asLevel } from '../accounts/levels';
import type { Viewer } from '../scope/service';
import { seedFleet, T0 } from '../../tests/server/fleet';
import { STORE_KINDS, useStore } from '../../tests/server/stores';
import { asRecords } from '../lists/answer';
import { listDevices } from './list';

/** What the oxygen monitor reads from the device list: the latest reading, the session, and its filters. */
describe.each(STORE_KINDS)('the device list for the oxygen monitor (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;
  let admin: Viewer;
  let client: Viewer;
  const latest = { Time: T0, SP: 1.3, RCP: 1.31, RCPi02: 23.6, RAP: 101.3, HmBP: '118/76', Id: 'OC-A1' };

  beforeAll(async () => {
    ctx = store.context();
    await seedFleet(ctx);
    const accounts = await ctx.db.selectFrom('accounts').select(['id', 'account', 'level']).execute();
    const viewer = (name: string): Viewer => {
      const row = accounts.find((account) => account.account === name);
      if (row === undefined) throw new Error(`no account ${name}`);
      return { id: row.id, level: asLevel(row.level) };
    };
    [admin, client] = [viewer('admin'), viewer('client')];
    await ctx.db.updateTable('devices').set({ latest: JSON.stringify(latest), session_oc: 'OC-SESSION-1' }).where('id', '=', 'OC-A1').execute();
  });

  const list = async (viewer: Viewer, filter: ListBody['filter'] = {}) =>
    asRecords(await listDevices(ctx, viewer, { current: 1, pageSize: 20, filter, sort: { field: 'Id', order: 'ASC' } })).list;

  it('lists each device with its latest reading as a value (RAP included) and its session', async () => {
    const [a1, a2] = await list(admin);
    expect(a1).toMatchObject({ Id: 'OC-A1', SessionOC: 'OC-SESSION-1', Reading: latest });
    expect(a2).toMatchObject({ Id: 'OC-A2', SessionOC: null, Reading: null });
  });

  it('filters by in session and by online', async () => {
    expect((await list(admin, { InSession: true })).map((record) => record.Id)).toEqual(['OC-A1']);
    expect((await list(admin, { InSession: false })).map((record) => record.Id)).toEqual(['OC-A2', 'OC-B1', 'OC-B2', 'OC-C1', 'OC-C2']);
    expect((await list(admin, { Online: false, InSession: false })).map((record) => record.Id)).toEqual(['OC-A2', 'OC-B2']);
  });

  it('follows the session as it ends', async () => {
    await ctx.db.updateTable('devices').set({ session_oc: null }).where('id', '=', 'OC-A1').execute();
    expect(await list(admin, { InSession: true })).toEqual([]);
    await ctx.db.updateTable('devices').set({ session_oc: 'OC-SESSION-1' }).where('id', '=', 'OC-A1').execute();
  });

  it('shows a client only its own chambers', async () => {
    expect((await list(client)).map((record) => record.Id)).toEqual(['OC-A1']);
  });
});
