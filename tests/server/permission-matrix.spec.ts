import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../server/accounts/service';
import type { AppContext } from '../../server/context';
import { SERVED_RESOURCES } from '../../server/resources/registry';
import { CODES } from '../../src/domain/envelope';
import { canAccess, type AccessRequest } from '../../src/domain/policy';
import { levelToRole, type Level } from '../../src/domain/roles';
import { ALL_DEVICES, FLEET_ASSIGNMENTS, HOUR, T0, demoTokens, deviceRow, seedFleet, snapshot, type DemoName } from './fleet';
import { DEMO } from './http';
import { STORE_KINDS, useStore } from './stores';

/**
 * The permission matrix: every endpoint × every role × a target in the caller's
 * scope, one out of it and one that does not exist, generated from the one table below. What is
 * expected comes from the shared policy (canAccess) and the scope rules of docs/product.md:
 * - a role the policy refuses gets 40300 whatever the target, and nothing is written;
 * - an allowed role gets 20000 for a target in its scope;
 * - a target out of its scope is answered exactly like one that does not exist (no leak), and nothing
 *   is written;
 * - every list answers only records in the caller's scope, and filtering for an out-of-scope record
 *   finds nothing, exactly like filtering for a missing one.
 */

const ROLES: readonly DemoName[] = ['admin', 'first', 'second', 'client'];
const LEVEL_OF: Record<DemoName, Level> = { admin: 0, first: 1, second: 2, client: 3 };
const MISSING_DEVICE = 'OC-ZZ';
const MISSING_ACCOUNT = 'nobody-here';

/** Accounts added to the demo tree so that each administrator has one account to act on and one it must not touch. */
const EXTRA_ACCOUNTS = [
  { account: 'admin-kid', level: 1, under: 'admin', devices: ['OC-C1'] },
  { account: 'first-kid', level: 2, under: 'first', devices: ['OC-A1', 'OC-B1'] },
  { account: 'second-kid', level: 3, under: 'second', devices: ['OC-A2'] },
] as const;

/** The devices each role manages (the super administrator: all). */
const MANAGED: Record<DemoName, readonly string[] | 'all'> = {
  admin: 'all',
  first: FLEET_ASSIGNMENTS.first ?? [],
  second: FLEET_ASSIGNMENTS.second ?? [],
  client: FLEET_ASSIGNMENTS.client ?? [],
};

/** Each role's subtree (itself and every account below it). */
const SUBTREE: Record<DemoName, readonly string[] | 'all'> = {
  admin: 'all',
  first: ['first', 'second', 'client', 'first-kid', 'second-kid'],
  second: ['second', 'client', 'second-kid'],
  client: ['client'],
};

/**
 * True when the account is in the role's subtree; `new-<creator>-<n>` accounts are made by the add_Admin cells
 * below, `fresh-<role>-<n>` ones for the delete_Admin cells (a client's under second, where a client sits).
 */
const inSubtree = (role: DemoName, account: string): boolean => {
  const subtree = SUBTREE[role];
  const creator = /^(?:new|fresh)-(\w+)-\d+$/.exec(account)?.[1];
  return subtree === 'all' || subtree.includes(creator ?? account);
};

type Scope = 'in' | 'out' | 'missing';
const SCOPES: readonly Scope[] = ['in', 'out', 'missing'];

/** A device the role manages, one it does not (none for the super administrator), one that does not exist. */
const DEVICE_TARGET: Record<DemoName, Record<Scope, string | undefined>> = {
  admin: { in: 'OC-C2', out: undefined, missing: MISSING_DEVICE },
  first: { in: 'OC-B2', out: 'OC-C2', missing: MISSING_DEVICE },
  second: { in: 'OC-A2', out: 'OC-B2', missing: MISSING_DEVICE },
  client: { in: 'OC-A1', out: 'OC-A2', missing: MISSING_DEVICE },
};

/** An account strictly below the role, one outside its subtree, one that does not exist. */
const ACCOUNT_TARGET: Record<DemoName, Record<Scope, string | undefined>> = {
  admin: { in: 'admin-kid', out: undefined, missing: MISSING_ACCOUNT },
  first: { in: 'first-kid', out: 'admin-kid', missing: MISSING_ACCOUNT },
  second: { in: 'second-kid', out: 'first-kid', missing: MISSING_ACCOUNT },
  client: { in: 'second-kid', out: 'first-kid', missing: MISSING_ACCOUNT },
};

interface Request {
  method: 'POST' | 'GET' | 'DELETE';
  url: string;
  body?: unknown;
}

interface ActionEndpoint {
  name: string;
  policy: AccessRequest;
  /** What the target is: a device or an account. */
  target: 'device' | 'account';
  /** The in-scope target is a device made for the cell, with no history (only the super administrator may remove one). */
  freshDevice?: boolean;
  /** The in-scope target is an account made for the cell below the role, with none below it (a deletion). */
  freshAccount?: boolean;
  /** The call names no existing thing (a registration): only the in-scope cell applies. */
  inOnly?: boolean;
  request: (target: string, role: DemoName, cell: number) => Request;
}

const upstream = (path: string, body: unknown): Request => ({ method: 'POST', url: `/upstream${path}`, body });
/** The cmdId of the command recorded for a device (none exists for a missing device). */
const COMMAND_OF = (Id: string) => `cmd-${Id}`;
/** An alarm stored for every fleet device in beforeAll, numbered by the device's place in the fleet; a missing device's is a number never stored. */
const ALARM_OF = (Id: string) => ALL_DEVICES.indexOf(Id) + 1 || 999_999;

/** Every action endpoint of the upstream contract and the REST API that names one device or account. */
const ACTIONS: readonly ActionEndpoint[] = [
  {
    name: 'order/change_permission',
    policy: { resource: 'devices', action: 'changePermission' },
    target: 'device',
    request: (Id) => upstream('/order/change_permission', { Id }),
  },
  {
    name: 'order/change_state',
    policy: { resource: 'devices', action: 'changeState' },
    target: 'device',
    request: (Id) => upstream('/order/change_state', { Id, State: 'Repair' }),
  },
  {
    name: 'order/change_settings',
    policy: { resource: 'devices', action: 'changeSettings' },
    target: 'device',
    request: (Id) => upstream('/order/change_settings', { Id, SP: 1.3, SS: 'M' }),
  },
  {
    name: 'POST /api/v1/setting-requests',
    policy: { resource: 'setting-requests', action: 'request' },
    target: 'device',
    request: (Id) => ({ method: 'POST', url: '/api/v1/setting-requests', body: { Id, SP: 1.3 } }),
  },
  {
    // A command recorded for every device in beforeAll (COMMAND_OF); reading it is the device's scope.
    name: 'GET /api/v1/device-commands/:cmdId',
    policy: { resource: 'device-commands', action: 'show' },
    target: 'device',
    request: (Id) => ({ method: 'GET', url: `/api/v1/device-commands/${COMMAND_OF(Id)}` }),
  },
  {
    name: 'GET /api/v1/alarms/:id',
    policy: { resource: 'alarms', action: 'show' },
    target: 'device',
    request: (Id) => ({ method: 'GET', url: `/api/v1/alarms/${ALARM_OF(Id)}` }),
  },
  {
    name: 'GET /api/v1/alarms/:id/history',
    policy: { resource: 'alarms', action: 'show' },
    target: 'device',
    request: (Id) => ({ method: 'GET', url: `/api/v1/alarms/${ALARM_OF(Id)}/history` }),
  },
  {
    name: 'device/update_OCProperty',
    policy: { resource: 'devices', action: 'edit' },
    target: 'device',
    request: (Id) => upstream('/device/update_OCProperty', { Id, name: 'Renamed', Type: 2, Location: 'Hall Z' }),
  },
  {
    name: 'POST /api/v1/devices/:Id/secret',
    policy: { resource: 'devices', action: 'edit' },
    target: 'device',
    request: (Id) => ({ method: 'POST', url: `/api/v1/devices/${Id}/secret` }),
  },
  {
    name: 'DELETE /api/v1/devices/:Id',
    policy: { resource: 'devices', action: 'delete' },
    target: 'device',
    freshDevice: true,
    request: (Id) => ({ method: 'DELETE', url: `/api/v1/devices/${Id}` }),
  },
  {
    // No target: who may register a device at all. The Id is new for every cell.
    name: 'POST /api/v1/devices',
    policy: { resource: 'devices', action: 'create' },
    target: 'device',
    freshDevice: true,
    inOnly: true,
    request: (Id, _role, cell) => ({ method: 'POST', url: '/api/v1/devices', body: { Id: `${Id}-N${cell}`, name: 'New', Type: 1, Location: 'Hall N' } }),
  },
  {
    // Booking the device two hours ahead: clear of every fleet booking and running session (docs/orders.md).
    name: 'POST /api/v1/orders',
    policy: { resource: 'orders', action: 'create' },
    target: 'device',
    request: (Id) => ({ method: 'POST', url: '/api/v1/orders', body: { Id, SetT: T0 + 2 * HOUR, OpenId: 'oMatrixGuest' } }),
  },
  {
    // The device is the scoped part: a new account may be given only devices its creator manages.
    name: 'add_Admin',
    policy: { resource: 'accounts', action: 'create' },
    target: 'device',
    request: (Id, role, cell) =>
      upstream('/add_Admin', { Account: `new-${role}-${cell}`, Code: 'Fresh2026xyzw', Level: Math.min(LEVEL_OF[role] + 1, 3), DeviceIds: [Id] }),
  },
  {
    name: 'code/Admin_reset_Code',
    policy: { resource: 'accounts', action: 'resetPassword' },
    target: 'account',
    request: (Account) => upstream('/code/Admin_reset_Code', { Account }),
  },
  {
    name: 'assign_Devices',
    policy: { resource: 'accounts', action: 'assignDevices' },
    target: 'account',
    request: (Account, role) => upstream('/assign_Devices', { Account, DeviceIds: [DEVICE_TARGET[role].in] }),
  },
  {
    name: 'update_Admin',
    policy: { resource: 'accounts', action: 'edit' },
    target: 'account',
    request: (Account) => upstream('/update_Admin', { Account, Disabled: false }),
  },
  {
    name: 'delete_Admin',
    policy: { resource: 'accounts', action: 'delete' },
    target: 'account',
    freshAccount: true,
    request: (Account) => upstream('/delete_Admin', { Account }),
  },
];

/** How a listed resource's records belong to a device or an account: what its list is checked against. */
interface ListScope {
  target: 'device' | 'account';
  /** The filter that names one record's device (or account). */
  filterFor: (target: string) => Record<string, unknown>;
  /** The device (or account) a listed record belongs to. */
  ownerOf: (record: Record<string, unknown>) => string;
}

const byDevice: ListScope = { target: 'device', filterFor: (Id) => ({ Id: [Id] }), ownerOf: (r) => String(r.Id) };

/**
 * The scope of every resource the server lists, by policy key. `'below'`: its scope has a test of its
 * own at the end of this file (the audit log: entries of the subtree on devices the role sees);
 * `'unscoped'`: every role it allows reads every record. A resource added to the registry without a line here fails this file.
 */
const LIST_SCOPES: Readonly<Record<string, ListScope | 'below' | 'unscoped'>> = {
  devices: byDevice,
  'state-records': byDevice,
  orders: byDevice,
  accounts: { target: 'account', filterFor: (Account) => ({ Account }), ownerOf: (r) => String(r.Account) },
  'device-commands': byDevice,
  'audit-log': 'below',
  // Five records of no device or account: every role allowed to list them reads them all.
  'device-types': 'unscoped',
  alarms: { target: 'device', filterFor: (Id) => ({ deviceId: [Id] }), ownerOf: (r) => String(r.deviceId) },
  // The rules name no device: every role reads all of them (tests/server/alarms-rest.spec.ts).
  'alarm-rules': 'below',
  // Requests of the subtree on devices the role manages: tests/server/setting-requests.spec.ts (none are seeded here).
  'setting-requests': 'below',
  // The super administrator's alone (the policy); they name no device or account.
  'notification-channels': 'unscoped',
};

interface ListEndpoint {
  name: string;
  policy: AccessRequest;
  /** The request of a page of 1000 records with this filter (none: unfiltered). */
  request: (filter?: Record<string, unknown>) => Request;
  /** The records and the total of a list's answer. */
  read: (response: LightMyRequestResponse) => { list: Record<string, unknown>[]; total: number };
  scope: ListScope | undefined;
}

/** Every list route, from the server's registry: the upstream's POST lists and the REST API's GET lists. */
const LISTS: readonly ListEndpoint[] = SERVED_RESOURCES.map(({ config }): ListEndpoint => {
  const scope = LIST_SCOPES[config.name];
  if (scope === undefined) throw new Error(`the permission matrix has no list scope for ${config.name}`);
  const policy = { resource: config.name, action: 'list' };
  if (config.adapter === 'upstream') {
    const path = config.endpoints.list;
    return {
      name: `POST ${path}`,
      policy,
      request: (filter) => upstream(path, { current: 1, pageSize: 1000, ...(filter === undefined ? {} : { filter }) }),
      read: (response) => response.json<{ data: { list: Record<string, unknown>[]; total: number } }>().data,
      scope: typeof scope === 'string' ? undefined : scope,
    };
  }
  const url = `/api/v1/${config.path ?? config.name}?range=[0,999]`;
  return {
    name: `GET /api/v1/${config.path ?? config.name}`,
    policy,
    request: (filter) => ({ method: 'GET', url: filter === undefined ? url : `${url}&filter=${encodeURIComponent(JSON.stringify(filter))}` }),
    read: (response) => ({ list: response.json<Record<string, unknown>[]>(), total: Number(/\/(\d+)$/.exec(String(response.headers['content-range']))?.[1]) }),
    scope: typeof scope === 'string' ? undefined : scope,
  };
});

const roleOf = (name: DemoName) => levelToRole(LEVEL_OF[name]);
/** The envelope's code; a REST success is a bare record, so a 2xx without one counts as 20000. */
const codeOf = (response: LightMyRequestResponse): number => {
  const { code } = response.json<{ code?: number }>();
  return code === undefined && response.statusCode < 300 ? CODES.ok : Number(code);
};

/** An answer with the target's name blanked, to compare an out-of-scope answer with a missing one. */
const shapeOf = (response: LightMyRequestResponse, target: string): string =>
  `${response.statusCode} ${response.body.split(target).join('<target>')}`;

describe.each(STORE_KINDS)('permission matrix (%s)', (kind) => {
  const store = useStore(kind);
  let app: FastifyInstance;
  let ctx: AppContext;
  let tokens: Record<DemoName, string>;
  let cell = 0;

  const send = (role: DemoName, { method, url, body }: Request) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[role]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  /** The data tables, the audit trail and the commands sent (sessions aside: using a token touches them). */
  const state = async () => {
    const audit = await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const commands = await ctx.db.selectFrom('device_commands').selectAll().orderBy('cmd_id').execute();
    return `${await snapshot(ctx)} audit=${String(audit.n)} commands=${JSON.stringify(commands)}`;
  };

  beforeAll(async () => {
    ctx = store.context();
    await seedFleet(ctx);
    for (const extra of EXTRA_ACCOUNTS) {
      const upper = await ctx.db.selectFrom('accounts').select('id').where('account', '=', extra.under).executeTakeFirstOrThrow();
      const row = await createAccount(ctx, { account: extra.account, password: 'Kid2026xx', level: extra.level, subId: upper.id });
      await ctx.db
        .insertInto('account_devices')
        .values(extra.devices.map((device_id) => ({ account_id: row.id, device_id, created_at: T0 })))
        .execute();
    }
    const devices = await ctx.db.selectFrom('devices').select('id').execute();
    await ctx.db
      .insertInto('device_commands')
      .values(
        devices.map(({ id }) => ({
          cmd_id: COMMAND_OF(id),
          device_id: id,
          type: 'state',
          payload: JSON.stringify({ cmdId: COMMAND_OF(id), type: 'state', Time: T0, State: 'Work' }),
          status: 'acked',
          error: null,
          issued_by: null,
          issued_at: T0,
          answered_at: T0 + 1000,
        })),
      )
      .execute();
    await ctx.db
      .insertInto('alarms')
      .values(ALL_DEVICES.map((id) => ({ id: ALARM_OF(id), device_id: id, kind: 'erd', priority: 'high', state: 'active-unacked', condition: 1, raised_at: T0 })))
      .execute();
    const accounts = await ctx.db.selectFrom('accounts').select('id').execute();
    await ctx.db
      .insertInto('messages')
      .values(accounts.map(({ id }) => ({ account_id: id, type: 'message', kind: 'passwordReset', params: JSON.stringify({ by: 'admin' }), created_at: T0, read_at: null })))
      .execute();
  });

  /** A device with no history, assigned to nobody, for the cells that remove or register a device. */
  const freshDevice = async (): Promise<string> => {
    cell += 1;
    const id = `OC-F${cell}`;
    await ctx.db.insertInto('devices').values(deviceRow(id, 'Fresh', 1, 'Hall F', 'Stop')).execute();
    return id;
  };

  /** An account below the role with none below it, for the cells that delete one (a client's goes under second: it may have none). */
  const freshAccount = async (role: DemoName): Promise<string> => {
    cell += 1;
    const under = role === 'client' ? 'second' : role;
    const upper = await ctx.db.selectFrom('accounts').select('id').where('account', '=', under).executeTakeFirstOrThrow();
    const account = `fresh-${role}-${cell}`;
    await createAccount(ctx, { account, password: 'Fresh2026x', level: Math.min(LEVEL_OF[role] + 1, 3) as Level, subId: upper.id });
    return account;
  };

  /** Each test gets its own app (the store closes apps after each test) and fresh tokens. */
  const ready = async () => {
    app = await store.app({ now: () => T0 });
    tokens = await demoTokens(app);
  };

  describe.each(ACTIONS.map((endpoint) => [endpoint.name, endpoint] as const))('%s', (_name, endpoint) => {
    it.each(ROLES)('as %s: in scope allowed by the policy, out of scope answered like missing, refusals write nothing', async (role) => {
      await ready();
      const allowed = canAccess(roleOf(role), endpoint.policy);
      const targets = { ...(endpoint.target === 'device' ? DEVICE_TARGET[role] : ACCOUNT_TARGET[role]) };
      if (endpoint.freshDevice === true) targets.in = await freshDevice();
      if (endpoint.freshAccount === true) targets.in = await freshAccount(role);
      if (endpoint.inOnly === true) Object.assign(targets, { out: undefined, missing: undefined });
      const answers: Partial<Record<Scope, string>> = {};
      for (const scope of SCOPES) {
        const target = targets[scope];
        if (target === undefined) continue;
        cell += 1;
        const before = await state();
        const response = await send(role, endpoint.request(target, role, cell));
        const code = codeOf(response);
        const where = `${endpoint.name} as ${role} on ${scope} ${target}: ${response.body}`;
        answers[scope] = shapeOf(response, target);
        if (!allowed) expect(code, where).toBe(CODES.forbidden);
        else if (scope === 'in') expect(code, where).toBe(CODES.ok);
        else expect(code, where).not.toBe(CODES.ok);
        if (!allowed || scope !== 'in') expect(await state(), `${where} wrote something`).toBe(before);
      }
      if (answers.out !== undefined) expect(answers.out, `${endpoint.name} as ${role}: out of scope vs missing`).toBe(answers.missing);
      if (!allowed && answers.missing !== undefined) expect(answers.in).toBe(answers.missing);
    });
  });

  describe.each(LISTS.map((endpoint) => [endpoint.name, endpoint] as const))('%s', (_name, endpoint) => {
    it.each(ROLES)('as %s: lists only its scope; an out-of-scope filter finds what a missing one finds', async (role) => {
      await ready();
      const allowed = canAccess(roleOf(role), endpoint.policy);
      const all = await send(role, endpoint.request());
      if (!allowed) {
        expect(codeOf(all), all.body).toBe(CODES.forbidden);
        return;
      }
      expect(codeOf(all), all.body).toBe(CODES.ok);
      const { scope } = endpoint;
      if (scope === undefined) return;
      const { list, total } = endpoint.read(all);
      expect(list.length).toBe(total);
      expect(total).toBeGreaterThan(0);
      const devices = MANAGED[role];
      for (const record of list) {
        const owner = scope.ownerOf(record);
        const visible = scope.target === 'device' ? devices === 'all' || devices.includes(owner) : inSubtree(role, owner);
        expect(visible, `${endpoint.name} leaked ${owner} to ${role}`).toBe(true);
      }

      const targets = scope.target === 'device' ? DEVICE_TARGET[role] : { in: role, out: ACCOUNT_TARGET[role].out, missing: MISSING_ACCOUNT };
      const found: Partial<Record<Scope, string>> = {};
      for (const where of SCOPES) {
        const target = targets[where];
        if (target === undefined) continue;
        const response = await send(role, endpoint.request(scope.filterFor(target)));
        const { total: matched } = endpoint.read(response);
        found[where] = shapeOf(response, target);
        if (where === 'in') expect(matched, `${endpoint.name} ${role} ${target}`).toBeGreaterThan(0);
        else expect(matched, `${endpoint.name} ${role} ${target}`).toBe(0);
      }
      if (found.out !== undefined) expect(found.out).toBe(found.missing);
    });
  });

  it('the command log answers each role only commands of the devices it sees', async () => {
    await ready();
    const rows = await ctx.db.selectFrom('device_commands').select('device_id').execute();
    for (const role of ROLES) {
      const response = await send(role, { method: 'GET', url: '/api/v1/device-commands?range=[0,999]' });
      expect(response.statusCode, response.body).toBe(200);
      const devices = MANAGED[role];
      const expected = rows.filter((row) => devices === 'all' || devices.includes(row.device_id)).map((row) => row.device_id);
      const listed = response.json<{ Id: string }[]>().map((record) => record.Id);
      expect(listed.sort(), `commands for ${role}`).toEqual(expected.sort());
    }
  });

  it.each(ROLES)('the message box answers %s its own messages only, and marks only its own read', async (role) => {
    await ready();
    const messages = await ctx.db
      .selectFrom('messages')
      .innerJoin('accounts', 'accounts.id', 'messages.account_id')
      .select(['messages.id', 'accounts.account', 'messages.read_at'])
      .execute();
    const own = messages.filter((message) => message.account === role).map((message) => message.id);
    const others = messages.filter((message) => message.account !== role).map((message) => message.id);
    expect(canAccess(roleOf(role), { resource: 'messages', action: 'list' })).toBe(true);
    const listed = await send(role, upstream('/api/message/list', { current: 1, pageSize: 100 }));
    expect(codeOf(listed), listed.body).toBe(CODES.ok);
    // Other cells' resets and assignments add messages too: which ones, not their order, is the point here.
    expect(listed.json<{ data: { list: { id: number }[] } }>().data.list.map((message) => message.id).sort((a, b) => a - b)).toEqual(own.sort((a, b) => a - b));

    expect(canAccess(roleOf(role), { resource: 'messages', action: 'edit' })).toBe(true);
    const before = await ctx.db.selectFrom('messages').select(['id', 'read_at']).orderBy('id').execute();
    const onOthers = await send(role, upstream('/api/message/read', { ids: others }));
    expect(codeOf(onOthers), onOthers.body).toBe(CODES.ok);
    expect(await ctx.db.selectFrom('messages').select(['id', 'read_at']).orderBy('id').execute()).toEqual(before);
    const onOwn = await send(role, upstream('/api/message/read', { ids: own }));
    expect(onOwn.json<{ data: { read: number } }>().data.read).toBe(own.length);
  });

  it.each(ROLES)("the old console's account list and user centre answer %s within its scope", async (role) => {
    await ready();
    const admins = await send(role, upstream('/get_Admins', { current: 1, pageSize: 100 }));
    const oldList = await send(role, { method: 'GET', url: '/upstream/list/user?current=1&pageSize=100' });
    expect(codeOf(oldList), oldList.body).toBe(canAccess(roleOf(role), { resource: 'accounts', action: 'list' }) ? CODES.ok : CODES.forbidden);
    expect(oldList.json<{ data: unknown }>().data).toEqual(admins.json<{ data: unknown }>().data);

    const projects = await send(role, upstream('/api/user/my-project/list', undefined));
    expect(codeOf(projects), projects.body).toBe(CODES.ok);
    const devices = projects.json<{ data: { description: string }[] }>().data.map((project) => project.description.split(' · ')[0]);
    const managed = MANAGED[role];
    if (managed === 'all') expect(devices.length).toBeGreaterThan(0);
    else expect(devices.sort()).toEqual([...managed].sort());
  });

  it('the audit log answers each role only entries of its subtree (client: its own) on devices it sees', async () => {
    await ready();
    const ids = Object.fromEntries(
      (await ctx.db.selectFrom('accounts').select(['id', 'account']).execute()).map((row) => [row.id, row.account]),
    );
    for (const role of ROLES) {
      const response = await send(role, { method: 'GET', url: '/api/v1/audit-log?range=[0,999]' });
      expect(response.statusCode, response.body).toBe(200);
      const entries = response.json<{ actor: string; deviceId: string | null }[]>();
      const rows = await ctx.db.selectFrom('audit_log').select(['actor_id', 'device_id']).execute();
      const subtree = role === 'client' ? ['client'] : SUBTREE[role];
      const devices = MANAGED[role];
      const expected = rows.filter(
        (row) =>
          (subtree === 'all' || (row.actor_id !== null && subtree.includes(ids[row.actor_id] ?? ''))) &&
          (devices === 'all' || row.device_id === null || devices.includes(row.device_id)),
      );
      expect(entries.length, `audit entries for ${role}`).toBe(expected.length);
      for (const entry of entries) {
        if (subtree !== 'all') expect(subtree).toContain(entry.actor);
        if (devices !== 'all' && entry.deviceId !== null) expect(devices).toContain(entry.deviceId);
      }
    }
    expect(Object.keys(DEMO)).toEqual(ROLES);
  });
});
