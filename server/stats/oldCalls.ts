import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { OLD_ANALYSIS_CALLS, oldAnalysisAnswer, oldAnalysisBodySchema, oldCallsRange } from '../../src/domain/oldAnalysisCalls';
import { requireAccess, signedIn } from '../auth/guard';
import { ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { statsOverview } from './overview';

/**
 * The old console's analysis calls under API_PREFIX (`/api/public-opinion-analysis`, … as the template called
 * them), each by GET and POST: the fleet's overview of the last 12 UTC days over the caller's chambers, mapped
 * onto the call's old shape (src/domain/oldAnalysisCalls.ts; docs/analysis.md, "The old calls"). The body's
 * `quota` chooses a chart as it did; an unknown field is refused (40000), as on every call.
 */
export const oldAnalysisRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  for (const call of OLD_ANALYSIS_CALLS) {
    const access = requireAccess({ resource: 'data-analysis', action: 'list' });
    const answer = async (request: FastifyRequest, quota: string | undefined) =>
      ok(oldAnalysisAnswer(call, await statsOverview(app.ctx, signedIn(request), oldCallsRange(app.ctx.now())), quota), t(request, 'ok'));
    app.get(`/api/${call}`, { onRequest: access }, async (request) => answer(request, undefined));
    app.post(`/api/${call}`, { schema: { body: oldAnalysisBodySchema(call) }, onRequest: access }, async (request) =>
      answer(request, request.body !== null && request.body !== undefined && 'quota' in request.body ? request.body.quota : undefined),
    );
  }
};
