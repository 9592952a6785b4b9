import type { FastifyPluginAsync } from 'fastify';
import { FLEET_SUMMARY_PATH, fleetSummaryQuerySchema } from '../../src/domain/fleetSummary';
import { requireAccess, signedIn } from '../auth/guard';
import type { ZodTypeProvider } from '../http/validation';
import { fleetSummary } from './summary';

/**
 * `GET /api/v1/fleet/summary?tz=<getTimezoneOffset>`: the workplace's figures for the caller's chambers
 * (src/domain/fleetSummary.ts). A GET in the REST API rather than an upstream POST: the old upstream had
 * no such call to keep, and it is a read with one query parameter that changes nothing. Whoever may open
 * the workplace may ask (policy `workplace/list`); the scope decides what is counted.
 */
export const fleetRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${FLEET_SUMMARY_PATH}`,
    { schema: { querystring: fleetSummaryQuerySchema }, onRequest: requireAccess({ resource: 'workplace', action: 'list' }) },
    async (request) => fleetSummary(app.ctx, signedIn(request), request.query.tz),
  );
};
