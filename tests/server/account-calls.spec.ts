import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { DEFAULT_PASSWORD_MIN_LENGTH, passwordProblem } from '../../src/domain/password';
import { levelToRole, type Level } from '../../src/domain/roles';
import { menuRoutesFor } from '../../src/domain/menu';
import { bootstrap } from '../../server/accounts/bootstrap';
import { RESET_CODE_LENGTH } from '../../server/accounts/calls';
import { createAccount } from '../../server/accounts/service';
import { buildApp } from '../../server/app';
import type { AppContext } from '../../server/context';
import { migrateToLatest } from '../../server/db/migrations';
import { loggerOptions } from '../../server/logger';
import { UPSTREAM_ALIASES } from '../../src/resources/accounts/calls';
import { capturedLog } from './captured-log';
import { call, DEMO, envelope, login, tokenFor, type LoginData } from './http';
import { demoTokens, FLEET_ASSIGNMENTS, seedFleet, snapshot, type DemoName } from './fleet';
import { STORE_KINDS, useStore, type StoreKind } from './stores';

/**
 * The account calls of the upstream contract (docs/server-accounts.md) on both stores, over the test
 * fleet: admin → first → second → client; first manages OC-A1, OC-A2, OC-B1, OC-B2; second OC-A1,
 * OC-A2; client OC-A1; plus a second branch admin → other → other-client (other manages OC-C1).
 */

const ADD = '/add_Admin';
const RESET = '/code/Admin_reset_Code';
const SELF = '/code/self_reset_Code';
const ASSIGN = '/assign_Devices';
const ADMINS = '/get_Admins';
const DEVICES = '/list/get_OCProperty';
const INFO = '/api/user/info';
const MENU = '/api/user/menu';
const LOGOUT = '/api/user/logout';

const EN = 'en-US';

interface AuditRow {
  action: string;
  actor_id: number | null;
  actor_account: string;
  target_type: string;
  target_id: string;
  device_id: string | null;
  address: string;
  before: unknown;
  after: unknown;
}

/** Makes every audit write fail (a trigger), so a change whose entry cannot be written must not happen. */
const breakAudit = async (ctx: AppContext, kind: StoreKind): Promise<() => Promise<void>> => {
  if (kind === 'sqlite') {
    await sql`create trigger audit_fails before insert on audit_log begin select raise(abort, 'audit unavailable'); end`.execute(ctx.db);
    return async () => {
      await sql`drop trigger audit_fails`.execute(ctx.db);
    };
  }
  await sql`create function audit_fails() returns trigger language plpgsql as $$ begin raise exception 'audit unavailable'; end $$`.execute(
    ctx.db,
  );
  await sql`create trigger audit_fails before insert on audit_log for each row execute function audit_fails()`.execute(ctx.db);
  return async () => {
    await sql`drop trigger audit_fails on audit_log`.execute(ctx.db);
    await sql`drop function audit_fails()`.execute(ctx.db);
  };
};

describe.each(STORE_KINDS)('account calls (%s)', (kind) => {
  const store = useStore(kind);
  beforeEach(() => store.wipe());

  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;
  const ids: Record<string, number> = {};

  /** The fleet, a second branch (other → other-client, other manages OC-C1), and a token per demo account. */
  const ready = async (env: Record<string, string> = {}) => {
    app = await store.app({ env });
    await seedFleet(app.ctx);
    const admin = await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow();
    const other = await createAccount(app.ctx, { account: 'other', password: 'Other2026x', level: 1, subId: admin.id });
    await createAccount(app.ctx, { account: 'other-client', password: 'Other2026x', level: 3, subId: other.id });
    await app.ctx.db.insertInto('account_devices').values({ account_id: other.id, device_id: 'OC-C1', created_at: 0 }).execute();
    for (const row of await app.ctx.db.selectFrom('accounts').select(['id', 'account']).execute()) ids[row.account] = row.id;
    tokens = await demoTokens(app);
  };

  const post = async (path: string, body: unknown, token: string | undefined, lang = EN) => {
    const response = await call(app, path, body, { ...(token === undefined ? {} : { token }), lang });
    return { http: response.statusCode, raw: response.body, ...envelope<Record<string, unknown>>(response) };
  };
  const as = (who: DemoName, path: string, body: unknown) => post(path, body, tokens[who]);

  const devicesOf = async (account: string): Promise<string[]> =>
    (
      await app.ctx.db
        .selectFrom('account_devices')
        .innerJoin('accounts', 'accounts.id', 'account_devices.account_id')
        .select('account_devices.device_id')
        .where('accounts.account', '=', account)
        .orderBy('account_devices.device_id')
        .execute()
    ).map((row) => row.device_id);

  const audit = async (action?: string): Promise<AuditRow[]> => {
    const query = app.ctx.db.selectFrom('audit_log').selectAll().orderBy('id');
    const rows = await (action === undefined ? query : query.where('action', '=', action)).execute();
    return rows.map(({ before, after, ...row }) => ({
      ...row,
      before: before === null ? null : (JSON.parse(before) as unknown),
      after: after === null ? null : (JSON.parse(after) as unknown),
    }));
  };
  /** Every data table and the audit trail, for "nothing was written" checks. */
  const everything = async () => `${await snapshot(app.ctx)}${JSON.stringify(await audit())}`;

  const signsIn = async (account: string, code: string) => envelope<LoginData>(await login(app, account, code)).data;

  describe('add_Admin', () => {
    it('creates an account under the caller with its devices, answers it as get_Admins lists it, and audits it', async () => {
      await ready();
      const created = await as('first', ADD, { Account: 'ops-7', Code: 'Chamber2026ox', Level: 2, DeviceIds: ['OC-B2', 'OC-A1', 'OC-B2'] });
      expect(created, created.raw).toMatchObject({ http: 200, code: CODES.ok, status: 'ok' });
      const expected = { Account: 'ops-7', SubId: ids.first, Level: 2, SubAdmin: 'first', DeviceIds: ['OC-A1', 'OC-B2'], Disabled: false };
      expect(created.data).toEqual(expected);

      const listed = await as('first', ADMINS, { filter: { Account: ['ops-7'] } });
      expect(listed.data.list).toEqual([expected]);
      expect(await devicesOf('ops-7')).toEqual(['OC-A1', 'OC-B2']);
      expect(await signsIn('ops-7', 'Chamber2026ox')).toMatchObject({ State: true, Level: 2, mustChangeCode: false });

      const [entry] = await audit('account.create');
      expect(entry).toMatchObject({
        actor_id: ids.first,
        actor_account: 'first',
        target_type: 'account',
        target_id: 'ops-7',
        address: '127.0.0.1',
        before: null,
        after: { Account: 'ops-7', Level: 2, SubAdmin: 'first', DeviceIds: ['OC-A1', 'OC-B2'] },
      });
      expect(JSON.stringify(await audit())).not.toContain('Chamber2026ox');
    });

    it('creates only at a strictly lower level (a larger Level number) than the caller; a client creates none', async () => {
      await ready();
      const allowed: Record<DemoName, Level[]> = { admin: [1, 2, 3], first: [2, 3], second: [3], client: [] };
      for (const [who, levels] of Object.entries(allowed) as [DemoName, Level[]][]) {
        for (const Level of [1, 2, 3] as const) {
          const Account = `${who}-made-${Level}`;
          const before = await everything();
          const answer = await as(who, ADD, { Account, Code: 'Chamber2026ox', Level });
          if (levels.includes(Level)) {
            expect(answer, `${who} → ${Level}`).toMatchObject({ code: CODES.ok, data: { Account, Level, SubAdmin: who } });
            continue;
          }
          if (who === 'client') {
            expect(answer).toMatchObject({ http: 403, code: CODES.forbidden, msg: 'access denied' });
          } else {
            expect(answer, `${who} → ${Level}`).toMatchObject({
              http: 400,
              code: CODES.badInput,
              msg: 'Level must be lower than your own account level (Level)',
            });
          }
          expect(await everything()).toBe(before);
        }
      }
      // Level 0 is never created by a call: the shared schema refuses it, naming Level.
      const root = await as('admin', ADD, { Account: 'root-2', Code: 'Chamber2026ox', Level: 0 });
      expect(root).toMatchObject({ code: CODES.badInput });
      expect(root.msg).toContain('Level');
    });

    it('adds only devices the caller manages; a device out of reach and one that does not exist get the same answer', async () => {
      await ready();
      const before = await everything();
      const outOfReach = await as('second', ADD, { Account: 'nine', Code: 'Chamber2026ox', Level: 3, DeviceIds: ['OC-A1', 'OC-B1'] });
      const missing = await as('second', ADD, { Account: 'nine', Code: 'Chamber2026ox', Level: 3, DeviceIds: ['OC-A1', 'OC-Q9'] });
      expect(outOfReach).toMatchObject({ http: 400, code: CODES.badInput, msg: 'device OC-B1 is not one you manage (DeviceIds)' });
      expect(missing.http).toBe(outOfReach.http);
      expect(missing.raw.replace('OC-Q9', 'OC-B1')).toBe(outOfReach.raw);
      expect(await everything()).toBe(before);

      // The super administrator manages every existing device, and only those.
      const chief = await as('admin', ADD, { Account: 'nine', Code: 'Chamber2026ox', Level: 1, DeviceIds: ['OC-C2'] });
      expect(chief).toMatchObject({ code: CODES.ok, data: { DeviceIds: ['OC-C2'] } });
      const nothing = await as('admin', ADD, { Account: 'ten', Code: 'Chamber2026ox', Level: 1, DeviceIds: ['OC-Q9'] });
      expect(nothing).toMatchObject({ code: CODES.badInput, msg: 'device OC-Q9 is not one you manage (DeviceIds)' });
    });

    it('writes nothing when a later step fails: a refused device leaves no account behind', async () => {
      await ready();
      const before = await everything();
      // The account row is inserted before the devices are checked: the transaction must undo it.
      const answer = await as('first', ADD, { Account: 'half', Code: 'Chamber2026ox', Level: 3, DeviceIds: ['OC-A1', 'OC-C1'] });
      expect(answer.code).toBe(CODES.badInput);
      expect(await everything()).toBe(before);
      expect(await signsIn('half', 'Chamber2026ox')).toEqual({ State: false });
    });

    it('writes nothing when its audit entry cannot be written', async () => {
      await ready();
      const before = await everything();
      const repair = await breakAudit(app.ctx, kind);
      try {
        const answer = await as('first', ADD, { Account: 'unaudited', Code: 'Chamber2026ox', Level: 3, DeviceIds: ['OC-A1'] });
        expect(answer).toMatchObject({ http: 500, code: CODES.failure });
      } finally {
        await repair();
      }
      expect(await everything()).toBe(before);
    });

    it('refuses a taken name, a weak password and unknown fields, naming the field', async () => {
      await ready();
      expect(await as('first', ADD, { Account: 'client', Code: 'Chamber2026ox', Level: 3 })).toMatchObject({
        code: CODES.badInput,
        msg: 'account client already exists',
      });
      const weak = await as('first', ADD, { Account: 'weak', Code: 'chamber', Level: 3 });
      expect(weak.code).toBe(CODES.badInput);
      expect(weak.msg).toContain('Code');
      expect(await as('first', ADD, { Account: 'x', Code: 'Chamber2026ox', Level: 3, SubId: 1 })).toMatchObject({
        code: CODES.badInput,
        msg: 'unknown field: SubId',
      });
      expect(await post(ADD, { Account: 'x', Code: 'Chamber2026ox', Level: 3 }, undefined)).toMatchObject({ http: 401, code: CODES.notSignedIn });
    });
  });

  describe('Admin_reset_Code', () => {
    it('answers a NewCode meeting the rule; the old password and every token stop; the account must change it', async () => {
      await ready();
      const clientToken = tokens.client;
      const reset = await as('first', RESET, { Account: 'client' });
      expect(reset, reset.raw).toMatchObject({ http: 200, code: CODES.ok });
      const NewCode = String(reset.data.NewCode);
      expect(Object.keys(reset.data)).toEqual(['NewCode']);
      expect(NewCode).toHaveLength(RESET_CODE_LENGTH);
      expect(passwordProblem(NewCode, { minLength: DEFAULT_PASSWORD_MIN_LENGTH })).toBeNull();

      expect((await post(INFO, undefined, clientToken)).code).toBe(CODES.notSignedIn);
      expect(await signsIn('client', DEMO.client.Code)).toEqual({ State: false });
      const signIn = await signsIn('client', NewCode);
      expect(signIn).toMatchObject({ State: true, mustChangeCode: true });
      const token = signIn.token ?? '';

      // Until it chooses a new password, only the calls it needs answer.
      const refused = await post(DEVICES, {}, token);
      expect(refused).toEqual(
        expect.objectContaining({ http: 403, code: CODES.forbidden, msg: 'your password was reset: choose a new password first', data: null }),
      );
      expect((await post(DEVICES, {}, token, 'zh-CN')).msg).toBe('密码已被重置，请先设置新密码');
      for (const path of [INFO, '/getUserInfo', MENU]) expect((await post(path, undefined, token)).code, path).toBe(CODES.ok);

      // The generated password is not a password the owner may keep.
      expect(await post(SELF, { OldCode: NewCode, NewCode }, token)).toMatchObject({
        code: CODES.badInput,
        msg: 'the new password must differ from the current one (NewCode)',
      });
      expect(await post(SELF, { OldCode: NewCode, NewCode: 'Chosen2027xy' }, token)).toMatchObject({ code: CODES.ok, data: null });
      // The same session goes on, now unrestricted; the generated password worked once and is gone.
      expect((await post(DEVICES, {}, token)).code).toBe(CODES.ok);
      expect(await signsIn('client', NewCode)).toEqual({ State: false });
      expect(await signsIn('client', 'Chosen2027xy')).toMatchObject({ State: true, mustChangeCode: false });

      const [entry] = await audit('account.resetPassword');
      expect(entry).toMatchObject({
        actor_id: ids.first,
        actor_account: 'first',
        target_type: 'account',
        target_id: 'client',
        before: { mustChangeCode: false },
        after: { mustChangeCode: true, sessionsRevoked: 1 },
      });
      const [change] = await audit('account.changeOwnPassword');
      expect(change).toMatchObject({
        actor_id: ids.client,
        target_id: 'client',
        before: { mustChangeCode: true },
        after: { mustChangeCode: false, sessionsRevoked: 0 },
      });
      const dump = JSON.stringify(await audit());
      for (const secret of [NewCode, 'Chosen2027xy', DEMO.client.Code]) expect(dump).not.toContain(secret);
      const accounts = JSON.stringify(await app.ctx.db.selectFrom('accounts').selectAll().execute());
      expect(accounts).not.toContain(NewCode);
    });

    it('draws a different password each time', async () => {
      await ready();
      const codes = new Set<string>();
      for (let i = 0; i < 5; i += 1) codes.add(String((await as('admin', RESET, { Account: 'second' })).data.NewCode));
      expect(codes.size).toBe(5);
      for (const code of codes) expect(passwordProblem(code, { minLength: DEFAULT_PASSWORD_MIN_LENGTH })).toBeNull();
    });

    it('reaches only accounts strictly below the caller: anything else is the same 40400 as an unknown name', async () => {
      await ready();
      const before = await everything();
      const unknown = await as('first', RESET, { Account: 'ghost' });
      expect(unknown).toMatchObject({ http: 404, code: CODES.notFound, msg: 'account not found', data: null });
      const refused: [DemoName, string][] = [
        ['first', 'first'],
        ['first', 'admin'],
        ['first', 'other'],
        ['first', 'other-client'],
        ['second', 'first'],
        ['second', 'second'],
        ['admin', 'admin'],
      ];
      for (const [who, Account] of refused) {
        const answer = await as(who, RESET, { Account });
        expect(answer.http, `${who} → ${Account}`).toBe(404);
        expect(answer.raw, `${who} → ${Account}`).toBe(unknown.raw);
      }
      expect(await as('client', RESET, { Account: 'client' })).toMatchObject({ http: 403, code: CODES.forbidden });
      expect(await everything()).toBe(before);

      for (const [who, Account] of [
        ['second', 'client'],
        ['first', 'second'],
        ['admin', 'first'],
        ['admin', 'other-client'],
      ] as [DemoName, string][]) {
        expect((await as(who, RESET, { Account })).code, `${who} → ${Account}`).toBe(CODES.ok);
      }
    });

    it('changes nothing when its audit entry cannot be written', async () => {
      await ready();
      const before = await everything();
      const repair = await breakAudit(app.ctx, kind);
      try {
        expect((await as('first', RESET, { Account: 'second' })).code).toBe(CODES.failure);
      } finally {
        await repair();
      }
      expect(await everything()).toBe(before);
      expect((await as('second', INFO, undefined)).code).toBe(CODES.ok);
      expect(await signsIn('second', DEMO.second.Code)).toMatchObject({ State: true, mustChangeCode: false });
    });

    it('never logs the generated or chosen password, even at trace level', async () => {
      const log = capturedLog(loggerOptions('trace'));
      app = buildApp({ config: store.config(), logger: log.logger });
      try {
        await app.ready();
        await migrateToLatest(app.ctx);
        await seedFleet(app.ctx);
        tokens = await demoTokens(app);
        const NewCode = String((await as('first', RESET, { Account: 'client' })).data.NewCode);
        const token = await tokenFor(app, 'client', NewCode);
        expect((await post(SELF, { OldCode: NewCode, NewCode: 'Logged2027xy' }, token)).code).toBe(CODES.ok);
        expect((await post(SELF, { OldCode: 'Wrong2027x', NewCode: 'Other2027xyz' }, token)).code).toBe(CODES.badInput);
        const text = log.text();
        expect(text).toContain('request completed');
        for (const secret of [NewCode, 'Logged2027xy', 'Wrong2027x', 'Other2027xyz', token]) expect(text).not.toContain(secret);
      } finally {
        await app.close();
      }
    });
  });

  describe('self_reset_Code', () => {
    it('needs the current password; a wrong one counts as a sign-in failure and is throttled like sign-in', async () => {
      await ready({ LOGIN_FAILURES_PER_PAIR_PER_HOUR: '3' });
      const failures = async () => (await app.ctx.db.selectFrom('sign_in_attempts').where('succeeded', '=', 0).selectAll().execute()).length;
      const before = await failures();
      for (let i = 0; i < 3; i += 1) {
        const wrong = await as('second', SELF, { OldCode: `Guess${i}2026`, NewCode: 'Fresh2027xyzw' });
        expect(wrong).toMatchObject({ http: 400, code: CODES.badInput, msg: 'the current password is wrong (OldCode)' });
      }
      expect(await failures()).toBe(before + 3);
      // Throttled: even the right password is not checked, and sign-in is throttled as well.
      const throttled = await as('second', SELF, { OldCode: DEMO.second.Code, NewCode: 'Fresh2027xyzw' });
      expect(throttled).toMatchObject({ http: 429, code: CODES.tooManyAttempts, msg: 'too many failed sign-ins, try again later' });
      expect((await login(app, DEMO.second.Account, DEMO.second.Code)).statusCode).toBe(429);
      expect(await failures()).toBe(before + 3);
      expect(await audit('account.changeOwnPassword')).toEqual([]);
    });

    it('sets the new password, keeps the calling session and revokes every other one', async () => {
      await ready();
      const other = await tokenFor(app, DEMO.second.Account, DEMO.second.Code);
      const answer = await as('second', SELF, { OldCode: DEMO.second.Code, NewCode: 'Fresh2027xyzw' });
      expect(answer).toMatchObject({ http: 200, code: CODES.ok, data: null });
      expect((await as('second', INFO, undefined)).code).toBe(CODES.ok);
      expect((await post(INFO, undefined, other)).code).toBe(CODES.notSignedIn);
      expect(await signsIn('second', DEMO.second.Code)).toEqual({ State: false });
      expect(await signsIn('second', 'Fresh2027xyzw')).toMatchObject({ State: true, mustChangeCode: false });
      const [entry] = await audit('account.changeOwnPassword');
      expect(entry).toMatchObject({
        actor_id: ids.second,
        actor_account: 'second',
        target_id: 'second',
        before: { mustChangeCode: false },
        after: { mustChangeCode: false, sessionsRevoked: 1 },
      });
    });

    it('refuses a weak new password and a missing token', async () => {
      await ready();
      const weak = await as('client', SELF, { OldCode: DEMO.client.Code, NewCode: 'short' });
      expect(weak.code).toBe(CODES.badInput);
      expect(weak.msg).toContain('NewCode');
      expect((await post(SELF, { OldCode: DEMO.client.Code, NewCode: 'Fresh2027xyzw' }, undefined)).code).toBe(CODES.notSignedIn);
      expect(await signsIn('client', DEMO.client.Code)).toMatchObject({ State: true });
    });
  });

  describe('must change the password first', () => {
    it('holds the generated bootstrap password to every call but the few allowed, until the owner changes it', async () => {
      app = await store.app();
      let printed = '';
      await bootstrap(app.ctx, (line) => {
        printed = line;
      });
      const password = /password: (\S+)/.exec(printed)?.[1] ?? '';
      const signIn = envelope<LoginData>(await login(app, 'admin', password)).data;
      expect(signIn).toMatchObject({ State: true, Level: 0, mustChangeCode: true });
      const token = signIn.token ?? '';
      const spare = await tokenFor(app, 'admin', password);

      const held = [
        [ADMINS, {}],
        [DEVICES, {}],
        ['/list/get_OCState', {}],
        ['/list/get_Records', {}],
        [ADD, { Account: 'ops', Code: 'Chamber2026ox', Level: 1 }],
        ['/createUser', { Account: 'ops', Code: 'Chamber2026ox', Level: 1 }],
        [RESET, { Account: 'ops' }],
        [ASSIGN, { Account: 'ops', DeviceIds: [] }],
        ['/device/update_OCProperty', { Id: 'OC-1', name: 'n', Type: 1, Location: 'l' }],
      ] as const;
      for (const [path, body] of held) {
        expect(await post(path, body, token), path).toMatchObject({ http: 403, code: CODES.forbidden, data: null });
      }
      for (const path of [INFO, '/getUserInfo', MENU]) expect((await post(path, undefined, token)).code, path).toBe(CODES.ok);
      expect((await post(LOGOUT, undefined, spare)).code).toBe(CODES.ok);

      expect((await post('/updateUserPwd', { OldCode: password, NewCode: 'Chosen2027xy' }, token)).code).toBe(CODES.ok);
      expect((await post(ADMINS, {}, token)).code).toBe(CODES.ok);
      expect((await post(ADD, { Account: 'ops', Code: 'Chamber2026ox', Level: 1 }, token)).code).toBe(CODES.ok);
    });
  });

  describe('assign_Devices', () => {
    it('sets exactly the given devices, takes removed ones from the whole subtree, answers as get_Admins and audits', async () => {
      await ready();
      // second gives client OC-A2 too, so that first's change below has something to take from below.
      expect(await as('second', ASSIGN, { Account: 'client', DeviceIds: ['OC-A1', 'OC-A2'] })).toMatchObject({
        code: CODES.ok,
        data: { Account: 'client', DeviceIds: ['OC-A1', 'OC-A2'] },
      });
      const answer = await as('first', ASSIGN, { Account: 'second', DeviceIds: ['OC-B1', 'OC-A1', 'OC-B1'] });
      expect(answer, answer.raw).toMatchObject({ http: 200, code: CODES.ok });
      const expected = { Account: 'second', SubId: ids.first, Level: 2, SubAdmin: 'first', DeviceIds: ['OC-A1', 'OC-B1'], Disabled: false };
      expect(answer.data).toEqual(expected);
      expect((await as('first', ADMINS, { filter: { Account: ['second'] } })).data.list).toEqual([expected]);
      expect(await devicesOf('second')).toEqual(['OC-A1', 'OC-B1']);
      expect(await devicesOf('client')).toEqual(['OC-A1']);
      expect(await devicesOf('first')).toEqual(FLEET_ASSIGNMENTS.first);

      const entries = await audit('account.assignDevices');
      expect(entries).toHaveLength(2);
      expect(entries[1]).toMatchObject({
        actor_id: ids.first,
        actor_account: 'first',
        target_type: 'account',
        target_id: 'second',
        device_id: null,
        before: { DeviceIds: ['OC-A1', 'OC-A2'] },
        after: { DeviceIds: ['OC-A1', 'OC-B1'], removedBelow: { client: ['OC-A2'] } },
      });

      // Taking everything away empties the subtree of those devices.
      expect((await as('first', ASSIGN, { Account: 'second', DeviceIds: [] })).data).toMatchObject({ DeviceIds: [] });
      expect(await devicesOf('second')).toEqual([]);
      expect(await devicesOf('client')).toEqual([]);
    });

    it('assigns only devices the caller manages; out of reach and nonexistent get the same answer; nothing written', async () => {
      await ready();
      const before = await everything();
      const outOfReach = await as('second', ASSIGN, { Account: 'client', DeviceIds: ['OC-B1'] });
      const missing = await as('second', ASSIGN, { Account: 'client', DeviceIds: ['OC-Q9'] });
      expect(outOfReach).toMatchObject({ http: 400, code: CODES.badInput, msg: 'device OC-B1 is not one you manage (DeviceIds)' });
      expect(missing.raw.replace('OC-Q9', 'OC-B1')).toBe(outOfReach.raw);
      expect(await everything()).toBe(before);
      // The super administrator manages every device.
      expect((await as('admin', ASSIGN, { Account: 'first', DeviceIds: ['OC-C2'] })).data).toMatchObject({ DeviceIds: ['OC-C2'] });
    });

    it('reaches only accounts strictly below the caller (the same 40400 as an unknown name); never a super administrator', async () => {
      await ready();
      const before = await everything();
      const unknown = await as('first', ASSIGN, { Account: 'ghost', DeviceIds: [] });
      expect(unknown).toMatchObject({ http: 404, code: CODES.notFound, msg: 'account not found' });
      for (const [who, Account] of [
        ['first', 'first'],
        ['first', 'admin'],
        ['first', 'other'],
        ['second', 'first'],
        ['second', 'second'],
        ['admin', 'admin'],
      ] as [DemoName, string][]) {
        expect((await as(who, ASSIGN, { Account, DeviceIds: [] })).raw, `${who} → ${Account}`).toBe(unknown.raw);
      }
      expect(await as('client', ASSIGN, { Account: 'client', DeviceIds: [] })).toMatchObject({ http: 403, code: CODES.forbidden });
      expect(await everything()).toBe(before);

      await createAccount(app.ctx, { account: 'root-2', password: 'Root2026x', level: 0, subId: null });
      expect(await as('admin', ASSIGN, { Account: 'root-2', DeviceIds: [] })).toMatchObject({
        http: 400,
        code: CODES.badInput,
        msg: 'Account is invalid',
      });
    });

    it("leaves devices the caller does not manage as they are: they are out of the caller's reach", async () => {
      await ready();
      // The super administrator gives second a device first does not manage.
      await as('admin', ASSIGN, { Account: 'second', DeviceIds: ['OC-A1', 'OC-A2', 'OC-C1'] });
      const answer = await as('first', ASSIGN, { Account: 'second', DeviceIds: ['OC-A1'] });
      expect(answer.data).toMatchObject({ DeviceIds: ['OC-A1'] });
      expect(await devicesOf('second')).toEqual(['OC-A1', 'OC-C1']);
    });

    it('changes nothing when its audit entry cannot be written', async () => {
      await ready();
      const before = await everything();
      const repair = await breakAudit(app.ctx, kind);
      try {
        expect((await as('first', ASSIGN, { Account: 'second', DeviceIds: ['OC-B1'] })).code).toBe(CODES.failure);
      } finally {
        await repair();
      }
      expect(await everything()).toBe(before);
    });
  });

  describe('aliases', () => {
    it('names the four aliases of the old console', () => {
      expect(UPSTREAM_ALIASES).toEqual({
        '/createUser': ADD,
        '/resetUserPwd': RESET,
        '/getUserInfo': INFO,
        '/updateUserPwd': SELF,
      });
    });

    it('answer exactly like their calls: same schema, guards and handler', async () => {
      await ready();
      const same = async (alias: string, path: string, body: unknown, who: DemoName | null) => {
        const token = who === null ? undefined : tokens[who];
        const [viaAlias, viaCall] = [await post(alias, body, token), await post(path, body, token)];
        expect(viaAlias.raw, `${alias} as ${String(who)}`).toBe(viaCall.raw);
        expect(viaAlias.http).toBe(viaCall.http);
      };
      for (const [alias, path] of Object.entries(UPSTREAM_ALIASES)) {
        await same(alias, path, { Unknown: 1 }, 'first');
        await same(alias, path, {}, null);
        if (path !== INFO && path !== SELF) await same(alias, path, { Account: 'first', Code: 'Chamber2026ox', Level: 3 }, 'client');
      }
      await same('/getUserInfo', INFO, undefined, 'second');
      // Refusals that depend on the data answer alike too.
      await same('/createUser', ADD, { Account: 'client', Code: 'Chamber2026ox', Level: 3 }, 'first');
      await same('/resetUserPwd', RESET, { Account: 'admin' }, 'first');
      await same('/updateUserPwd', SELF, { OldCode: 'Wrong2026x', NewCode: 'Fresh2027xyzw' }, 'client');

      const created = await as('first', '/createUser', { Account: 'via-alias', Code: 'Chamber2026ox', Level: 3, DeviceIds: ['OC-A2'] });
      expect(created.data).toEqual({ Account: 'via-alias', SubId: ids.first, Level: 3, SubAdmin: 'first', DeviceIds: ['OC-A2'], Disabled: false });
      const NewCode = String((await as('first', '/resetUserPwd', { Account: 'via-alias' })).data.NewCode);
      const token = await tokenFor(app, 'via-alias', NewCode);
      expect((await post('/updateUserPwd', { OldCode: NewCode, NewCode: 'Alias2027xyz' }, token)).code).toBe(CODES.ok);
      expect(await signsIn('via-alias', 'Alias2027xyz')).toMatchObject({ State: true, mustChangeCode: false });
      expect((await audit()).map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['account.create', 'account.resetPassword', 'account.changeOwnPassword']),
      );
    });
  });

  describe('/api/user/menu', () => {
    it("answers the screens the caller's role may open", async () => {
      await ready();
      for (const who of Object.keys(DEMO) as DemoName[]) {
        const level = ({ admin: 0, first: 1, second: 2, client: 3 } as const)[who];
        const answer = await as(who, MENU, undefined);
        expect(answer.code).toBe(CODES.ok);
        const expected = menuRoutesFor(levelToRole(level)).map(({ path, labelKey, group }) => ({ path, name: labelKey, group }));
        expect(answer.data, who).toEqual(expected);
      }
      const paths = async (who: DemoName) => ((await as(who, MENU, {})).data as unknown as { path: string }[]).map((entry) => entry.path);
      expect(await paths('client')).not.toContain('/other/manager');
      expect(await paths('second')).toContain('/other/manager');
      expect(await paths('admin')).toContain('/exception/403');
      expect(await paths('first')).not.toContain('/exception/403');
      expect(await paths('client')).toContain('/dashboard/workplace');
      expect((await post(MENU, undefined, undefined)).code).toBe(CODES.notSignedIn);
    });
  });
});
