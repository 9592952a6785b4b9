import type { FastifyPluginAsync } from 'fastify';
import { OLD_ANALYSIS_CALLS, oldAnalysisAnswer, oldCallsRange, oldQuotaSchema } from '../../src/domain/oldAnalysisCalls';
import { requireAccess, signedIn } from '../auth/guard';
import { ok, t } from '../http/envelope';
import { statsOverview } from './overview';

/**
 * The old console's analysis calls under API_PREFIX (`/api/public-opinion-analysis`, … as the template called
 * them), each by GET and POST: the fleet's overview of the last 12 UTC days over the caller's chambers, mapped
 * onto the call's old shape (src/domain/oldAnalysisCalls.ts; docs/analysis.md, "The old calls"). The body's
 * `quota` chooses a chart as it did; anything else in it is ignored, as the old mocks ignored it.
 */
export const oldAnalysisRoutes: FastifyPluginAsync = async (app) => {
  for (const call of OLD_ANALYSIS_CALLS) {
    app.route({
      method: ['GET', 'POST'],
      url: `/api/${call}`,
      onRequest: requireAccess({ resource: 'data-analysis', action: 'list' }),
      handler: async (request) => {
        const overview = await statsOverview(app.ctx, signedIn(request), oldCallsRange(app.ctx.now()));
        return ok(oldAnalysisAnswer(call, overview, oldQuotaSchema.parse(request.body ?? {}).quota), t(request, 'ok'));
      },
    });
  }
};
