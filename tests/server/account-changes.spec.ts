import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { createAccount } from '../../server/accounts/service';
import { LIVE_SETTINGS } from '../../server/live/hub';
import { call, envelope, login, tokenFor, type LoginData } from './http';
import { connect, type Received } from './live-client';
import { demoTokens, seedFleet, snapshot, T0, type DemoName } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * update_Admin and delete_Admin (docs/server-accounts.md) on both stores, over the test fleet: admin →
 * first → second → client (first manages OC-A1, OC-A2, OC-B1, OC-B2; second OC-A1, OC-A2; client OC-A1),
 * plus first → first-b (OC-B1), admin → other → other-client (other manages OC-C1) and a second super
 * administrator, root-2. Live streams are read over real HTTP; the periodic pass that ends streams of
 * ended sessions is pushed out to an hour, so a stream that ends was ended by the change itself.
 */

const UPDATE = '/update_Admin';
const DELETE = '/delete_Admin';
const ADMINS = '/get_Admins';
const EN = 'en-US';
const ZH = 'zh-CN';
const PASSWORD = 'Chamber2026x';

const ready = (received: Received[]) => received.some((message) => message.event === 'ready');

describe.each(STORE_KINDS)('account changes (%s)', (kind) => {
  const store = useStore(kind);
  const recheckMs = LIVE_SETTINGS.recheckMs;
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;
  let base = '';

  beforeEach(async () => {
    LIVE_SETTINGS.recheckMs = 3_600_000;
    await store.wipe();
    await seedFleet(store.context());
    app = await store.app({ now: () => T0 });
    const id = async (account: string) => (await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', account).executeTakeFirstOrThrow()).id;
    const firstB = await createAccount(app.ctx, { account: 'first-b', password: PASSWORD, level: 2, subId: await id('first') });
    const other = await createAccount(app.ctx, { account: 'other', password: PASSWORD, level: 1, subId: await id('admin') });
    await createAccount(app.ctx, { account: 'other-client', password: PASSWORD, level: 3, subId: other.id });
    await createAccount(app.ctx, { account: 'root-2', password: PASSWORD, level: 0, subId: null });
    await app.ctx.db
      .insertInto('account_devices')
      .values([
        { account_id: firstB.id, device_id: 'OC-B1', created_at: T0 },
        { account_id: other.id, device_id: 'OC-C1', created_at: T0 },
      ])
      .execute();
    tokens = await demoTokens(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    LIVE_SETTINGS.recheckMs = recheckMs;
  });

  const post = async (path: string, body: unknown, token: string, lang = EN) => {
    const response = await call(app, path, body, { token, lang });
    return { http: response.statusCode, raw: response.body, ...envelope<Record<string, unknown>>(response) };
  };
  const as = (who: DemoName, path: string, body: unknown, lang = EN) => post(path, body, tokens[who], lang);

  const audit = async (action: string) =>
    (await app.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute()).map((row) => ({
      actor: row.actor_account,
      target: row.target_id,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    }));
  const everything = async () => `${await snapshot(app.ctx)}${JSON.stringify(await app.ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute())}`;
  const listed = async (who: DemoName, Account: string) => {
    const answer = await as(who, ADMINS, { filter: { Account: [Account] } });
    return (answer.data.list as Record<string, unknown>[])[0];
  };
  const signsIn = async (account: string, code: string) => envelope<LoginData>(await login(app, account, code)).data.State;

  /** A refusal: 40000 naming `field` in both languages, and nothing written. */
  const refused = async (who: DemoName, path: string, body: unknown, field: string, en: RegExp, zh: RegExp) => {
    const before = await everything();
    const english = await as(who, path, body);
    expect(english, english.raw).toMatchObject({ http: 400, code: CODES.badInput, status: 'fail' });
    expect(english.msg).toMatch(en);
    expect(english.msg).toContain(`(${field})`);
    const chinese = await as(who, path, body, ZH);
    expect(chinese.msg).toMatch(zh);
    expect(chinese.msg).toContain(`（${field}）`);
    expect(await everything()).toBe(before);
  };

  describe('update_Admin: the level', () => {
    it('changes a level within the rules, audits it, and the new role holds from the next request', async () => {
      const token = await tokenFor(app, 'first-b', PASSWORD);
      const changed = await as('first', UPDATE, { Account: 'first-b', Level: 3 });
      expect(changed, changed.raw).toMatchObject({ code: CODES.ok });
      expect(changed.data).toMatchObject({ Account: 'first-b', Level: 3, SubAdmin: 'first', Disabled: false, DeviceIds: ['OC-B1'] });
      expect(await listed('first', 'first-b')).toEqual(changed.data);
      expect(await audit('account.update')).toEqual([
        {
          actor: 'first',
          target: 'first-b',
          before: { Level: 2, SubAdmin: 'first', Disabled: false },
          after: { Level: 3, SubAdmin: 'first', Disabled: false },
        },
      ]);
      // Now a client: account management is closed to it.
      expect((await post(ADMINS, {}, token)).code).toBe(CODES.forbidden);
    });

    it('refuses a level at or above the caller’s, above the upper administrator’s, or not above the accounts below', async () => {
      await refused('first', UPDATE, { Account: 'second', Level: 1 }, 'Level', /lower than your own/, /比自己级别更低/);
      await refused('admin', UPDATE, { Account: 'client', Level: 2 }, 'Level', /upper administrator second/, /上级管理员 second/);
      await refused('first', UPDATE, { Account: 'second', Level: 3 }, 'Level', /account client sits directly below/, /下级账号 client/);
      await refused('admin', UPDATE, { Account: 'first', Level: 0 }, 'Level', /lower than your own/, /比自己级别更低/);
      expect(await audit('account.update')).toEqual([]);
    });

    it('keeps a super administrator at the root: another super administrator may only disable or enable it', async () => {
      await refused('admin', UPDATE, { Account: 'root-2', Level: 1 }, 'Level', /stays at the top/, /超级管理员始终位于层级顶端/);
      await refused('admin', UPDATE, { Account: 'root-2', SubAdmin: 'admin' }, 'SubAdmin', /stays at the top/, /超级管理员始终位于层级顶端/);
      // What the console's form sends for it unchanged.
      const same = await as('admin', UPDATE, { Account: 'root-2', Level: 0, SubAdmin: null, Disabled: false });
      expect(same.data).toMatchObject({ Account: 'root-2', Level: 0, SubAdmin: null, Disabled: false });
      expect(await audit('account.update')).toEqual([]);
      const disabled = await as('admin', UPDATE, { Account: 'root-2', Disabled: true });
      expect(disabled.data).toMatchObject({ Disabled: true });
      expect(await signsIn('root-2', PASSWORD)).toBe(false);
    });
  });

  describe('update_Admin: moving', () => {
    it('moves an account under another administrator of the caller’s subtree, once that one holds its devices', async () => {
      await refused(
        'first',
        UPDATE,
        { Account: 'client', SubAdmin: 'first-b' },
        'SubAdmin',
        /device OC-A1 is not one first-b manages/,
        /设备 OC-A1 不在 first-b 管理的设备中/,
      );
      expect((await as('first', '/assign_Devices', { Account: 'first-b', DeviceIds: ['OC-B1', 'OC-A1'] })).code).toBe(CODES.ok);
      const moved = await as('first', UPDATE, { Account: 'client', SubAdmin: 'first-b' });
      expect(moved, moved.raw).toMatchObject({ code: CODES.ok, data: { Account: 'client', SubAdmin: 'first-b', Level: 3, DeviceIds: ['OC-A1'] } });
      // second no longer sees it; first-b does.
      expect((await as('second', ADMINS, {})).data.list).not.toContainEqual(expect.objectContaining({ Account: 'client' }));
      const firstB = await tokenFor(app, 'first-b', PASSWORD);
      const seen = await post(ADMINS, { filter: { Account: ['client'] } }, firstB);
      expect(seen.data.total).toBe(1);
      expect(await audit('account.update')).toEqual([
        { actor: 'first', target: 'client', before: { Level: 3, SubAdmin: 'second', Disabled: false }, after: { Level: 3, SubAdmin: 'first-b', Disabled: false } },
      ]);
    });

    it('moves and changes the level in one call when the new place needs it', async () => {
      const moved = await as('admin', UPDATE, { Account: 'second', SubAdmin: 'admin', Level: 1 });
      expect(moved, moved.raw).toMatchObject({ code: CODES.ok, data: { SubAdmin: 'admin', Level: 1 } });
      // first no longer reaches second, nor the client below it.
      expect((await as('first', ADMINS, { filter: { Account: ['client'] } })).data.total).toBe(0);
    });

    it('refuses an upper administrator out of reach (like one that does not exist), below the account, or none', async () => {
      const upper = (name: string) => new RegExp(`administrator ${name} is not one of your accounts`);
      await refused('first', UPDATE, { Account: 'second', SubAdmin: 'other' }, 'SubAdmin', upper('other'), /管理员 other 不是您管理的账号/);
      const outOfReach = await as('first', UPDATE, { Account: 'second', SubAdmin: 'other' });
      const missing = await as('first', UPDATE, { Account: 'second', SubAdmin: 'nobody' });
      expect(outOfReach.raw.replace('other', '<x>')).toBe(missing.raw.replace('nobody', '<x>'));
      // Above the caller's own subtree.
      await refused('second', UPDATE, { Account: 'client', SubAdmin: 'first' }, 'SubAdmin', upper('first'), /管理员 first 不是您管理的账号/);
      await refused('first', UPDATE, { Account: 'second', SubAdmin: 'client' }, 'SubAdmin', /client is second itself or an account below it/, /client 是 second 本身或其下级账号/);
      await refused('first', UPDATE, { Account: 'second', SubAdmin: 'second' }, 'SubAdmin', /second is second itself/, /second 是 second 本身/);
      await refused('first', UPDATE, { Account: 'client', SubAdmin: null }, 'SubAdmin', /every account but a super administrator has an upper-level administrator/, /每个账号都必须有上级管理员/);
      // second (level 2) under first-b (level 2): not below its upper administrator.
      await refused('first', UPDATE, { Account: 'second', SubAdmin: 'first-b' }, 'SubAdmin', /upper administrator first-b/, /上级管理员 first-b/);
    });
  });

  describe('update_Admin and delete_Admin: who may be changed', () => {
    it('answers the caller itself, an account above or elsewhere exactly like one that does not exist, and a client 40300', async () => {
      const before = await everything();
      const missing = await as('second', UPDATE, { Account: 'nobody', Disabled: true });
      expect(missing).toMatchObject({ http: 404, code: CODES.notFound });
      for (const [who, Account] of [['second', 'second'], ['second', 'first'], ['first', 'other'], ['first', 'admin'], ['admin', 'admin']] as const) {
        for (const [path, body] of [[UPDATE, { Account, Disabled: true }], [DELETE, { Account }]] as const) {
          const answer = await as(who, path, body);
          expect(answer.raw.split(Account).join('<x>'), `${who} → ${path} ${Account}`).toBe(missing.raw.split('nobody').join('<x>'));
        }
      }
      expect((await as('client', UPDATE, { Account: 'client', Disabled: true })).code).toBe(CODES.forbidden);
      expect((await as('client', DELETE, { Account: 'client' })).code).toBe(CODES.forbidden);
      expect(await everything()).toBe(before);
    });
  });

  describe('update_Admin: disabling', () => {
    it('ends the account’s sessions and its open live stream at once; it cannot sign in until enabled again', async () => {
      const stream = await connect(base, tokens.client);
      await stream.until(ready);
      const disabled = await as('second', UPDATE, { Account: 'client', Disabled: true });
      expect(disabled, disabled.raw).toMatchObject({ code: CODES.ok, data: { Account: 'client', Disabled: true } });
      await stream.ended;
      expect((await as('client', '/api/user/info', {})).code).toBe(CODES.notSignedIn);
      expect((await connect(base, tokens.client)).status).toBe(401);
      expect(await signsIn('client', 'Client2026')).toBe(false);
      expect(await audit('account.update')).toEqual([
        {
          actor: 'second',
          target: 'client',
          before: { Level: 3, SubAdmin: 'second', Disabled: false },
          after: { Level: 3, SubAdmin: 'second', Disabled: true, sessionsRevoked: 1 },
        },
      ]);

      // The list shows the state and filters on it.
      const byState = await as('first', ADMINS, { filter: { Disabled: true } });
      expect((byState.data.list as { Account: string }[]).map((record) => record.Account)).toEqual(['client']);
      const enabledOnes = await as('first', ADMINS, { filter: { Disabled: false } });
      expect((enabledOnes.data.list as { Account: string }[]).map((record) => record.Account).sort()).toEqual(['first', 'first-b', 'second']);

      const enabled = await as('second', UPDATE, { Account: 'client', Disabled: false });
      expect(enabled.data).toMatchObject({ Disabled: false });
      expect(await signsIn('client', 'Client2026')).toBe(true);
    });

    it('a password change ends the account’s other live streams at once and keeps the one of the session that changed it', async () => {
      const other = await tokenFor(app, 'client', 'Client2026');
      const kept = await connect(base, tokens.client);
      const ended = await connect(base, other);
      await kept.until(ready);
      await ended.until(ready);
      const changed = await as('client', '/code/self_reset_Code', { OldCode: 'Client2026', NewCode: 'Client2027xyz' });
      expect(changed.code, changed.raw).toBe(CODES.ok);
      await ended.ended;
      app.ctx.live.publish({ type: 'device', data: { Id: 'OC-A1', Online: false } });
      await kept.until((received) => received.some((message) => message.event === 'device'));
    });

    it('a reset by an administrator ends every live stream of the account at once', async () => {
      const stream = await connect(base, tokens.client);
      await stream.until(ready);
      expect((await as('second', '/code/Admin_reset_Code', { Account: 'client' })).code).toBe(CODES.ok);
      await stream.ended;
    });
  });

  describe('delete_Admin', () => {
    it('is refused while accounts sit below, naming them', async () => {
      await refused('first', DELETE, { Account: 'second' }, 'Account', /accounts sit below second: client; move or delete/, /second 下仍有账号：client/);
      await refused('admin', DELETE, { Account: 'first' }, 'Account', /below first: first-b, second;/, /first 下仍有账号：first-b, second/);
    });

    it('deletes the account with its assignments, sessions, streams and messages; devices, orders and the trail stay', async () => {
      // Two messages in its box: a device taken and given back.
      expect((await as('second', '/assign_Devices', { Account: 'client', DeviceIds: [] })).code).toBe(CODES.ok);
      expect((await as('second', '/assign_Devices', { Account: 'client', DeviceIds: ['OC-A1'] })).code).toBe(CODES.ok);
      const stream = await connect(base, tokens.client);
      await stream.until(ready);
      const client = await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'client').executeTakeFirstOrThrow();
      const orders = await app.ctx.db.selectFrom('orders').selectAll().orderBy('id').execute();
      const messagesBefore = await app.ctx.db.selectFrom('messages').select('id').where('account_id', '=', client.id).execute();
      const trailBefore = await app.ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

      const deleted = await as('second', DELETE, { Account: 'client' });
      expect(deleted, deleted.raw).toMatchObject({ code: CODES.ok, data: null });
      await stream.ended;
      expect(await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'client').execute()).toEqual([]);
      expect(messagesBefore.length).toBe(2);
      for (const table of ['account_devices', 'sessions', 'messages'] as const) {
        expect(await app.ctx.db.selectFrom(table).select('account_id').where('account_id', '=', client.id).execute(), table).toEqual([]);
      }
      expect(await app.ctx.db.selectFrom('orders').selectAll().orderBy('id').execute()).toEqual(orders);
      expect((await as('second', ADMINS, { filter: { Account: ['client'] } })).data.total).toBe(0);
      expect(await signsIn('client', 'Client2026')).toBe(false);

      // The trail keeps every entry, the client's own sign-in among them, and the super administrator reads them.
      const trailAfter = await app.ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
      expect(trailAfter.slice(0, trailBefore.length)).toEqual(trailBefore);
      expect(await audit('account.delete')).toEqual([
        {
          actor: 'second',
          target: 'client',
          before: { Level: 3, SubAdmin: 'second', Disabled: false, DeviceIds: ['OC-A1'] },
          after: { sessionsRevoked: 1 },
        },
      ]);
      const log = await app.inject({ method: 'GET', url: '/api/v1/audit-log?range=[0,999]', headers: { authorization: `Bearer ${tokens.admin}` } });
      expect(log.json<{ actor: string; action: string }[]>()).toContainEqual(expect.objectContaining({ actor: 'client', action: 'auth.signIn' }));

      // A new account may take the name; it inherits nothing.
      const again = await as('second', '/add_Admin', { Account: 'client', Code: 'Client2028xyz', Level: 3 });
      expect(again.data).toMatchObject({ Account: 'client', DeviceIds: [], Disabled: false });
    });
  });
});
