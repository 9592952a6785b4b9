import type { FastifyRequest } from 'fastify';
import { canAccess, type AccessRequest } from '../../src/domain/policy';
import type { Role } from '../../src/domain/roles';
import type { SignedInAccount } from '../context';
import { forbidden, notSignedIn } from '../http/envelope';
import { bearerToken, resolveToken } from './tokens';

/**
 * Route guards, used as preHandlers:
 *   { preHandler: requireSignIn }                                   signed in (else 50008)
 *   { preHandler: requireAccess({ resource: 'devices', action: 'create' }) }  + canAccess (else 40300)
 *   { preHandler: requireRole('admin', 'user') }                    + one of the roles (else 40300)
 * In the handler, `signedIn(request)` is the account.
 */

export const requireSignIn = async (request: FastifyRequest): Promise<void> => {
  if (request.account !== null) return;
  const token = bearerToken(request.headers.authorization);
  const account = token === undefined ? undefined : await resolveToken(request.server.ctx, token);
  if (account === undefined) throw notSignedIn();
  request.account = account;
};

/** The account of a request that passed a guard. */
export const signedIn = (request: FastifyRequest): SignedInAccount => {
  if (request.account === null) throw notSignedIn();
  return request.account;
};

export const requireAccess =
  (access: AccessRequest) =>
  async (request: FastifyRequest): Promise<void> => {
    await requireSignIn(request);
    if (!canAccess(signedIn(request).role, access)) throw forbidden();
  };

export const requireRole =
  (...roles: Role[]) =>
  async (request: FastifyRequest): Promise<void> => {
    await requireSignIn(request);
    if (!roles.includes(signedIn(request).role)) throw forbidden();
  };
