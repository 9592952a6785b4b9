import type { z } from 'zod';
import { canAccess as policyCanAccess, type AccessRequest } from '../src/domain/policy';
import { levelToRole, type Role } from '../src/domain/roles';
import { mockLevelOf } from './auth';

/** Who may do what in the mocks: the shared policy, unless a test declares a resource the policy does not know. */
export type AccessCheck = (role: Role | undefined, request: AccessRequest) => boolean;
export const sharedPolicy: AccessCheck = policyCanAccess;

/** The role of the signed-in mock account behind a request, from its bearer token (or the role it switched to). */
const mockRoleOf = (request: Request): Role | undefined => {
  const level = mockLevelOf(request);
  return level === undefined ? undefined : levelToRole(level);
};

export type Refusal = 'notSignedIn' | 'forbidden';

/** Why the request may not do the action, or undefined when it may. */
export const refusalOf = (request: Request, check: AccessCheck, access: AccessRequest): Refusal | undefined => {
  const role = mockRoleOf(request);
  if (!role) return 'notSignedIn';
  return check(role, access) ? undefined : 'forbidden';
};

/** A bad-input message naming the field, as docs/product.md asks of code 40000. */
export const badInputMessage = (error: z.ZodError): string => {
  const [issue] = error.issues;
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'bad input';
};

export const readJson = async (request: Request): Promise<unknown> => request.json().catch(() => undefined);
