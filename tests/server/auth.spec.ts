import { beforeEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../src/domain/auth';
import { CODES } from '../../src/domain/envelope';
import { seedDemo } from '../../server/accounts/demo';
import { requireAccess, requireRole, requireSignIn, signInGuard, signedIn } from '../../server/auth/guard';
import { ok } from '../../server/http/envelope';
import { call, DEMO, envelope, login, tokenFor, type LoginData } from './http';
import { fakeClock, HOUR, MINUTE, STORE_KINDS, useStore } from './stores';

describe.each(STORE_KINDS)('sign-in and tokens (%s)', (kind) => {
  const store = useStore(kind);
  beforeEach(() => store.wipe());

  const demoApp = async (options: Parameters<typeof store.app>[0] = {}) => {
    const app = await store.app(options);
    await seedDemo(app.ctx);
    return app;
  };

  it('signs in, and the token opens /api/user/info with the right fields', async () => {
    const clock = fakeClock();
    const app = await demoApp({ now: clock.now });
    const response = await login(app, DEMO.second.Account, DEMO.second.Code);
    expect(response.statusCode).toBe(200);
    const body = envelope<LoginData>(response);
    expect(body).toMatchObject({ status: 'ok', code: CODES.ok });
    expect(body.data).toMatchObject({ State: true, Account: 'second', Level: 2, mustChangeCode: false });
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.expiresAt).toBe(new Date(clock.now() + 12 * HOUR).toISOString());

    const info = await call(app, '/api/user/info', undefined, { token: body.data.token });
    expect(info.statusCode).toBe(200);
    const first = await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'first').executeTakeFirstOrThrow();
    expect(envelope<CurrentUser>(info).data).toEqual({
      Account: 'second',
      SubId: first.id,
      SubAdmin: 'first',
      Level: 2,
      role: 'lowUser',
      avatar: '',
      passwordMinLength: 12,
    });
  });

  it('maps every level to its role; the super administrator has no upper administrator', async () => {
    const app = await demoApp();
    const expected = { admin: ['admin', 0, null], first: ['user', 1, 'admin'], second: ['lowUser', 2, 'first'], client: ['client', 3, 'second'] };
    for (const [name, [role, level, upper]] of Object.entries(expected)) {
      const { Account, Code } = DEMO[name as keyof typeof DEMO];
      const token = await tokenFor(app, Account, Code);
      const user = envelope<CurrentUser>(await call(app, '/api/user/info', {}, { token })).data;
      expect(user).toMatchObject({ Account, role, Level: level, SubAdmin: upper });
      if (upper === null) expect(user.SubId).toBeNull();
    }
  });

  it('answers a wrong password and an unknown account byte for byte alike', async () => {
    const app = await demoApp();
    const wrong = await login(app, 'admin', 'Wrong2026');
    const unknown = await login(app, 'nobody', 'Wrong2026');
    expect(wrong.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
    expect(JSON.parse(wrong.body)).toEqual({
      data: { State: false },
      status: 'ok',
      msg: '账号或密码错误',
      code: CODES.ok,
    });
    const english = await login(app, 'admin', 'Wrong2026', { lang: 'en-US,en;q=0.9' });
    expect(envelope(english).msg).toBe('account or password wrong');
  });

  it('refuses a disabled account exactly like a wrong password', async () => {
    const app = await demoApp();
    await app.ctx.db.updateTable('accounts').set({ disabled: 1 }).where('account', '=', 'client').execute();
    const disabled = await login(app, DEMO.client.Account, DEMO.client.Code);
    const wrong = await login(app, 'first', 'Nope12345');
    expect(disabled.body).toBe(wrong.body);
  });

  it('answers an empty Account with 40000 naming it, in the caller\'s language', async () => {
    const app = await demoApp();
    const zh = await login(app, '', 'Admin2026');
    expect(zh.statusCode).toBe(400);
    expect(envelope(zh)).toEqual({ data: null, status: 'fail', msg: '用户名不能为空（Account）', code: CODES.badInput });

    const en = await login(app, '   ', 'Admin2026', { lang: 'en-GB' });
    expect(envelope(en).code).toBe(CODES.badInput);
    expect(envelope(en).msg).toBe('username cannot be empty (Account)');

    const noCode = await login(app, 'admin', '', { lang: 'en' });
    expect(envelope(noCode).msg).toBe('password cannot be empty (Code)');

    const zhFirst = await login(app, '', 'x', { lang: 'zh-TW,en;q=0.5' });
    expect(envelope(zhFirst).msg).toContain('用户名不能为空');
  });

  it('answers an unknown field with 40000 naming it', async () => {
    const app = await demoApp();
    const response = await call(app, '/login', { Account: 'admin', Code: 'Admin2026', Remember: true }, { lang: 'en-US' });
    expect(response.statusCode).toBe(400);
    expect(envelope(response)).toMatchObject({ code: CODES.badInput, status: 'fail', data: null });
    expect(envelope(response).msg).toBe('unknown field: Remember');
  });

  it('answers other bad input with 40000: wrong types, missing fields, broken JSON, no body', async () => {
    const app = await demoApp();
    const wrongType = envelope(await call(app, '/login', { Account: 5, Code: 'x' }, { lang: 'en-US' }));
    expect(wrongType).toMatchObject({ code: CODES.badInput, msg: 'Account must be a string' });
    const missing = envelope(await call(app, '/login', { Account: 'admin' }, { lang: 'en-US' }));
    expect(missing).toMatchObject({ code: CODES.badInput, msg: 'password cannot be empty (Code)' });
    const broken = await app.inject({
      method: 'POST',
      url: '/upstream/login',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US' },
      payload: '{"Account":',
    });
    expect(broken.statusCode).toBe(400);
    expect(envelope(broken)).toMatchObject({ code: CODES.badInput, msg: 'the request body is not valid JSON' });
    const none = await app.inject({ method: 'POST', url: '/upstream/login', headers: { 'accept-language': 'en-US' } });
    expect(envelope(none)).toMatchObject({ code: CODES.badInput, msg: 'body must be an object' });
  });

  it('accepts the no-payload calls with an empty JSON body, as react-admin sends them', async () => {
    const app = await demoApp();
    const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    const response = await app.inject({
      method: 'POST',
      url: '/upstream/api/user/info',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(envelope(response).code).toBe(CODES.ok);
  });

  it('answers 50008 without a token, with a bad or unknown one', async () => {
    const app = await demoApp();
    const cases: Record<string, string>[] = [{}, { authorization: 'Bearer nonsense' }, { authorization: `Bearer ${'A'.repeat(43)}` }, { authorization: 'Basic abc' }];
    for (const headers of cases) {
      const response = await call(app, '/api/user/info', undefined, { headers, lang: 'en-US' });
      expect(response.statusCode).toBe(401);
      expect(envelope(response)).toEqual({ data: null, status: 'fail', msg: 'not logged in', code: CODES.notSignedIn });
    }
  });

  it('throttles an account after its failures, with 42900 even for the right password', async () => {
    const app = await demoApp({ env: { LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '3' } });
    for (let i = 0; i < 3; i += 1) {
      const response = await login(app, 'admin', `Wrong${i}Aa`, { address: `10.0.0.${i + 1}` });
      expect(envelope<LoginData>(response).data.State).toBe(false);
    }
    const throttled = await login(app, DEMO.admin.Account, DEMO.admin.Code, { address: '10.0.0.9', lang: 'en-US' });
    expect(throttled.statusCode).toBe(429);
    expect(envelope(throttled)).toEqual({
      data: null,
      status: 'fail',
      msg: 'too many failed sign-ins, try again later',
      code: CODES.tooManyAttempts,
    });
    // Other accounts are not affected.
    expect(envelope<LoginData>(await login(app, DEMO.first.Account, DEMO.first.Code)).data.State).toBe(true);
  });

  it('counts failures for unknown accounts the same way, and forgets them after an hour', async () => {
    const clock = fakeClock();
    const app = await demoApp({ now: clock.now, env: { LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '2' } });
    await login(app, 'ghost', 'Wrong1Aa');
    await login(app, 'ghost', 'Wrong2Aa');
    expect((await login(app, 'ghost', 'Wrong3Aa')).statusCode).toBe(429);
    clock.advance(HOUR + MINUTE);
    expect((await login(app, 'ghost', 'Wrong4Aa')).statusCode).toBe(200);
  });

  it('throttles an address after its failures, whatever the account', async () => {
    const app = await demoApp({ env: { LOGIN_FAILURES_PER_ADDRESS_PER_HOUR: '3' } });
    const attacker = '203.0.113.7';
    for (const name of ['a1', 'a2', 'a3']) await login(app, name, 'Wrong1Aa', { address: attacker });
    const throttled = await login(app, DEMO.first.Account, DEMO.first.Code, { address: attacker });
    expect(throttled.statusCode).toBe(429);
    expect(envelope(throttled).code).toBe(CODES.tooManyAttempts);
    // Another address still signs in.
    const other = await login(app, DEMO.first.Account, DEMO.first.Code, { address: '198.51.100.1' });
    expect(envelope<LoginData>(other).data.State).toBe(true);
  });

  it('keeps the throttle across a restart (it lives in the database)', async () => {
    const env = { LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '2' };
    const before = await demoApp({ env });
    await login(before, 'admin', 'Wrong1Aa');
    await login(before, 'admin', 'Wrong2Aa');
    await before.close();
    const after = await store.app({ env });
    expect((await login(after, DEMO.admin.Account, DEMO.admin.Code)).statusCode).toBe(429);
  });

  it('expires a token left idle for more than 30 minutes', async () => {
    const clock = fakeClock();
    const app = await demoApp({ now: clock.now });
    const token = await tokenFor(app, DEMO.client.Account, DEMO.client.Code);
    clock.advance(29 * MINUTE);
    expect((await call(app, '/api/user/info', undefined, { token })).statusCode).toBe(200);
    clock.advance(29 * MINUTE); // used 29 minutes ago: still alive
    expect((await call(app, '/api/user/info', undefined, { token })).statusCode).toBe(200);
    clock.advance(31 * MINUTE);
    const expired = await call(app, '/api/user/info', undefined, { token });
    expect(expired.statusCode).toBe(401);
    expect(envelope(expired).code).toBe(CODES.notSignedIn);
  });

  it('expires a token 12 hours after sign-in even when it is used all the time', async () => {
    const clock = fakeClock();
    const app = await demoApp({ now: clock.now });
    const token = await tokenFor(app, DEMO.client.Account, DEMO.client.Code);
    for (let elapsed = 0; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
      clock.advance(20 * MINUTE);
      expect((await call(app, '/api/user/info', undefined, { token })).statusCode).toBe(200);
    }
    clock.advance(20 * MINUTE); // now exactly 12 h after sign-in
    expect(envelope(await call(app, '/api/user/info', undefined, { token })).code).toBe(CODES.notSignedIn);
  });

  it('writes last_used_at at most once a minute', async () => {
    const clock = fakeClock();
    const app = await demoApp({ now: clock.now });
    const token = await tokenFor(app, DEMO.client.Account, DEMO.client.Code);
    const lastUsed = async () =>
      (await app.ctx.db.selectFrom('sessions').select('last_used_at').executeTakeFirstOrThrow()).last_used_at;
    const signedInAt = clock.now();
    clock.advance(30_000);
    await call(app, '/api/user/info', undefined, { token });
    expect(await lastUsed()).toBe(signedInAt);
    clock.advance(31_000);
    await call(app, '/api/user/info', undefined, { token });
    expect(await lastUsed()).toBe(clock.now());
  });

  it('revokes the token on logout', async () => {
    const app = await demoApp();
    const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    const other = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    const logout = await call(app, '/api/user/logout', undefined, { token });
    expect(logout.statusCode).toBe(200);
    expect(envelope(logout)).toMatchObject({ code: CODES.ok, status: 'ok', data: null });
    expect(envelope(await call(app, '/api/user/info', undefined, { token })).code).toBe(CODES.notSignedIn);
    expect(envelope(await call(app, '/api/user/logout', undefined, { token })).code).toBe(CODES.notSignedIn);
    // Only that token: another session of the same account lives on.
    expect(envelope(await call(app, '/api/user/info', undefined, { token: other })).code).toBe(CODES.ok);
  });

  it('stores only the sha256 of tokens', async () => {
    const app = await demoApp();
    const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    const rows = await app.ctx.db.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 40400 for any other path under the prefix, whatever the method', async () => {
    const app = await demoApp();
    for (const method of ['POST', 'GET', 'PUT'] as const) {
      const response = await app.inject({ method, url: '/upstream/no/such/call', headers: { 'accept-language': 'en-US' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ data: null, status: 'fail', msg: 'not found', code: CODES.notFound });
    }
    expect((await app.inject({ method: 'GET', url: '/upstream' })).json()).toMatchObject({ code: CODES.notFound });
  });

  it('guards routes with requireAccess / requireRole (canAccess of the shared policy): 40300 when refused', async () => {
    const app = await store.app({
      setup(instance) {
        void instance.register(
          async (scope) => {
            scope.post('/test/create-device', { preHandler: requireAccess({ resource: 'devices', action: 'create' }) }, async (request) =>
              ok(signedIn(request).account),
            );
            scope.post('/test/admins', { preHandler: requireRole('admin', 'user') }, async (request) =>
              ok(signedIn(request).role),
            );
          },
          { prefix: '/upstream' },
        );
      },
    });
    await seedDemo(app.ctx);
    const admin = await tokenFor(app, DEMO.admin.Account, DEMO.admin.Code);
    const first = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    const client = await tokenFor(app, DEMO.client.Account, DEMO.client.Code);

    expect(envelope(await call(app, '/test/create-device', undefined, { token: admin }))).toMatchObject({ code: CODES.ok, data: 'admin' });
    const refused = await call(app, '/test/create-device', undefined, { token: first, lang: 'en-US' });
    expect(refused.statusCode).toBe(403);
    expect(envelope(refused)).toEqual({ data: null, status: 'fail', msg: 'access denied', code: CODES.forbidden });
    expect(envelope(await call(app, '/test/create-device')).code).toBe(CODES.notSignedIn);
    expect(envelope(await call(app, '/test/admins', undefined, { token: first })).data).toBe('user');
    expect(envelope(await call(app, '/test/admins', undefined, { token: client })).code).toBe(CODES.forbidden);
  });

  it('refuses an account that must change its password in every guard, unless the route opts in', async () => {
    const app = await store.app({
      setup(instance) {
        void instance.register(
          async (scope) => {
            scope.post('/test/signed-in', { onRequest: requireSignIn }, async (request) => ok(signedIn(request).mustChangeCode));
            scope.post('/test/access', { onRequest: requireAccess({ resource: 'devices', action: 'list' }) }, async () => ok('access'));
            scope.post('/test/role', { onRequest: requireRole('client') }, async () => ok('role'));
            scope.post('/test/opted-in', { onRequest: signInGuard({ allowMustChangeCode: true }) }, async (request) =>
              ok(signedIn(request).mustChangeCode),
            );
            scope.post(
              '/test/access-opted-in',
              { onRequest: requireAccess({ resource: 'devices', action: 'list' }, { allowMustChangeCode: true }) },
              async () => ok('access'),
            );
          },
          { prefix: '/upstream' },
        );
      },
    });
    await seedDemo(app.ctx);
    const free = await tokenFor(app, DEMO.client.Account, DEMO.client.Code);
    for (const path of ['/test/signed-in', '/test/access', '/test/role', '/test/opted-in', '/test/access-opted-in']) {
      expect(envelope(await call(app, path, undefined, { token: free })).code, path).toBe(CODES.ok);
    }
    expect(envelope(await call(app, '/test/signed-in', undefined, { token: free })).data).toBe(false);

    await app.ctx.db.updateTable('accounts').set({ must_change_code: 1 }).where('account', '=', 'client').execute();
    // Read from the database at every call: the same token is held at once.
    for (const path of ['/test/signed-in', '/test/access', '/test/role']) {
      const response = await call(app, path, undefined, { token: free, lang: 'en-US' });
      expect(response.statusCode, path).toBe(403);
      expect(envelope(response), path).toEqual({
        data: null,
        status: 'fail',
        msg: 'your password was reset: choose a new password first',
        code: CODES.forbidden,
      });
    }
    expect(envelope(await call(app, '/test/opted-in', undefined, { token: free })).data).toBe(true);
    expect(envelope(await call(app, '/test/access-opted-in', undefined, { token: free })).code).toBe(CODES.ok);
    // Not signed in is still 50008 first.
    expect(envelope(await call(app, '/test/opted-in')).code).toBe(CODES.notSignedIn);
  });

  describe('audit trail', () => {
    const entries = async (app: Awaited<ReturnType<typeof demoApp>>) =>
      app.ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

    it('records a sign-in with the account as actor, and a sign-out', async () => {
      const clock = fakeClock();
      const app = await demoApp({ now: clock.now });
      const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      const first = await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'first').executeTakeFirstOrThrow();
      clock.advance(MINUTE);
      await call(app, '/api/user/logout', undefined, { token, address: '198.51.100.4' });
      const [signIn, signOut, ...rest] = await entries(app);
      expect(rest).toEqual([]);
      expect(signIn).toMatchObject({
        at: clock.now() - MINUTE,
        action: 'auth.signIn',
        actor_id: first.id,
        actor_account: 'first',
        target_type: 'account',
        target_id: 'first',
        device_id: null,
        address: '127.0.0.1',
        before: null,
      });
      expect(JSON.parse(signIn?.after ?? 'null')).toEqual({ mustChangeCode: false });
      expect(signOut).toMatchObject({
        at: clock.now(),
        action: 'auth.signOut',
        actor_id: first.id,
        actor_account: 'first',
        target_id: 'first',
        address: '198.51.100.4',
      });
      const dump = JSON.stringify(await entries(app));
      for (const secret of [token, DEMO.first.Code]) expect(dump).not.toContain(secret);
    });

    it('records a refused sign-in without an actor id, under the name as typed, and nothing for a throttled one', async () => {
      const app = await demoApp({ env: { LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '2' } });
      await login(app, 'admin', 'Wrong2026x', { address: '203.0.113.9' });
      await login(app, '  nobody ', 'Wrong2026x', { address: '203.0.113.9' });
      await login(app, 'admin', 'Wrong2027x', { address: '203.0.113.9' });
      expect((await login(app, 'admin', DEMO.admin.Code, { address: '203.0.113.9' })).statusCode).toBe(429);
      const rows = await entries(app);
      expect(rows.map((row) => [row.action, row.actor_id, row.actor_account, row.target_id, row.address])).toEqual([
        ['auth.signInRefused', null, 'admin', 'admin', '203.0.113.9'],
        ['auth.signInRefused', null, 'nobody', 'nobody', '203.0.113.9'],
        ['auth.signInRefused', null, 'admin', 'admin', '203.0.113.9'],
      ]);
      // The entry never tells a wrong password from an unknown account.
      expect(rows.map((row) => [row.before, row.after])).toEqual([
        [null, null],
        [null, null],
        [null, null],
      ]);
      expect(JSON.stringify(rows)).not.toContain('Wrong202');
    });
  });

  it('answers unexpected failures with 50000 and a generic message, leaking nothing', async () => {
    const app = await store.app({
      setup(instance) {
        instance.post('/upstream/test/boom', async () => {
          throw new Error('secret internal detail');
        });
      },
    });
    const response = await call(app, '/test/boom', undefined, { lang: 'en-US' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ data: null, status: 'fail', msg: 'Request Error', code: CODES.failure });
    expect(response.body).not.toContain('secret');
  });
});
