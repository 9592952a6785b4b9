import type { FastifyRequest } from 'fastify';
import { signedIn } from '../auth/guard';
import type { AuditActor } from './trail';

/** The signed-in account of a request that passed a guard, with its address, as an audit actor. */
export const actorOf = (request: FastifyRequest): AuditActor => {
  const account = signedIn(request);
  return { id: account.id, account: account.account, address: request.ip };
};
