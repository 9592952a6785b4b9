import type { AuthProvider, RaRecord } from 'react-admin';
import { mayChangeAccount } from '../domain/accountRules';
import { CODES } from '../domain/envelope';
import type { CurrentUser, LoginResult } from '../domain/auth';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../domain/password';
import { canAccess } from '../domain/policy';
import { DEFAULT_LEVEL, isLevel, levelToRole, MOCK_SWITCH_ROLE_PATH, roleToLevel, type Role } from '../domain/roles';
import type { HttpClient } from './httpClient';
import { loginPathFor } from './loginPath';
import type { TokenStore } from './tokenStore';

/** Thrown when the user could not be loaded: react-admin then signs out (route guard, docs/console.md). */
class SignOutError extends Error {
  readonly signOut = true;
}

/** 50008 from the upstream, or 401 from any of our servers (REST included), means the session is gone. */
export const mustSignOut = (error: unknown): boolean => {
  if (error instanceof SignOutError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return code === CODES.notSignedIn || status === 401;
};

export interface SignedInUser extends CurrentUser {
  role: Role;
}

/**
 * docs/product.md, "Account hierarchy": after an administrator's reset the account must choose a new
 * password at its next sign-in, and until it has, the server refuses its other calls (40300). Sign-in
 * answers `mustChangeCode: true`; the console keeps that here (localStorage, so a reload keeps it) with
 * the account's name and level, and sends every page to the password form until the change succeeds.
 */
export const MUST_CHANGE_CODE_KEY = 'mustChangeCode';
/** Where the password is changed: the user settings page (its password part). */
export const PASSWORD_CHANGE_PATH = '/user/setting';

type PendingChange = Pick<CurrentUser, 'Account' | 'Level'>;

const pendingChange = (): PendingChange | undefined => {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(MUST_CHANGE_CODE_KEY) ?? 'null');
    if (typeof stored !== 'object' || stored === null) return undefined;
    const { Account, Level } = stored as Partial<PendingChange>;
    return typeof Account === 'string' ? { Account, Level: isLevel(Level) ? Level : DEFAULT_LEVEL } : undefined;
  } catch {
    return undefined;
  }
};

/** True while the signed-in account must change its password before anything else. */
export const mustChangeCode = (): boolean => pendingChange() !== undefined;

/** Called once the new password is accepted: the console is open again. */
export const passwordChanged = (): void => localStorage.removeItem(MUST_CHANGE_CODE_KEY);

/** The password form, with the page to go on to afterwards (`redirect`, as on the login page). */
export const passwordChangePath = (redirect?: string): string =>
  // Only console paths (as afterLoginPath, which reads it back, also insists), and never the form itself.
  redirect && redirect.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith(PASSWORD_CHANGE_PATH)
    ? `${PASSWORD_CHANGE_PATH}?${new URLSearchParams({ redirect }).toString()}`
    : PASSWORD_CHANGE_PATH;

/** The actions on one account that the hierarchy limits beyond the role (src/domain/accountRules.ts). */
const ACCOUNT_CHANGES: ReadonlySet<string> = new Set(['edit', 'delete']);

/**
 * What the hierarchy adds to the policy for one record: an account's edit and delete only where the signed-in
 * account may change it (never its own row, never one at its level or above; the server enforces the same).
 */
const recordAllows = (user: SignedInUser, action: string, resource: string, record: RaRecord | undefined): boolean =>
  resource !== 'accounts' || !ACCOUNT_CHANGES.has(action) || record === undefined ||
  mayChangeAccount({ account: user.Account, level: roleToLevel(user.role) }, { account: String(record.Account), level: roleToLevel(levelToRole(record.Level)) });

export const createAuthProvider = ({ http, tokens }: { http: HttpClient; tokens: TokenStore }) => {
  // One load of the signed-in user per sign-in, shared by identity, permissions and canAccess.
  let currentUser: Promise<SignedInUser> | undefined;

  const loadUser = (): Promise<SignedInUser> => {
    if (!tokens.get()) return Promise.reject(new SignOutError('not signed in'));
    currentUser ??= http
      .post<CurrentUser>('/api/user/info')
      // The role is taken from Level, as the old console did; anything unknown is a client.
      .then((user) => ({ ...user, role: levelToRole(user.Level) }))
      .catch((error: unknown) => {
        currentUser = undefined;
        // The server answers its user info while a password must be changed; should one refuse it (40300),
        // the sign-in's own answer still says who this is, and the password form can be shown.
        const pending = pendingChange();
        if (pending && (error as { code?: unknown } | null)?.code === CODES.forbidden) {
          return { ...pending, SubId: null, SubAdmin: null, avatar: '', passwordMinLength: DEFAULT_PASSWORD_MIN_LENGTH, role: levelToRole(pending.Level) };
        }
        throw mustSignOut(error) ? error : new SignOutError(error instanceof Error ? error.message : 'user');
      });
    return currentUser;
  };

  const forget = () => {
    tokens.clear();
    passwordChanged();
    currentUser = undefined;
  };

  return {
    /**
     * `redirect` is the page the visitor is going to; an account that must change its password goes to
     * the password form first (react-admin follows `redirectTo`), and on from there.
     */
    async login({ username, password, redirect }: { username: string; password: string; redirect?: string }) {
      forget();
      const result = await http.post<LoginResult>('/login', { Account: username, Code: password });
      if (!result.State) throw new Error('app.login.wrong');
      tokens.set(result.token);
      if (!result.mustChangeCode) return undefined;
      const pending: PendingChange = { Account: result.Account, Level: result.Level };
      localStorage.setItem(MUST_CHANGE_CODE_KEY, JSON.stringify(pending));
      return { redirectTo: passwordChangePath(redirect) };
    },
    async logout() {
      // Sign-out always happens locally, whether or not the server call works.
      if (tokens.get()) await http.post('/api/user/logout', {}, { quiet: true }).catch(() => undefined);
      forget();
      return loginPathFor(window.location);
    },
    async checkAuth() {
      if (!tokens.get()) throw { redirectTo: loginPathFor(window.location), message: false };
    },
    async checkError(error: unknown) {
      if (mustSignOut(error)) {
        forget();
        throw { redirectTo: loginPathFor(window.location), message: false };
      }
    },
    async getIdentity() {
      const user = await loadUser();
      return { ...user, id: user.Account, fullName: user.Account, avatar: user.avatar || undefined };
    },
    async getPermissions() {
      // Signed out already: no role, and no error, which react-admin would answer with yet another sign-out
      // (and, while a page is still mounted, another and another).
      if (!tokens.get()) return null;
      return (await loadUser()).role;
    },
    async canAccess({ action, resource, record }) {
      if (!tokens.get()) return false;
      // Until the reset password is changed, only the page that changes it is open (the server agrees).
      if (mustChangeCode() && resource !== 'user-setting') return false;
      const user = await loadUser();
      return canAccess(user.role, { action, resource }) && recordAllows(user, action, resource, record as RaRecord | undefined);
    },
    /** The mock mode's role-switch helper: the mocks treat the session as `role`, and the user is loaded again. */
    async switchRole(role: Role) {
      await http.post(MOCK_SWITCH_ROLE_PATH, { role });
      currentUser = undefined;
    },
  } satisfies AuthProvider;
};

/** `useAuthProvider<ConsoleAuthProvider>()` sees switchRole. */
export type ConsoleAuthProvider = ReturnType<typeof createAuthProvider>;
