import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import type { CurrentUser, LoginResult } from '../src/domain/auth';
import { levelToRole, type Level } from '../src/domain/roles';
import { fail, ok } from './envelope';

/** The spec's mock sign-in (point 6): an admin (Level 0) and a user (Level 1). */
export const MOCK_ACCOUNTS: Record<string, { Code: string; Level: Level }> = {
  admin: { Code: 'Admin2026', Level: 0 },
  user: { Code: 'User2026', Level: 1 },
};

const sessions = new Map<string, string>();

/** The signed-in mock account for a request, from its bearer token. */
export const mockAccountOf = (request: Request): string | undefined =>
  sessions.get(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '');

export const authHandlers = (base: string) => [
  http.post(`${base}/login`, async ({ request }) => {
    const { Account = '', Code = '' } = (await request.json()) as { Account?: string; Code?: string };
    if (!Account.trim()) return fail(CODES.badInput, 'username cannot be empty');
    if (!Code) return fail(CODES.badInput, 'password cannot be empty');
    const account = MOCK_ACCOUNTS[Account];
    if (!account || account.Code !== Code) return ok<LoginResult>({ State: false });
    const token = `mock-${Account}-${crypto.randomUUID()}`;
    sessions.set(token, Account);
    const expiresAt = new Date(Date.now() + 12 * 3600_000).toISOString();
    return ok<LoginResult>({ State: true, Account, Level: account.Level, token, expiresAt, mustChangeCode: false });
  }),
  http.post(`${base}/api/user/logout`, ({ request }) => {
    sessions.delete(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '');
    return ok(null);
  }),
  http.post(`${base}/api/user/info`, ({ request }) => {
    const Account = mockAccountOf(request);
    const account = Account ? MOCK_ACCOUNTS[Account] : undefined;
    if (!Account || !account) return fail(CODES.notSignedIn, 'not logged in');
    return ok<CurrentUser>({
      Account,
      SubId: account.Level === 0 ? null : 1,
      SubAdmin: account.Level === 0 ? null : 'admin',
      Level: account.Level,
      role: levelToRole(account.Level),
      avatar: '',
    });
  }),
];
