import type { FastifyInstance } from 'fastify';
import type { ResourceConfig, UpstreamCall } from '../../src/resources/types';
import { requireAccess, signedIn } from '../auth/guard';
import { ok, okRendered, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import type { ServedResource } from '../resources/served';
import { listBody } from './body';

/** The upstream path of one of a resource's calls, from its configuration (the console posts to the same). */
export const upstreamPath = (config: ResourceConfig, call: UpstreamCall): string => {
  if (config.adapter !== 'upstream') throw new Error(`${config.name} is not served by the upstream contract`);
  const path = config.endpoints[call];
  if (path === undefined) throw new Error(`${config.name} has no ${call} endpoint in its configuration`);
  return path;
};

/** The upstream path of a resource's list call. */
export const listPath = (config: ResourceConfig): string => upstreamPath(config, 'list');

/**
 * `POST {prefix}{config.endpoints.list}`: signed in (else 50008, before the body is even read) and
 * allowed to list the resource by the shared policy (else 40300); the body validated by the shared
 * list schema (else 40000 naming the field); answers `{ list, total }` within the caller's scope. The
 * listing is checked against the configuration here, so a gap stops the start.
 */
export const registerListRoute = (instance: FastifyInstance, { config, listing, list }: ServedResource): void => {
  listing();
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    listPath(config),
    { schema: { body: listBody(config) }, onRequest: requireAccess({ resource: config.name, action: 'list' }) },
    async (request, reply) => {
      const answer = await list(app.ctx, signedIn(request), request.body);
      const msg = t(request, 'ok');
      if (typeof answer.list !== 'string') return ok(answer, msg);
      return reply.type('application/json; charset=utf-8').send(okRendered(answer.list, answer.total, msg, answer.totalIsLowerBound));
    },
  );
};
