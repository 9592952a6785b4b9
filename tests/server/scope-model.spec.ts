import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import type { Level } from '../../src/domain/roles';
import { hierarchyOf, type Assignment, type Hierarchy, type ScopeAccount, type ScopeViewer } from '../../src/domain/scope/hierarchy';
import { assignmentsAfter, assignRefusal, createRefusal, resetRefusal, type ManageRefusal } from '../../src/domain/scope/mayManage';
import { deviceViewers, listedDevicesOf, seesAccount, seesAuditEntry, seesDevice, seesEverything, visibleDevices } from '../../src/domain/scope/visibility';
import { recordId, type WireRecord } from '../../src/resources/model';
import { addAdmin, adminResetCode, assignDevices, type Caller } from '../../server/accounts/calls';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../server/context';
import type { DB } from '../../server/db/schema';
import { AppError } from '../../server/http/envelope';
import { asRecords, type RenderedList } from '../../server/lists/answer';
import type { ListAnswer } from '../../src/resources/query';
import { liveScope } from '../../server/live/hub';
import { SERVED_RESOURCES } from '../../server/resources/registry';
import { deviceViewers as serverDeviceViewers } from '../../server/scope/service';
import { deviceRow, FLEET_READINGS, T0 } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * The scope model (src/domain/scope/) against the server's SQL, on both stores: for 1,000 random trees of
 * accounts (super administrators at the roots, ranks falling down each branch) with random device
 * assignments, orders, state records, audit entries, alarms and commands (some naming a removed device),
 * a few random account calls (add_Admin, Admin_reset_Code, assign_Devices) must be refused or allowed as
 * the model decides and leave the accounts and assignments the model predicts; then every account, as the
 * viewer, must be listed by every served resource exactly the records the model says it sees, the live
 * stream's devices and each device's viewers (who is told of its alarms) included.
 */

const RUNS = Number(process.env.SCOPE_RUNS ?? 1000);
const GONE = 'GONE';
const PASSWORD = 'Chamber2026ox';

interface RawAccount {
  root: boolean;
  parent: number;
  level: number;
}

const opArb = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), caller: fc.nat(), level: fc.integer({ min: 1, max: 3 }), devices: fc.array(fc.nat(), { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('reset' as const), caller: fc.nat(), target: fc.nat() }),
  fc.record({ kind: fc.constant('assign' as const), caller: fc.nat(), target: fc.nat(), devices: fc.array(fc.nat(), { maxLength: 4 }) }),
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

const treeArb = fc.record({
  accounts: fc.array(fc.record({ root: fc.integer({ min: 0, max: 9 }).map((n) => n === 0), parent: fc.nat(), level: fc.nat() }), { maxLength: 8 }),
  devices: fc.integer({ min: 0, max: 6 }),
  assignments: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 16 }),
  orders: fc.array(fc.nat(), { maxLength: 6 }),
  readings: fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 })), { maxLength: 6 }),
  audit: fc.array(fc.record({ actor: fc.option(fc.nat()), device: fc.option(fc.nat()) }), { maxLength: 6 }),
  alarms: fc.array(fc.nat(), { maxLength: 4 }),
  commands: fc.array(fc.record({ device: fc.nat(), issuer: fc.option(fc.nat()) }), { maxLength: 4 }),
  ops: fc.array(opArb, { maxLength: 3 }),
});
type Tree = typeof treeArb extends fc.Arbitrary<infer T> ? T : never;

const pick = <T>(items: readonly T[], index: number): T | undefined => (items.length === 0 ? undefined : items[index % items.length]);

/** The raw accounts as a valid tree: the first and every `root` one a super administrator, any other under an earlier administrator at a larger Level. */
const accountsOf = (raw: readonly RawAccount[], base: number): ScopeAccount<number>[] => {
  const accounts: ScopeAccount<number>[] = [{ id: base, parent: null, level: 0 }];
  for (const [index, { root, parent, level }] of raw.entries()) {
    const id = base + index + 1;
    const upper = pick(
      accounts.filter((account) => account.level < 3),
      parent,
    );
    if (root || upper === undefined) accounts.push({ id, parent: null, level: 0 });
    else accounts.push({ id, parent: upper.id, level: (upper.level + 1 + (level % (3 - upper.level))) as Level });
  }
  return accounts;
};

const refusalOf = (error: unknown): ManageRefusal => {
  if (!(error instanceof AppError)) throw error;
  if (error.code === CODES.notFound && error.key === 'account.notFound') return { reason: 'notFound' };
  if (error.key === 'account.levelNotAllowed') return { reason: 'level' };
  if (error.key === 'validation.invalid' && error.params.field === 'Account') return { reason: 'superAdministrator' };
  if (error.key === 'account.deviceNotManaged') return { reason: 'deviceNotManaged', device: String(error.params.device) };
  throw error;
};

/** A list's records, whether the store rendered them or the concern added to them. */
const recordsOf = (answer: ListAnswer | RenderedList): WireRecord[] => (typeof answer.list === 'string' ? asRecords(answer as RenderedList).list : answer.list);

const outcome = async (call: () => Promise<unknown>): Promise<ManageRefusal | undefined> => {
  try {
    await call();
    return undefined;
  } catch (error) {
    return refusalOf(error);
  }
};

describe.each(STORE_KINDS)('the scope model is the server (%s)', (kind) => {
  const store = useStore(kind);
  let ctx: AppContext;
  /** The device types and alarm rules the migrations seed, and the notification channels (none): every viewer reads all of them. */
  const everyone: Record<string, string[]> = {};
  let run = 0;

  beforeAll(async () => {
    // The lowest cost the configuration accepts: add_Admin and Admin_reset_Code hash a password each.
    ctx = store.context({ SCRYPT_COST: '10' }, () => T0);
    for (const resource of SERVED_RESOURCES.filter(({ config }) => ['device-types', 'alarm-rules', 'notification-channels'].includes(config.name))) {
      const list = recordsOf(await resource.list(ctx, { id: 0, level: 3 }, { current: 1, pageSize: 1000 }));
      everyone[resource.config.name] = list.map((record) => String(recordId(resource.config, record))).sort();
    }
  });

  const wipe = async (db: Kysely<DB>) => {
    await db.updateTable('accounts').set({ sub_id: null }).execute();
    for (const table of ['alarm_transitions', 'alarms', 'messages', 'device_commands', 'audit_log', 'sessions', 'state_records', 'orders', 'account_devices', 'devices', 'accounts'] as const) {
      await db.deleteFrom(table).execute();
    }
  };

  /** Inserts the tree; answers the model's hierarchy and the devices its records name. */
  const insert = async (db: Kysely<DB>, tree: Tree, base: number) => {
    const accounts = accountsOf(tree.accounts, base);
    const devices = Array.from({ length: tree.devices }, (_, index) => `D${index}`);
    const named = [...devices, GONE];
    const accountIds = accounts.map((account) => account.id);
    const assignments = [
      ...new Map(
        tree.assignments.flatMap(([account, device]) => {
          const id = pick(accountIds, account);
          const deviceId = pick(devices, device);
          return id === undefined || deviceId === undefined ? [] : [[`${id}:${deviceId}`, { account: id, device: deviceId }] as const];
        }),
      ).values(),
    ];
    await db
      .insertInto('accounts')
      .values(accounts.map((account) => ({ id: account.id, account: `a${account.id - base}`, password_hash: 'x', level: account.level, sub_id: account.parent, must_change_code: 0, disabled: 0, avatar: '', created_at: T0, updated_at: T0 })))
      .execute();
    if (devices.length > 0) await db.insertInto('devices').values(devices.map((id) => deviceRow(id, id, 1, 'Hall', 'Work'))).execute();
    if (assignments.length > 0) {
      await db.insertInto('account_devices').values(assignments.map(({ account, device }) => ({ account_id: account, device_id: device, created_at: T0 }))).execute();
    }
    const template = FLEET_READINGS[0];
    if (devices.length > 0 && template !== undefined) {
      if (tree.orders.length > 0) {
        await db
          .insertInto('orders')
          .values(tree.orders.map((device, index) => ({ order_num: `O${index}`, device_id: pick(devices, device) ?? '', time: T0, set_t: T0, oc: '1', open_id: 'o', is_used: 0, is_pass: 0, finished_at: null })))
          .execute();
      }
      if (tree.readings.length > 0) {
        await db
          .insertInto('state_records')
          // A reading is its device and Time: the same pair twice would be one reading.
          .values([...new Map(tree.readings.map(([device, time]) => [`${pick(devices, device) ?? ''}:${time}`, { ...template, device_id: pick(devices, device) ?? '', time: T0 + time }])).values()])
          .execute();
      }
    }
    if (tree.audit.length > 0) {
      await db
        .insertInto('audit_log')
        .values(
          tree.audit.map(({ actor, device }) => {
            const id = actor === null ? null : (pick(accountIds, actor) ?? null);
            return { at: T0, actor_id: id, actor_account: id === null ? 'system' : `a${id - base}`, action: 'device.update', target_type: 'device', target_id: 'x', device_id: device === null ? null : (pick(named, device) ?? null), address: '127.0.0.1', before: null, after: null };
          }),
        )
        .execute();
    }
    if (tree.alarms.length > 0) {
      await db
        .insertInto('alarms')
        // Closed: any number of them per device and kind.
        .values(tree.alarms.map((device) => ({ device_id: pick(named, device) ?? GONE, kind: 'o2-high', priority: 'high', state: 'closed', condition: 0, value: 24, threshold: 23.5, raised_at: T0, acked_at: null, acked_by: null, closed_at: T0, shelved_until: null, comment: null })))
        .execute();
    }
    if (tree.commands.length > 0) {
      await db
        .insertInto('device_commands')
        .values(
          tree.commands.map(({ device, issuer }, index) => ({
            cmd_id: `c${index}`,
            device_id: pick(named, device) ?? GONE,
            type: 'state',
            payload: '{}',
            status: 'acked',
            error: null,
            issued_by: issuer === null ? null : (pick(accountIds, issuer) ?? null),
            issued_at: T0,
            answered_at: T0,
          })),
        )
        .execute();
    }
    return { hierarchy: hierarchyOf(accounts, assignments, devices), named };
  };

  /** The hierarchy as the store holds it now. */
  const stored = async (): Promise<Hierarchy<number>> => {
    const accounts = await ctx.db.selectFrom('accounts').select(['id', 'sub_id', 'level']).execute();
    const assignments = await ctx.db.selectFrom('account_devices').select(['account_id', 'device_id']).execute();
    const devices = await ctx.db.selectFrom('devices').select('id').execute();
    return hierarchyOf(
      accounts.map((row) => ({ id: row.id, parent: row.sub_id, level: row.level as Level })),
      assignments.map((row) => ({ account: row.account_id, device: row.device_id })),
      devices.map((row) => row.id),
    );
  };

  const rowsOf = (hierarchy: Hierarchy<number>): Assignment<number>[] =>
    [...hierarchy.assigned].flatMap(([account, devices]) => [...devices].map((device) => ({ account, device })));

  const shapeOf = (hierarchy: Hierarchy<number>) => ({
    accounts: [...hierarchy.accounts.values()].map(({ id, parent, level }) => ({ id, parent, level })).sort((a, b) => a.id - b.id),
    assignments: rowsOf(hierarchy).map(({ account, device }) => `${account}:${device}`).sort(),
  });

  /** Plays the calls against the server and the model; answers the model's hierarchy after them. */
  const play = async (ops: readonly Op[], start: Hierarchy<number>, named: readonly string[], base: number): Promise<Hierarchy<number>> => {
    let model = start;
    const accountNames = new Map([...start.accounts.keys()].map((id) => [id, `a${String(id - base)}`]));
    const nameOf = (id: number) => accountNames.get(id) ?? '';
    for (const [index, op] of ops.entries()) {
      const ids = [...model.accounts.keys()];
      const callerId = pick(ids, op.caller) ?? base;
      const caller: Caller = { id: callerId, level: model.accounts.get(callerId)?.level ?? 0, account: nameOf(callerId) };
      const actor = { id: caller.id, account: caller.account, address: '127.0.0.1' };
      const deviceNames = (devices: readonly number[]) => devices.map((device) => pick(named, device) ?? GONE);
      if (op.kind === 'create') {
        const Account = `new${String(index)}`;
        const DeviceIds = deviceNames(op.devices);
        const expected = createRefusal(model, caller, { level: op.level, devices: DeviceIds });
        expect(await outcome(() => addAdmin(ctx, caller, actor, { Account, Code: PASSWORD, Level: op.level as 1 | 2 | 3, DeviceIds })), `add_Admin ${JSON.stringify(op)}`).toEqual(expected);
        if (expected === undefined) {
          const row = await ctx.db.selectFrom('accounts').select('id').where('account', '=', Account).executeTakeFirstOrThrow();
          accountNames.set(row.id, Account);
          const accounts = [...model.accounts.values(), { id: row.id, parent: caller.id, level: op.level as Level }];
          const given = DeviceIds.map((device): Assignment<number> => ({ account: row.id, device }));
          model = hierarchyOf(accounts, [...rowsOf(model), ...given], model.devices);
        }
      } else {
        const targetId = pick(ids, op.target) ?? base;
        const Account = nameOf(targetId);
        if (op.kind === 'reset') {
          expect(await outcome(() => adminResetCode(ctx, caller, actor, { Account })), `Admin_reset_Code ${JSON.stringify(op)}`).toEqual(resetRefusal(model, caller, targetId));
        } else {
          const DeviceIds = deviceNames(op.devices);
          const expected = assignRefusal(model, caller, targetId, DeviceIds);
          expect(await outcome(() => assignDevices(ctx, caller, actor, { Account, DeviceIds })), `assign_Devices ${JSON.stringify(op)}`).toEqual(expected);
          if (expected === undefined) model = hierarchyOf(model.accounts.values(), assignmentsAfter(model, caller, targetId, DeviceIds), model.devices);
        }
      }
    }
    return model;
  };

  /** What the model says each served resource lists to the viewer, as sorted record ids. */
  const expectedOf = (
    model: Hierarchy<number>,
    viewer: ScopeViewer<number>,
    rows: { orders: WireRecord[]; readings: WireRecord[]; audit: { id: number; actor_id: number | null; device_id: string | null }[]; alarms: WireRecord[]; commands: WireRecord[] },
    nameOf: (id: number) => string,
  ): Record<string, string[]> => {
    const byDevice = (records: WireRecord[], field: string, id: (record: WireRecord) => string) =>
      records.filter((record) => seesDevice(model, viewer, String(record[field]))).map(id).sort();
    return {
      devices: visibleDevices(model, viewer),
      'state-records': byDevice(rows.readings, 'Id', (record) => JSON.stringify([record.Id, record.Time])),
      orders: byDevice(rows.orders, 'Id', (record) => String(record.id)),
      accounts: [...model.accounts.keys()].filter((id) => seesAccount(model, viewer, id)).map(nameOf).sort(),
      'audit-log': rows.audit.filter((entry) => seesAuditEntry(model, viewer, { actor: entry.actor_id, device: entry.device_id })).map((entry) => String(entry.id)).sort(),
      'device-commands': byDevice(rows.commands, 'Id', (record) => String(record.id)),
      alarms: byDevice(rows.alarms, 'deviceId', (record) => String(record.id)),
      // The trees file no settings request: none is seen (their scope: tests/server/setting-requests.spec.ts).
      'setting-requests': [],
      ...everyone,
    };
  };

  it(`answers what the model says, for ${RUNS} random trees`, async () => {
    const all = { current: 1, pageSize: 1000 };
    const listAll = async (name: string, viewer: ScopeViewer<number>) => {
      const resource = SERVED_RESOURCES.find((each) => each.config.name === name);
      if (resource === undefined) throw new Error(`no served resource ${name}`);
      return recordsOf(await resource.list(ctx, viewer, all));
    };
    await fc.assert(
      fc.asyncProperty(treeArb, async (tree) => {
        run += 1;
        const base = 1_000_000 + run * 1000;
        // One transaction, one commit: PostgreSQL flushes its log once per tree rather than once per statement.
        const { hierarchy, named } = await ctx.db.transaction().execute(async (trx) => {
          await wipe(trx);
          return insert(trx, tree, base);
        });
        const model = await play(tree.ops, hierarchy, named, base);
        const now = await stored();
        expect(shapeOf(now), 'accounts and assignments after the calls').toEqual(shapeOf(model));

        // Names of accounts add_Admin created, by id: the model knows them by id only.
        const names = new Map((await ctx.db.selectFrom('accounts').select(['id', 'account']).execute()).map((row) => [row.id, row.account]));
        const nameOf = (id: number) => names.get(id) ?? String(id);
        const admin: ScopeViewer<number> = { id: base, level: 0 };
        const rows = {
          orders: await listAll('orders', admin),
          readings: await listAll('state-records', admin),
          audit: await ctx.db.selectFrom('audit_log').select(['id', 'actor_id', 'device_id']).execute(),
          alarms: await listAll('alarms', admin),
          commands: await listAll('device-commands', admin),
        };
        // Every viewer at once: PostgreSQL answers them over the pool's connections.
        await Promise.all([...model.accounts.values()].map(async (account) => {
          const viewer = { id: account.id, level: account.level };
          const expected = expectedOf(model, viewer, rows, nameOf);
          await Promise.all(SERVED_RESOURCES.map(async (resource) => {
            const list = await listAll(resource.config.name, viewer);
            const ids = list.map((record) => String(recordId(resource.config, record))).sort();
            expect(ids, `${resource.config.name} seen by ${nameOf(account.id)}`).toEqual(expected[resource.config.name]);
            if (resource.config.name === 'accounts') {
              const listed = Object.fromEntries(list.map((record) => [String(record.Account), record.DeviceIds]));
              const modelled = Object.fromEntries(
                [...model.accounts.keys()].filter((id) => seesAccount(model, viewer, id)).map((id) => [nameOf(id), listedDevicesOf(model, viewer, id)]),
              );
              expect(listed, `DeviceIds seen by ${nameOf(account.id)}`).toEqual(modelled);
            }
          }));
          // The live stream's devices (server/live/hub.ts): every one, or the list visibleDeviceIds reads.
          const live = await liveScope(ctx, viewer);
          expect(live === 'all' ? 'all' : [...live].sort(), `live devices of ${nameOf(account.id)}`).toEqual(seesEverything(viewer) ? 'all' : visibleDevices(model, viewer));
        }));
        await Promise.all(named.map(async (device) => {
          const viewers = (await serverDeviceViewers(ctx.db, device)).sort((a, b) => a - b);
          expect(viewers, `viewers of ${device}`).toEqual(deviceViewers(model, device).sort((a, b) => a - b));
        }));
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
