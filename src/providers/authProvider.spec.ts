import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { authHandlers } from '../../mocks/auth';
import { createAuthProvider } from './authProvider';
import { HttpError } from 'react-admin';
import { createHttpClient, UpstreamError } from './httpClient';
import { localTokenStore } from './tokenStore';

const base = 'http://console.test/upstream';
const server = setupServer(...authHandlers(base));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const setup = () => {
  const tokens = localTokenStore('token');
  const http = createHttpClient({ baseUrl: base, tokens, locale: () => 'zh-CN' });
  return { tokens, auth: createAuthProvider({ http, tokens }) };
};

describe('authProvider', () => {
  it('stores the token under `token` and takes the role from Level', async () => {
    const { tokens, auth } = setup();
    await auth.login({ username: 'admin', password: 'Admin2026' });
    expect(localStorage.getItem('token')).toBe(tokens.get());
    expect(tokens.get()).toMatch(/^mock-admin-/);
    await expect(auth.getPermissions()).resolves.toBe('admin');
    await expect(auth.getIdentity()).resolves.toMatchObject({ id: 'admin', fullName: 'admin', Level: 0 });
  });

  it('maps an unknown Level from the server to client', async () => {
    server.use(
      mock.post(`${base}/api/user/info`, () =>
        HttpResponse.json({ data: { Account: 'x', SubId: 1, SubAdmin: 'admin', Level: 9, role: 'admin', avatar: '' }, status: 'ok', msg: '', code: 20000 }),
      ),
    );
    const { tokens, auth } = setup();
    tokens.set('t');
    await expect(auth.getPermissions()).resolves.toBe('client');
  });

  it('refuses a wrong password with the translated message key and keeps no token', async () => {
    const { tokens, auth } = setup();
    await expect(auth.login({ username: 'admin', password: 'nope' })).rejects.toThrow('app.login.wrong');
    expect(tokens.get()).toBeNull();
  });

  it('signs out locally even when the server call fails', async () => {
    const { tokens, auth } = setup();
    await auth.login({ username: 'user', password: 'User2026' });
    server.use(mock.post(`${base}/api/user/logout`, () => HttpResponse.error()));
    await expect(auth.logout()).resolves.toBe('/login');
    expect(tokens.get()).toBeNull();
    await expect(auth.checkAuth()).rejects.toMatchObject({ redirectTo: '/login' });
  });

  it('asks react-admin to sign out on a 50008 answer, and not on other failures', async () => {
    const { auth } = setup();
    await expect(auth.checkError(new UpstreamError('not logged in', 50008, 401))).rejects.toMatchObject({ redirectTo: '/login' });
    await expect(auth.checkError(new HttpError('Unauthorized', 401))).rejects.toMatchObject({ redirectTo: '/login' });
    await expect(auth.checkError(new UpstreamError('boom', 50000, 500))).resolves.toBeUndefined();
    await expect(auth.checkError(new HttpError('Forbidden', 403))).resolves.toBeUndefined();
  });

  it('turns a failed user load into a sign-out, as the route guard requires', async () => {
    server.use(mock.post(`${base}/api/user/info`, () => HttpResponse.json({ data: null, status: 'fail', msg: 'x', code: 50000 }, { status: 500 })));
    const { tokens, auth } = setup();
    tokens.set('t');
    const error = await auth.getPermissions().catch((caught: unknown) => caught);
    await expect(auth.checkError(error)).rejects.toMatchObject({ redirectTo: '/login' });
    expect(tokens.get()).toBeNull();
  });

  it('answers canAccess from the shared policy', async () => {
    const { auth } = setup();
    await auth.login({ username: 'user', password: 'User2026' });
    await expect(auth.canAccess({ action: 'changeSettings', resource: 'devices' })).resolves.toBe(true);
    await expect(auth.canAccess({ action: 'create', resource: 'devices' })).resolves.toBe(false);
    await expect(auth.canAccess({ action: 'list', resource: 'exception-403' })).resolves.toBe(false);
  });

  it('offers an account\'s edit and delete only below the signed-in account, never on its own row', async () => {
    const { auth } = setup();
    await auth.login({ username: 'user', password: 'User2026' });
    const on = (action: string, record: { Account: string; Level: number }) => auth.canAccess({ action, resource: 'accounts', record: { id: record.Account, ...record } });
    await expect(on('edit', { Account: 'ops', Level: 2 })).resolves.toBe(true);
    await expect(on('delete', { Account: 'ops', Level: 3 })).resolves.toBe(true);
    await expect(on('edit', { Account: 'user', Level: 1 })).resolves.toBe(false);
    await expect(on('delete', { Account: 'peer', Level: 1 })).resolves.toBe(false);
    await expect(on('edit', { Account: 'admin', Level: 0 })).resolves.toBe(false);
    // The other commands on a row keep to the policy alone.
    await expect(on('resetPassword', { Account: 'peer', Level: 1 })).resolves.toBe(true);
  });
});
