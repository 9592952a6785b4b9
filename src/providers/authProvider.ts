import type { AuthProvider } from 'react-admin';
import { CODES } from '../domain/envelope';
import type { CurrentUser, LoginResult } from '../domain/auth';
import { canAccess } from '../domain/policy';
import { levelToRole, type Role } from '../domain/roles';
import type { HttpClient } from './httpClient';
import { loginPathFor } from '../routes/loginPath';
import type { TokenStore } from './tokenStore';

/** Thrown when the user could not be loaded: react-admin then signs out (route guard, spec point 4). */
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

export const createAuthProvider = ({ http, tokens }: { http: HttpClient; tokens: TokenStore }) => {
  // One load of the signed-in user per sign-in, shared by identity, permissions and canAccess.
  let currentUser: Promise<SignedInUser> | undefined;

  const loadUser = (): Promise<SignedInUser> => {
    if (!tokens.get()) return Promise.reject(new SignOutError('not signed in'));
    currentUser ??= http
      .post<CurrentUser>('/api/user/info')
      // The role is taken from Level, as the spec's console did; anything unknown is a client.
      .then((user) => ({ ...user, role: levelToRole(user.Level) }))
      .catch((error: unknown) => {
        currentUser = undefined;
        throw mustSignOut(error) ? error : new SignOutError(error instanceof Error ? error.message : 'user');
      });
    return currentUser;
  };

  const forget = () => {
    tokens.clear();
    currentUser = undefined;
  };

  return {
    async login({ username, password }: { username: string; password: string }) {
      forget();
      const result = await http.post<LoginResult>('/login', { Account: username, Code: password });
      if (!result.State) throw new Error('app.login.wrong');
      tokens.set(result.token);
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
    async canAccess({ action, resource }) {
      if (!tokens.get()) return false;
      return canAccess((await loadUser()).role, { action, resource });
    },
  } satisfies AuthProvider;
};
