import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import { idFields, readableEntries, withoutSecrets, type WireRecord } from '../src/resources/model';
import { applyListQuery, listBodySchema, type ListBody } from '../src/resources/query';
import { keySchema, writeSchema } from '../src/resources/schema';
import type { ResourceConfig, UpstreamEndpoints } from '../src/resources/types';
import { badInputMessage, readJson, refusalOf, type AccessCheck } from './access';
import { fail, ok } from './envelope';
import type { MockScope } from './scope';

type UpstreamConfig = ResourceConfig & { adapter: 'upstream'; endpoints: UpstreamEndpoints };

/** The envelope answer for a refused request, or undefined when the request may go on. */
export const upstreamRefusal = (request: Request, check: AccessCheck, resource: string, action: string) => {
  const refusal = refusalOf(request, check, { resource, action });
  if (refusal === 'notSignedIn') return fail(CODES.notSignedIn, 'not logged in');
  return refusal === 'forbidden' ? fail(CODES.forbidden, 'forbidden') : undefined;
};

/**
 * One resource's upstream calls, answered from its table: the list with paging, sort and filter as
 * the server answers them, and create, update and delete where the configuration has endpoints.
 * Bodies are validated with the resource's own schemas, so a bad one gets 40000 as from the server.
 * Only records in the caller's scope are listed or touched; one out of scope is not found (./scope.ts).
 */
export const upstreamResourceHandlers = (base: string, config: UpstreamConfig, table: WireRecord[], check: AccessCheck, scope: MockScope) => {
  const { list, create, update, delete: remove } = config.endpoints;
  const indexOf = (request: Request, key: WireRecord) => {
    const index = table.findIndex((record) => idFields(config).every((source) => record[source] === key[source]));
    return index >= 0 && scope.visible(request, config.name, [table[index] ?? {}]).length > 0 ? index : -1;
  };
  const empty = Object.fromEntries(readableEntries(config).map(([source]) => [source, null]));

  const listHandler = http.post(`${base}${list}`, async ({ request }) => {
    const refused = upstreamRefusal(request, check, config.name, 'list');
    if (refused) return refused;
    const body = listBodySchema(config).safeParse((await readJson(request)) ?? {});
    if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
    return ok(applyListQuery(config, scope.visible(request, config.name, table), body.data as ListBody));
  });

  const createHandler = (path: string) =>
    http.post(`${base}${path}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, config.name, 'create');
      if (refused) return refused;
      const body = writeSchema(config, 'create').safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      if (table.some((record) => idFields(config).every((source) => record[source] === body.data[source]))) return fail(CODES.badInput, `${idFields(config).join(', ')}: already exists`);
      const record = { ...empty, ...withoutSecrets(config, body.data) };
      table.unshift(record);
      return ok(record);
    });

  const updateHandler = (path: string) =>
    http.post(`${base}${path}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, config.name, 'edit');
      if (refused) return refused;
      const body = writeSchema(config, 'edit').safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const index = indexOf(request, body.data);
      if (index < 0) return fail(CODES.notFound, 'not found');
      const record = { ...table[index], ...body.data };
      table[index] = record;
      return ok(record);
    });

  const deleteHandler = (path: string) =>
    http.post(`${base}${path}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, config.name, 'delete');
      if (refused) return refused;
      const body = keySchema(config).safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const index = indexOf(request, body.data);
      if (index < 0) return fail(CODES.notFound, 'not found');
      table.splice(index, 1);
      return ok(null);
    });

  return [
    listHandler,
    ...(create ? [createHandler(create)] : []),
    ...(update ? [updateHandler(update)] : []),
    ...(remove ? [deleteHandler(remove)] : []),
  ];
};
