import { beforeAll, describe, expect, it } from 'vitest';
import type { ListBody } from '../../src/resources/query';
import type { AppContext } from '../context';
import { asLevel } from '../accounts/levels';
import type { Viewer } from '../scope/service';
import { FLEET_ASSIGNMENTS, FLEET_DEVICES, seedFleet } from '../../tests/server/fleet';
import { STORE_KINDS, useStore } from '../../tests/server/stores';
import { asRecords } from '../lists/answer';
import { listDevices, planDeviceList } from './list';

/**
 * How the device list answers its most frequent call, an account's unfiltered list: the total from the
 * assignments, not counted, and on SQLite the page read by walking the sort's index when that reads
 * fewer rows. ../lists/answer.spec.ts compares every answer with one compiled for its body; this checks the choice.
 */

describe.each(STORE_KINDS)('the device list plan (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;
  const viewers = new Map<string, Viewer>();

  beforeAll(async () => {
    ctx = store.context();
    await seedFleet(ctx);
    for (const row of await ctx.db.selectFrom('accounts').select(['id', 'account', 'level']).execute()) {
      viewers.set(row.account, { id: row.id, level: asLevel(row.level) });
    }
  });

  const viewer = (name: string): Viewer => {
    const found = viewers.get(name);
    if (found === undefined) throw new Error(`no account ${name}`);
    return found;
  };
  const body = (extra: Partial<ListBody> = {}): ListBody => ({ current: 1, pageSize: 4, ...extra });
  const onSqlite = kind === 'sqlite';

  it("an account's unfiltered list: the total is its assignments, and SQLite walks an indexed sort", async () => {
    for (const field of ['Id', 'name', 'UpdateTime']) {
      expect(await planDeviceList(ctx, viewer('first'), body({ sort: { field, order: 'DESC' } })), field).toEqual({
        walk: onSqlite,
        total: FLEET_ASSIGNMENTS.first?.length,
      });
    }
    // Without a sort, the configuration's default (Id).
    expect((await planDeviceList(ctx, viewer('first'), body())).walk).toBe(onSqlite);
  });

  it('a sort no index holds is looked up and sorted, its total still known', async () => {
    expect(await planDeviceList(ctx, viewer('first'), body({ sort: { field: 'Location', order: 'ASC' } }))).toEqual({
      walk: false,
      total: FLEET_ASSIGNMENTS.first?.length,
    });
  });

  it('a viewer with few devices among the fleet, or a deep page, is looked up', async () => {
    // 1 of 6 devices: a page of 4 walks about 24 entries for 1 device.
    expect((await planDeviceList(ctx, viewer('client'), body())).walk).toBe(false);
    // 4 of 6: page 1 of 4 walks about 6 entries, page 3 about 18 (more than 4 a device).
    expect((await planDeviceList(ctx, viewer('first'), body({ current: 3 }))).walk).toBe(false);
  });

  it('a filtered list, and the super administrator, are counted', async () => {
    expect(await planDeviceList(ctx, viewer('first'), body({ filter: { Online: true } }))).toEqual({ walk: false, total: undefined });
    expect(await planDeviceList(ctx, viewer('admin'), body())).toEqual({ walk: false, total: undefined });
  });

  it('answers the same pages as the super administrator limited to the assignments', async () => {
    const assigned = new Set(FLEET_ASSIGNMENTS.first);
    for (const field of ['Id', 'name', 'UpdateTime', 'Location']) {
      for (const order of ['ASC', 'DESC'] as const) {
        const all = asRecords(await listDevices(ctx, viewer('admin'), { current: 1, pageSize: FLEET_DEVICES.length, sort: { field, order } }));
        const expected = all.list.filter((record) => assigned.has(String(record.Id)));
        for (const current of [1, 2]) {
          const page = asRecords(await listDevices(ctx, viewer('first'), { current, pageSize: 2, sort: { field, order } }));
          expect(page, `${field} ${order} page ${current}`).toEqual({ list: expected.slice((current - 1) * 2, current * 2), total: assigned.size });
        }
      }
    }
  });
});
