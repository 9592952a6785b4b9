import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idFields, type WireRecord } from '../../src/resources/model';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import type { ResourceConfig } from '../../src/resources/types';
import { requireAccess, signedIn } from '../auth/guard';
import type { AppContext } from '../context';
import { notFound } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import type { Listing } from '../lists/engine';
import type { Viewer } from '../scope/service';
import { contentRange, restListQuery } from './query';

/** The REST path of a resource under /api/v1, from its configuration (the console's rest adapter asks the same). */
export const restPath = (config: ResourceConfig): string => {
  if (config.adapter !== 'rest') throw new Error(`${config.name} is not served by the REST API`);
  return `/${config.path ?? config.name}`;
};

export interface RestListOptions {
  config: ResourceConfig;
  /** The resource's listing; checked against the configuration here, so a gap stops the start. */
  listing: () => Listing;
  /** A page of the records the viewer sees (the same meaning as the upstream's lists). */
  list: (ctx: AppContext, viewer: Viewer, body: ListBody) => Promise<ListAnswer>;
}

const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/**
 * A read-only REST resource in ra-data-simple-rest's shape:
 *   GET /<path>?sort=…&range=…&filter=…  → the page as a JSON array, `Content-Range: <path> 0-24/319`
 *   GET /<path>/:id                      → the record, or 404 (the same for one out of the viewer's scope)
 * Signed in (else 401/50008) and allowed `list` / `show` by the shared policy (else 403/40300), both
 * before the query is read; the query validated by restListQuery (else 400 naming the parameter).
 * A record is named by the numeric `id` field (REST resources are, docs/adding-a-resource.md).
 */
export const registerRestList = (instance: FastifyInstance, { config, listing, list }: RestListOptions): void => {
  listing();
  const ids = idFields(config);
  if (ids.length !== 1 || ids[0] !== 'id') throw new Error(`${config.name}: a REST resource is named by a numeric id, not by ${ids.join(', ')}`);
  const path = restPath(config);
  const name = path.slice(1);
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    path,
    { schema: { querystring: restListQuery(config) }, onRequest: requireAccess({ resource: config.name, action: 'list' }) },
    async (request, reply): Promise<WireRecord[]> => {
      const body = request.query;
      const { list: records, total } = await list(app.ctx, signedIn(request), body);
      void reply.header('Content-Range', contentRange(name, body, records.length, total));
      return records;
    },
  );

  app.get(
    `${path}/:id`,
    { schema: { params: idParams }, onRequest: requireAccess({ resource: config.name, action: 'show' }) },
    async (request): Promise<WireRecord> => {
      const { list: records } = await list(app.ctx, signedIn(request), { current: 1, pageSize: 1, filter: { id: [request.params.id] } });
      const [record] = records;
      if (record === undefined) throw notFound();
      return record;
    },
  );
};
