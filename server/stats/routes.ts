import type { FastifyPluginAsync } from 'fastify';
import { pivotQuerySchema, STATS_PATHS, statsRangeSchema } from '../../src/domain/stats';
import { requireAccess, signedIn } from '../auth/guard';
import type { ZodTypeProvider } from '../http/validation';
import { statsOverview } from './overview';
import { statsPivot } from './pivot';
import { statsReadings } from './readings';

/**
 * The analysis pages' aggregates under /api/v1 (src/domain/stats.ts, docs/analysis.md): reads with query
 * parameters that change nothing, like the workplace's figures. Whoever may open the page may ask; the
 * scope decides what is counted.
 */
export const statsRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const analysis = requireAccess({ resource: 'data-analysis', action: 'list' });
  app.get(`/${STATS_PATHS.overview}`, { schema: { querystring: statsRangeSchema }, onRequest: analysis }, async (request) =>
    statsOverview(app.ctx, signedIn(request), request.query),
  );
  app.get(`/${STATS_PATHS.readings}`, { schema: { querystring: statsRangeSchema }, onRequest: analysis }, async (request) =>
    statsReadings(app.ctx, signedIn(request), request.query),
  );
  app.get(
    `/${STATS_PATHS.pivot}`,
    { schema: { querystring: pivotQuerySchema }, onRequest: requireAccess({ resource: 'multi-dimension-analysis', action: 'list' }) },
    async (request) => statsPivot(app.ctx, signedIn(request), request.query),
  );
};
