import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http as mock } from 'msw';
import { fail } from '../../../mocks/envelope';
import { createMockServer } from '../../../mocks/node';
import { createAuthProvider, MUST_CHANGE_CODE_KEY, mustChangeCode, passwordChangePath } from '../../../src/providers/authProvider';
import type { ResetAnswer } from '../../../src/resources/accounts/calls';
import { mockSession, REST, UPSTREAM } from '../resources/fixtures';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The user's password reset by the admin; answers the new one, with nobody signed in. */
const resetUser = async () => {
  const { http, tokens } = await mockSession('admin');
  const { NewCode } = await http.post<ResetAnswer>('/code/Admin_reset_Code', { Account: 'user' });
  tokens.clear();
  return NewCode;
};

describe('the authProvider after a password reset', () => {
  it('sends the sign-in to the password form with the page asked for, and keeps only that page open', async () => {
    const NewCode = await resetUser();
    const { http, tokens } = await mockSession();
    const auth = createAuthProvider({ http, tokens });
    await expect(auth.login({ username: 'user', password: NewCode, redirect: '/other/order-list?status=open' })).resolves.toEqual({
      redirectTo: '/user/setting?redirect=%2Fother%2Forder-list%3Fstatus%3Dopen',
    });
    expect(mustChangeCode()).toBe(true);
    await expect(auth.canAccess({ action: 'list', resource: 'user-setting' })).resolves.toBe(true);
    await expect(auth.canAccess({ action: 'list', resource: 'orders' })).resolves.toBe(false);
    await expect(auth.getPermissions()).resolves.toBe('user');

    await auth.logout();
    expect(localStorage.getItem(MUST_CHANGE_CODE_KEY)).toBeNull();
    await auth.login({ username: 'admin', password: 'Admin2026' });
    expect(mustChangeCode()).toBe(false);
    await expect(auth.canAccess({ action: 'list', resource: 'orders' })).resolves.toBe(true);
  });

  it('still knows who is signed in should the server refuse its user info until the change (40300)', async () => {
    const NewCode = await resetUser();
    server.use(mock.post(`${UPSTREAM}/api/user/info`, () => fail(40300, 'your password was reset: choose a new password first')));
    const { http, tokens } = await mockSession();
    const auth = createAuthProvider({ http, tokens });
    await auth.login({ username: 'user', password: NewCode });
    await expect(auth.getIdentity()).resolves.toMatchObject({ id: 'user', Level: 1, role: 'user' });
  });

  it('goes back to the password form, not to itself, and never off-site', () => {
    expect(passwordChangePath('/user/setting?redirect=%2Fx')).toBe('/user/setting');
    expect(passwordChangePath('//evil.example')).toBe('/user/setting');
    expect(passwordChangePath('/list/device-manager')).toBe('/user/setting?redirect=%2Flist%2Fdevice-manager');
    expect(passwordChangePath(undefined)).toBe('/user/setting');
  });
});
