import type { FastifyPluginAsync } from 'fastify';
import { requireAccess } from '../auth/guard';
import { verifyChain } from './chain';

/**
 * `GET /api/v1/audit/verify`: walks the audit trail's hash chain and answers what `verifyChain` found
 * (docs/audit.md, "Tamper evidence"): `{ ok: true, entries, head }` or `{ ok: false, entries, broken }`
 * naming the first entry that does not hold. The super administrator's alone (policy `audit-log` `verify`):
 * it reads every entry, beyond any other role's scope.
 */
export const auditRoutes: FastifyPluginAsync = async (app) => {
  app.get('/audit/verify', { onRequest: requireAccess({ resource: 'audit-log', action: 'verify' }) }, () => verifyChain(app.ctx.db));
};
