import type { FastifyRequest } from 'fastify';
import { CODES } from '../../src/domain/envelope';
import { canAccess, type AccessRequest } from '../../src/domain/policy';
import type { Role } from '../../src/domain/roles';
import type { SignedInAccount } from '../context';
import { AppError, forbidden, notSignedIn } from '../http/envelope';
import { bearerToken, resolveToken } from './tokens';

/**
 * Route guards, used as onRequest/preHandler hooks:
 *   { onRequest: requireSignIn }                                    signed in (else 50008)
 *   { onRequest: requireAccess({ resource: 'devices', action: 'create' }) }  + canAccess (else 40300)
 *   { onRequest: requireRole('admin', 'user') }                     + one of the roles (else 40300)
 * In the handler, `signedIn(request)` is the account.
 *
 * Every guard also refuses an account whose password must be changed (reset by an administrator, or
 * generated at first start) with 40300 'account.mustChangeCode', so every route is covered by default.
 * The few calls such an account needs opt in explicitly: `signInGuard({ allowMustChangeCode: true })`
 * (changing its own password, sign-out, its user info, its menu).
 */

export interface GuardOptions {
  /** Let an account whose password must be changed through. Default false. */
  allowMustChangeCode?: boolean;
}

/** The request's account, resolved from its bearer token once per request (else 50008). */
const authenticate = async (request: FastifyRequest): Promise<SignedInAccount> => {
  if (request.account !== null) return request.account;
  const token = bearerToken(request.headers.authorization);
  const account = token === undefined ? undefined : await resolveToken(request.server.ctx, token);
  if (account === undefined) throw notSignedIn();
  request.account = account;
  return account;
};

const mustChangeCodeFirst = (): AppError => new AppError(CODES.forbidden, 'account.mustChangeCode');

/** Signed in (else 50008) and, unless the options allow it, not bound to change its password (else 40300). */
export const signInGuard =
  (options: GuardOptions = {}) =>
  async (request: FastifyRequest): Promise<void> => {
    const account = await authenticate(request);
    if (account.mustChangeCode && options.allowMustChangeCode !== true) throw mustChangeCodeFirst();
  };

export const requireSignIn = signInGuard();

/** The account of a request that passed a guard. */
export const signedIn = (request: FastifyRequest): SignedInAccount => {
  if (request.account === null) throw notSignedIn();
  return request.account;
};

export const requireAccess = (access: AccessRequest, options: GuardOptions = {}) => {
  const signIn = signInGuard(options);
  return async (request: FastifyRequest): Promise<void> => {
    await signIn(request);
    if (!canAccess(signedIn(request).role, access)) throw forbidden();
  };
};

export const requireRole =
  (...roles: Role[]) =>
  async (request: FastifyRequest): Promise<void> => {
    await requireSignIn(request);
    if (!roles.includes(signedIn(request).role)) throw forbidden();
  };
