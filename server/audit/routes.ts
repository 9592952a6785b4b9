import type { FastifyPluginAsync } from 'fastify';
import { auditLogConfig } from '../../src/resources/audit-log/config';
import { registerRestList } from '../rest/list';
import { auditListing, listAudit } from './list';

/**
 * The audit log under /api/v1 (read-only; docs/audit.md):
 *   GET /audit-log?sort=["at","DESC"]&range=[0,24]&filter={...}   entries the caller may read, Content-Range
 *   GET /audit-log/:id                                            one entry; 404 also when out of scope
 * Policy 'audit-log' list/show (every role); the scope rules are listAudit's.
 */
export const auditRoutes: FastifyPluginAsync = async (app) => {
  registerRestList(app, { config: auditLogConfig, listing: auditListing, list: listAudit });
};
