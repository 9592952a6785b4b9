import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import type { CurrentUser, LoginResult } from '../src/domain/auth';
import { isLevel, levelToRole, MOCK_SWITCH_ROLE_PATH, roleToLevel, ROLES, type Level, type Role } from '../src/domain/roles';
import { ACCOUNT_CALLS } from '../src/resources/accounts/config';
import { USER_MENU_PATH, userMenuFor } from '../src/domain/menu';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../src/domain/password';
import { fail, ok } from './envelope';

/**
 * The old console's mock sign-in: an admin (Level 0) and a user (Level 1); and a client (Level 3),
 * so the mock mode can show what an account that manages no accounts sees. Their passwords are seeded like
 * the server's demo accounts, so shorter than the rule a chosen password must follow (docs/server-auth.md).
 */
export const MOCK_ACCOUNTS: Record<string, { Code: string; Level: Level }> = {
  admin: { Code: 'Admin2026', Level: 0 },
  user: { Code: 'User2026', Level: 1 },
  client: { Code: 'Client2026', Level: 3 },
};

/** A mock account's id (its SubId to the accounts below it): its place in MOCK_ACCOUNTS, from 1. */
export const mockAccountId = (account: string): number => Object.keys(MOCK_ACCOUNTS).indexOf(account) + 1;

/** What the mocks know of a sign-in account's password: changed by the password calls, per mock server. */
interface MockCredential {
  Code: string;
  Level: Level;
  /** Set by an administrator's reset: the account must choose a new password before anything else. */
  mustChangeCode: boolean;
}
export type MockCredentials = Map<string, MockCredential>;

export const mockCredentials = (): MockCredentials =>
  new Map(Object.entries(MOCK_ACCOUNTS).map(([account, { Code, Level }]) => [account, { Code, Level, mustChangeCode: false }]));

const sessions = new Map<string, string>();
/** The role-switch helper's choice per session (token → Level), over the account's own level. */
const switchedLevels = new Map<string, Level>();

const tokenOf = (request: Request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';

/** The signed-in mock account for a request, from its bearer token. */
export const mockAccountOf = (request: Request): string | undefined => sessions.get(tokenOf(request));

/** The Level a signed-in request acts at: the role its session switched to, else its account's. */
export const mockLevelOf = (request: Request, credentials: MockCredentials = mockCredentials()): Level | undefined => {
  const account = mockAccountOf(request);
  if (account === undefined) return undefined;
  return switchedLevels.get(tokenOf(request)) ?? credentials.get(account)?.Level;
};

/** Every session of the account ends, as the server's reset revokes the account's tokens. */
export const endSessionsOf = (account: string): void => {
  for (const [token, owner] of sessions) if (owner === account) sessions.delete(token);
};

/** The calls an account whose password must be changed may still make (the server's allowMustChangeCode). */
const OPEN_WHILE_MUST_CHANGE = ['/login', '/api/user/logout', '/api/user/info', USER_MENU_PATH, ACCOUNT_CALLS.changeOwnPassword];

/**
 * Until a reset password is changed, the server answers every other call with 40300; this handler goes
 * first and answers nothing otherwise, so msw goes on to the real mock.
 */
export const mustChangeCodeGate = (base: string, credentials: MockCredentials) =>
  http.all(`${base}/*`, ({ request }) => {
    const account = mockAccountOf(request);
    if (!account || !credentials.get(account)?.mustChangeCode) return undefined;
    const path = new URL(request.url).pathname.slice(new URL(base, request.url).pathname.length);
    if (OPEN_WHILE_MUST_CHANGE.includes(path)) return undefined;
    return fail(CODES.forbidden, 'your password was reset: choose a new password first');
  });

export const authHandlers = (base: string, credentials: MockCredentials = mockCredentials()) => [
  http.post(`${base}/login`, async ({ request }) => {
    const { Account = '', Code = '' } = (await request.json()) as { Account?: string; Code?: string };
    if (!Account.trim()) return fail(CODES.badInput, 'username cannot be empty');
    if (!Code) return fail(CODES.badInput, 'password cannot be empty');
    const account = credentials.get(Account);
    if (!account || account.Code !== Code) return ok<LoginResult>({ State: false });
    const token = `mock-${Account}-${crypto.randomUUID()}`;
    sessions.set(token, Account);
    const expiresAt = new Date(Date.now() + 12 * 3600_000).toISOString();
    return ok<LoginResult>({ State: true, Account, Level: account.Level, token, expiresAt, mustChangeCode: account.mustChangeCode });
  }),
  http.post(`${base}/api/user/logout`, ({ request }) => {
    sessions.delete(tokenOf(request));
    switchedLevels.delete(tokenOf(request));
    return ok(null);
  }),
  http.post(`${base}/api/user/info`, ({ request }) => {
    const Account = mockAccountOf(request);
    const Level = mockLevelOf(request, credentials);
    if (!Account || !isLevel(Level)) return fail(CODES.notSignedIn, 'not logged in');
    return ok<CurrentUser>({
      Account,
      SubId: Level === 0 ? null : mockAccountId('admin'),
      SubAdmin: Level === 0 ? null : 'admin',
      Level,
      role: levelToRole(Level),
      avatar: '',
      passwordMinLength: DEFAULT_PASSWORD_MIN_LENGTH,
    });
  }),
  http.post(`${base}${USER_MENU_PATH}`, ({ request }) => {
    const level = mockLevelOf(request, credentials);
    return isLevel(level) ? ok(userMenuFor(levelToRole(level))) : fail(CODES.notSignedIn, 'not logged in');
  }),
  // The role-switch helper of the mock mode (no server has it): this session acts as `role`; anything else is a client.
  http.post(`${base}${MOCK_SWITCH_ROLE_PATH}`, async ({ request }) => {
    if (!mockAccountOf(request)) return fail(CODES.notSignedIn, 'not logged in');
    const { role } = (await request.json().catch(() => ({}))) as { role?: unknown };
    switchedLevels.set(tokenOf(request), roleToLevel(ROLES.includes(role as Role) ? (role as Role) : 'client'));
    return ok(null);
  }),
];
