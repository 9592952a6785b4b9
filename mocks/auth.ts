import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import type { CurrentUser, LoginResult } from '../src/domain/auth';
import { isLevel, levelToRole, MOCK_SWITCH_ROLE_PATH, roleToLevel, ROLES, type Level, type Role } from '../src/domain/roles';
import { ACCOUNT_CALLS } from '../src/resources/accounts/config';
import { USER_MENU_PATH, userMenuFor } from '../src/domain/menu';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../src/domain/password';
import type { WireRecord } from '../src/resources/model';
import { fail, ok } from './envelope';

/** A sign-in account of the mocks: its password, level, id and the account it sits under. */
export interface MockAccount {
  Account: string;
  Code: string;
  Level: Level;
  /** Its id in the mocks (the SubId of the accounts below it). */
  id: number;
  /** The account it sits under; null for a super administrator. */
  SubAdmin: string | null;
}

/**
 * The old console's mock sign-in: an admin (Level 0), a user (Level 1) under it; and a client (Level 3)
 * under the user, so the mock mode can show what an account that manages no accounts sees. The unit tests' mocks sign
 * these in; `npm run dev:mock` signs in the demo's accounts instead (mocks/demo.ts).
 * Their passwords are seeded like the server's demo accounts, so shorter than the rule a chosen password
 * must follow (docs/server-auth.md).
 */
export const MOCK_ACCOUNTS: Record<string, { Code: string; Level: Level }> = {
  admin: { Code: 'Admin2026', Level: 0 },
  user: { Code: 'User2026', Level: 1 },
  client: { Code: 'Client2026', Level: 3 },
};

/** Each old console account's upper administrator: a chain, so each administrator has someone below it to see. */
const OLD_CONSOLE_UPPER: Record<string, string | null> = { admin: null, user: 'admin', client: 'user' };

const OLD_CONSOLE_ACCOUNTS: readonly MockAccount[] = Object.entries(MOCK_ACCOUNTS).map(([Account, { Code, Level }], index) => ({
  Account,
  Code,
  Level,
  id: index + 1,
  SubAdmin: OLD_CONSOLE_UPPER[Account] ?? null,
}));

/** How many of the generated chambers the old console's client manages: the first ones (user manages them all). */
export const MOCK_CLIENT_DEVICES = 10;

/**
 * The old console's accounts as get_Admins lists them, over the generated chambers `devices`: the tree the
 * scope model reads (mocks/scope.ts), user managing every chamber and client the first MOCK_CLIENT_DEVICES.
 */
export const oldConsoleAccountRecords = (devices: readonly unknown[]): WireRecord[] =>
  OLD_CONSOLE_ACCOUNTS.map(({ Account, Level, SubAdmin }) => ({
    Account,
    SubId: OLD_CONSOLE_ACCOUNTS.find((upper) => upper.Account === SubAdmin)?.id ?? null,
    Level,
    SubAdmin,
    DeviceIds: Level === 0 ? [] : devices.slice(0, Account === 'client' ? MOCK_CLIENT_DEVICES : devices.length),
  }));

/** What the mocks know of a sign-in account: changed by the password calls and add_Admin, per mock server. */
export interface MockCredential extends Omit<MockAccount, 'Account'> {
  /** Set by an administrator's reset: the account must choose a new password before anything else. */
  mustChangeCode: boolean;
}
export type MockCredentials = Map<string, MockCredential>;

export const mockCredentials = (accounts: readonly MockAccount[] = OLD_CONSOLE_ACCOUNTS): MockCredentials =>
  new Map(accounts.map(({ Account, ...account }) => [Account, { ...account, mustChangeCode: false }]));

/** A signed-in token's account and the level it acts at (the role-switch helper's choice, else the account's at sign-in). */
interface MockSession {
  account: string;
  level: Level;
  /** When it signed in and the browser it came from (the user settings' open sessions); absent in sessions kept before they were recorded. */
  startedAt?: number;
  agent?: string;
}

/**
 * Every mock server's sessions (token → session), as the server's sessions table is shared by its
 * callers. The browser's mocks keep them across a reload (mocks/persist.ts).
 */
const sessions = new Map<string, MockSession>();

/** The sessions as plain data, to be kept. */
export const sessionEntries = (): [string, MockSession][] => [...sessions];
/** Brings kept sessions back (a reloaded page goes on signed in). */
export const restoreSessions = (entries: readonly [string, MockSession][]): void => {
  for (const [token, session] of entries) sessions.set(token, session);
};

const tokenOf = (request: Request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';

/** The signed-in mock account for a request, from its bearer token. */
export const mockAccountOf = (request: Request): string | undefined => sessions.get(tokenOf(request))?.account;

/** The Level a signed-in request acts at: the role its session switched to, else its account's. */
export const mockLevelOf = (request: Request): Level | undefined => sessions.get(tokenOf(request))?.level;

/** The signed-in token of a request, for the user settings' "current session". */
export const mockTokenOf = tokenOf;

/** One session ends, as the user settings' revoke ends it on the server. */
export const endSession = (token: string): void => {
  sessions.delete(token);
};

/** Every session of the account ends, as the server's reset revokes the account's tokens. */
export const endSessionsOf = (account: string): void => {
  for (const [token, session] of sessions) if (session.account === account) sessions.delete(token);
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
    sessions.set(token, { account: Account, level: account.Level, startedAt: Date.now(), agent: request.headers.get('user-agent') ?? '' });
    const expiresAt = new Date(Date.now() + 12 * 3600_000).toISOString();
    return ok<LoginResult>({ State: true, Account, Level: account.Level, token, expiresAt, mustChangeCode: account.mustChangeCode });
  }),
  http.post(`${base}/api/user/logout`, ({ request }) => {
    sessions.delete(tokenOf(request));
    return ok(null);
  }),
  http.post(`${base}/api/user/info`, ({ request }) => {
    const Account = mockAccountOf(request);
    const Level = mockLevelOf(request);
    const credential = Account === undefined ? undefined : credentials.get(Account);
    if (!Account || !credential || !isLevel(Level)) return fail(CODES.notSignedIn, 'not logged in');
    const upper = credential.SubAdmin === null ? undefined : credentials.get(credential.SubAdmin);
    return ok<CurrentUser>({
      Account,
      SubId: upper?.id ?? null,
      SubAdmin: upper === undefined ? null : credential.SubAdmin,
      Level,
      role: levelToRole(Level),
      avatar: '',
      passwordMinLength: DEFAULT_PASSWORD_MIN_LENGTH,
    });
  }),
  http.post(`${base}${USER_MENU_PATH}`, ({ request }) => {
    const level = mockLevelOf(request);
    return isLevel(level) ? ok(userMenuFor(levelToRole(level))) : fail(CODES.notSignedIn, 'not logged in');
  }),
  // The role-switch helper of the mock mode (no server has it): this session acts as `role`; anything else is a client.
  http.post(`${base}${MOCK_SWITCH_ROLE_PATH}`, async ({ request }) => {
    const session = sessions.get(tokenOf(request));
    if (!session) return fail(CODES.notSignedIn, 'not logged in');
    const { role } = (await request.json().catch(() => ({}))) as { role?: unknown };
    session.level = roleToLevel(ROLES.includes(role as Role) ? (role as Role) : 'client');
    return ok(null);
  }),
];
