import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldOf, idFields, INTEGER_ID_MAX, type WireRecord } from '../../src/resources/model';
import type { ListAnswer } from '../../src/resources/query';
import type { ResourceConfig } from '../../src/resources/types';
import { requireAccess, signedIn } from '../auth/guard';
import { notFound } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { asRecords, type RenderedList } from '../lists/answer';
import type { ServedResource } from '../resources/served';
import { contentRange, restListQuery } from './query';

/** The REST path of a resource under /api/v1, from its configuration (the console's rest adapter asks the same). */
export const restPath = (config: ResourceConfig): string => {
  if (config.adapter !== 'rest') throw new Error(`${config.name} is not served by the REST API`);
  return `/${config.path ?? config.name}`;
};

/**
 * A record's name in `/:id` by default: a whole number its column can hold, a 32-bit integer when the
 * `id` field's range fits one (those tables' ids are `integer`), else a safe integer (a `bigint`). So
 * PostgreSQL is never asked to compare a wider one (a 500 there), and a number beyond the field's own
 * range but inside the column's is a record that does not exist (404), as any other missing one.
 */
export const numericIdOf = (config: ResourceConfig) => {
  const field = fieldOf(config, 'id');
  if (field?.kind !== 'number') throw new Error(`${config.name}: a record named by number needs a number id field`);
  return z.coerce.number().int().min(1).max(field.max <= INTEGER_ID_MAX ? INTEGER_ID_MAX : Number.MAX_SAFE_INTEGER);
};

/** The params of a route under a record's path, `/:id`, named as numericIdOf says. */
export const recordParams = (config: ResourceConfig) => z.strictObject({ id: numericIdOf(config) });

/** The params of a served resource's own record routes: its `recordId` when it names records otherwise. */
export const servedRecordParams = ({ config, recordId }: ServedResource) => (recordId === undefined ? recordParams(config) : z.strictObject({ id: recordId }));

/** The answer's records: a rendered page parsed (only `/:id` reads them), records as they are. */
export const recordsOf = (answer: ListAnswer | RenderedList): ListAnswer => (typeof answer.list === 'string' ? asRecords(answer as RenderedList) : (answer as ListAnswer));

/**
 * A read-only REST resource in ra-data-simple-rest's shape:
 *   GET /<path>?sort=…&range=…&filter=…  → the page as a JSON array, `Content-Range: <path> 0-24/319`
 *   GET /<path>/:id                      → the record, or 404 (the same for one out of the viewer's scope)
 * Signed in (else 401/50008) and allowed `list` / `show` by the shared policy (else 403/40300), both
 * before the query is read; the query validated by restListQuery (else 400 naming the parameter).
 * A record is named by its `id` field, a whole number unless the resource says otherwise (`recordId`).
 * The listing is checked against the configuration here, so a gap stops the start.
 */
export const registerRestList = (instance: FastifyInstance, resource: ServedResource): void => {
  const { config, listing, list } = resource;
  listing();
  const ids = idFields(config);
  if (ids.length !== 1 || ids[0] !== 'id') throw new Error(`${config.name}: a REST resource is named by its id field, not by ${ids.join(', ')}`);
  const path = restPath(config);
  const name = path.slice(1);
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    path,
    { schema: { querystring: restListQuery(config) }, onRequest: requireAccess({ resource: config.name, action: 'list' }) },
    async (request, reply) => {
      const body = request.query;
      const answer = await list(app.ctx, signedIn(request), body);
      if (typeof answer.list === 'string') {
        const rendered = answer as RenderedList;
        void reply.header('Content-Range', contentRange(name, body, rendered.length, rendered.total));
        return reply.type('application/json; charset=utf-8').send(rendered.list);
      }
      void reply.header('Content-Range', contentRange(name, body, answer.list.length, answer.total));
      return answer.list;
    },
  );

  app.get(
    `${path}/:id`,
    { schema: { params: servedRecordParams(resource) }, onRequest: requireAccess({ resource: config.name, action: 'show' }) },
    async (request): Promise<WireRecord> => {
      const { list: records } = recordsOf(await list(app.ctx, signedIn(request), { current: 1, pageSize: 1, filter: { id: [request.params.id] } }));
      const [record] = records;
      if (record === undefined) throw notFound();
      return record;
    },
  );
};
