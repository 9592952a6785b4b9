import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { bootstrap } from '../../server/accounts/bootstrap';
import { DEMO_ACCOUNTS } from '../../src/domain/demo';
import { seedDemo } from '../../server/accounts/demo';
import {
  createAccount,
  findAccount,
  insertAccount,
  prepareAccount,
  storePassword,
} from '../../server/accounts/service';
import { hashToken } from '../../server/auth/tokens';
import { loadConfig } from '../../server/config';
import { call, DEMO, envelope, login, tokenFor, type LoginData } from './http';
import { STORE_KINDS, TEST_ENV, useStore } from './stores';

describe.each(STORE_KINDS)('accounts (%s)', (kind) => {
  const store = useStore(kind);
  beforeEach(() => store.wipe());

  const idOf = async (account: string): Promise<number> => {
    const ctx = store.context();
    const row = await findAccount(ctx, account);
    if (row === undefined) throw new Error(`no account ${account}`);
    return row.id;
  };

  describe('createAccount', () => {
    it('keeps the tree whole: one root without an upper administrator, others under a lower Level number', async () => {
      const ctx = store.context();
      const root = await createAccount(ctx, { account: 'root', password: 'Root2026x', level: 0, subId: null });
      expect(root).toMatchObject({ level: 0, sub_id: null, disabled: 0, must_change_code: 0, avatar: '' });
      expect(typeof root.created_at).toBe('number');
      const child = await createAccount(ctx, { account: 'child', password: 'Child2026x', subId: root.id });
      expect(child).toMatchObject({ level: 3, sub_id: root.id });

      const bad = [
        { account: 'orphan', password: 'Orphan2026x', level: 2 as const, subId: null },
        { account: 'peer', password: 'Peer2026x', level: 3 as const, subId: child.id },
        { account: 'second-root', password: 'Root2026x', level: 0 as const, subId: root.id },
      ];
      for (const input of bad) await expect(createAccount(ctx, input)).rejects.toMatchObject({ code: CODES.badInput });
      await expect(createAccount(ctx, { account: 'child', password: 'Child2026x', subId: root.id })).rejects.toMatchObject({
        code: CODES.badInput,
        key: 'account.exists',
      });
    });
  });

  describe('in a transaction', () => {
    it('hashes before the transaction; an account inserted in a transaction that fails later is not there', async () => {
      const ctx = store.context();
      await seedDemo(ctx);
      const prepared = await prepareAccount(ctx, { account: ' later ', password: 'Later2026x', level: 3, subId: await idOf('second') });
      expect(prepared).toMatchObject({ account: 'later', level: 3, mustChangeCode: false });
      expect(prepared.passwordHash).toMatch(/^scrypt\$/);
      await expect(
        ctx.db.transaction().execute(async (trx) => {
          const row = await insertAccount(trx, ctx.now(), prepared);
          expect(row.account).toBe('later');
          throw new Error('a later step failed');
        }),
      ).rejects.toThrow('a later step failed');
      expect(await findAccount(ctx, 'later')).toBeUndefined();
    });

    it('answers a taken name with 40000 and leaves the transaction usable (no aborted PostgreSQL transaction)', async () => {
      const ctx = store.context();
      await seedDemo(ctx);
      const prepared = await prepareAccount(ctx, { account: 'client', password: 'Client2027x', level: 3, subId: await idOf('second') });
      const after = await ctx.db.transaction().execute(async (trx) => {
        await expect(insertAccount(trx, ctx.now(), prepared)).rejects.toMatchObject({ code: CODES.badInput, key: 'account.exists' });
        return trx.selectFrom('accounts').select('account').where('account', '=', 'client').execute();
      });
      expect(after).toEqual([{ account: 'client' }]);
    });

    it('storePassword keeps the one token asked for and revokes the others', async () => {
      const app = await store.app();
      await seedDemo(app.ctx);
      const kept = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      const other = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      const hash = await app.ctx.passwords.hash('Kept2027x');
      await expect(
        app.ctx.db.transaction().execute((trx) => storePassword(trx, app.ctx.now(), 999_999, hash)),
      ).rejects.toMatchObject({ code: CODES.notFound, key: 'account.notFound' });
      const count = await app.ctx.db
        .transaction()
        .execute(async (trx) => storePassword(trx, app.ctx.now(), await idOf('first'), hash, { keepTokenHash: hashToken(kept) }));
      expect(count).toBe(1);
      expect(envelope(await call(app, '/api/user/info', undefined, { token: kept })).code).toBe(CODES.ok);
      expect(envelope(await call(app, '/api/user/info', undefined, { token: other })).code).toBe(CODES.notSignedIn);
      expect(envelope<LoginData>(await login(app, 'first', 'Kept2027x')).data.State).toBe(true);
    });
  });

  it('stores no password and no token in clear, in any table', async () => {
    const app = await store.app();
    await seedDemo(app.ctx);
    const typed = ['Typo2026x', 'Nobody2026x'];
    await login(app, 'admin', typed[0] ?? '');
    await login(app, 'nobody', typed[1] ?? '');
    const token = await tokenFor(app, DEMO.admin.Account, DEMO.admin.Code);
    const client = await tokenFor(app, DEMO.client.Account, DEMO.client.Code);
    const changed = await call(app, '/code/self_reset_Code', { OldCode: DEMO.client.Code, NewCode: 'Changed2027x' }, { token: client });
    expect(envelope(changed).code).toBe(CODES.ok);

    const secrets = [...Object.values(DEMO).map((demo) => demo.Code), ...typed, 'Changed2027x', token];
    const tables = await app.ctx.db.introspection.getTables();
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['accounts', 'sessions', 'sign_in_attempts']));
    let rows = 0;
    for (const table of tables) {
      const result = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(app.ctx.db);
      rows += result.rows.length;
      const dump = JSON.stringify(result.rows);
      for (const secret of secrets) expect(dump, `${table.name} holds a secret`).not.toContain(secret);
    }
    expect(rows).toBeGreaterThan(5);
    const hashes = await app.ctx.db.selectFrom('accounts').select('password_hash').execute();
    for (const { password_hash } of hashes) expect(password_hash).toMatch(/^scrypt\$12\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
  });

  describe('bootstrap', () => {
    it('creates exactly one super administrator on first start and prints its random password once', async () => {
      const printed: string[] = [];
      const first = await store.app();
      expect(await bootstrap(first.ctx, (line) => printed.push(line))).toEqual({ created: true, account: 'admin' });
      await first.close();

      const rows = await store.database.db.selectFrom('accounts').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ account: 'admin', level: 0, sub_id: null, must_change_code: 1 });

      expect(printed).toHaveLength(1);
      const password = /password: (\S+)/.exec(printed[0] ?? '')?.[1] ?? '';
      expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9]{20}$/);
      expect(rows[0]?.password_hash).not.toContain(password);

      // Second start: nothing created, nothing printed.
      const second = await store.app();
      expect(await bootstrap(second.ctx, (line) => printed.push(line))).toEqual({ created: false });
      expect(printed).toHaveLength(1);
      expect(await store.database.db.selectFrom('accounts').select('id').execute()).toHaveLength(1);

      const signIn = envelope<LoginData>(await login(second, 'admin', password)).data;
      expect(signIn).toMatchObject({ State: true, Level: 0, mustChangeCode: true });
    });

    it('uses ADMIN_ACCOUNT / ADMIN_PASSWORD when given, and prints nothing', async () => {
      const printed: string[] = [];
      const app = await store.app({ env: { ADMIN_ACCOUNT: 'chief', ADMIN_PASSWORD: 'Chief2026xyz' } });
      expect(await bootstrap(app.ctx, (line) => printed.push(line))).toEqual({ created: true, account: 'chief' });
      expect(printed).toEqual([]);
      expect(envelope<LoginData>(await login(app, 'chief', 'Chief2026xyz')).data).toMatchObject({
        State: true,
        mustChangeCode: false,
      });
    });
  });

  describe('demo seeding', () => {
    it('creates the chain admin → first → second → client, idempotently', async () => {
      // --demo: ADMIN_PASSWORD defaults to Admin2026.
      const config = loadConfig({ ...TEST_ENV, DATA_DIR: store.dir }, { demo: true });
      expect(config.adminPassword).toBe('Admin2026');
      const app = await store.app();
      const printed: string[] = [];
      const ctx = { ...app.ctx, config: { ...app.ctx.config, adminPassword: config.adminPassword } };
      await bootstrap(ctx, (line) => printed.push(line));
      expect(printed).toEqual([]);
      expect(await seedDemo(ctx)).toEqual(DEMO_ACCOUNTS.map((demo) => demo.account));
      expect(await seedDemo(ctx)).toEqual([]);

      const rows = await app.ctx.db.selectFrom('accounts').select(['id', 'account', 'level', 'sub_id']).orderBy('level').execute();
      expect(rows.map((row) => [row.account, row.level])).toEqual([
        ['admin', 0],
        ['first', 1],
        ['second', 2],
        ['client', 3],
      ]);
      for (let i = 1; i < rows.length; i += 1) expect(rows[i]?.sub_id).toBe(rows[i - 1]?.id);
      for (const { Account, Code } of Object.values(DEMO)) {
        expect(envelope<LoginData>(await login(app, Account, Code)).data.State).toBe(true);
      }
    });
  });
});
