import { http, HttpResponse } from 'msw';
import { idFields, recordId, withoutSecrets, type WireRecord } from '../src/resources/model';
import { applyListQuery, listBodySchema, MAX_PAGE_SIZE, toWireFilter, type ListBody } from '../src/resources/query';
import { writeSchema } from '../src/resources/schema';
import type { FormView, ResourceConfig } from '../src/resources/types';
import { CODES } from '../src/domain/envelope';
import { restFail } from './envelope';
import { badInputMessage, readJson, refusalOf, type AccessCheck } from './access';
import type { MockScope } from './scope';


const jsonParam = (params: URLSearchParams, name: string, fallback: unknown): unknown => {
  const raw = params.get(name);
  return raw === null ? fallback : JSON.parse(raw);
};

/** simple-rest's `?sort=["f","ASC"]&range=[0,9]&filter={}` as the list body the shared query understands; null when not JSON. */
const listBodyOf = (url: string): unknown => {
  try {
    return listBodyOfParams(new URL(url).searchParams);
  } catch {
    return null;
  }
};

const listBodyOfParams = (params: URLSearchParams): unknown => {
  const [start = 0, end = MAX_PAGE_SIZE - 1] = jsonParam(params, 'range', []) as number[];
  const [field, order] = jsonParam(params, 'sort', []) as string[];
  const pageSize = end - start + 1;
  return {
    current: Math.floor(start / pageSize) + 1,
    pageSize,
    ...(field ? { sort: { field, order } } : {}),
    filter: toWireFilter(jsonParam(params, 'filter', {}) as Record<string, unknown>),
  };
};

/**
 * One REST resource in ra-data-simple-rest's shape (`Content-Range` on lists, PUT for updates), answered
 * from its table with the same query meaning as the upstream. REST resources are named by `id`. Only
 * records in the caller's scope are listed, read or touched; one out of scope is 404 (./scope.ts).
 */
export const restResourceHandlers = (restBase: string, config: ResourceConfig, table: WireRecord[], check: AccessCheck, scope: MockScope) => {
  const url = `${restBase}/${config.adapter === 'rest' && config.path ? config.path : config.name}`;
  const refuse = (request: Request, action: string) => {
    const refusal = refusalOf(request, check, { resource: config.name, action });
    if (refusal === 'notSignedIn') return restFail(CODES.notSignedIn, 'not logged in');
    return refusal === 'forbidden' ? restFail(CODES.forbidden, 'forbidden') : undefined;
  };
  const indexOf = (request: Request, id: unknown) => {
    const index = table.findIndex((record) => String(recordId(config, record)) === String(id));
    return index >= 0 && scope.visible(request, config.name, [table[index] ?? {}]).length > 0 ? index : -1;
  };
  /** simple-rest sends whole records on update, so fields the form does not write are ignored rather than refused. */
  const parse = async (request: Request, view: FormView) => writeSchema(config, view).strip().safeParse(await readJson(request));
  const nextId = () => Math.max(0, ...table.map((record) => Number(recordId(config, record)) || 0)) + 1;

  return [
    http.get(url, ({ request }) => {
      const refused = refuse(request, 'list');
      if (refused) return refused;
      const body = listBodySchema(config).safeParse(listBodyOf(request.url));
      if (!body.success) return restFail(CODES.badInput, badInputMessage(body.error));
      const { list, total } = applyListQuery(config, scope.visible(request, config.name, table), body.data as ListBody);
      const start = (body.data.current - 1) * body.data.pageSize;
      return HttpResponse.json(list, { headers: { 'Content-Range': `${config.name} ${start}-${start + list.length - 1}/${total}` } });
    }),
    http.get(`${url}/:id`, ({ request, params }) => {
      const refused = refuse(request, 'show');
      if (refused) return refused;
      const index = indexOf(request, params.id);
      return index < 0 ? restFail(CODES.notFound, 'not found') : HttpResponse.json(scope.visible(request, config.name, [table[index] ?? {}])[0]);
    }),
    http.post(url, async ({ request }) => {
      const refused = refuse(request, 'create');
      if (refused) return refused;
      const body = await parse(request, 'create');
      if (!body.success) return restFail(CODES.badInput, badInputMessage(body.error));
      const [idField = 'id'] = idFields(config);
      const record = { [idField]: nextId(), ...withoutSecrets(config, body.data) };
      table.unshift(record);
      return HttpResponse.json(record, { status: 201 });
    }),
    http.put(`${url}/:id`, async ({ request, params }) => {
      const refused = refuse(request, 'edit');
      if (refused) return refused;
      const index = indexOf(request, params.id);
      if (index < 0) return restFail(CODES.notFound, 'not found');
      const body = await parse(request, 'edit');
      if (!body.success) return restFail(CODES.badInput, badInputMessage(body.error));
      const record = { ...table[index], ...withoutSecrets(config, body.data) };
      table[index] = record;
      return HttpResponse.json(record);
    }),
    http.delete(`${url}/:id`, ({ request, params }) => {
      const refused = refuse(request, 'delete');
      if (refused) return refused;
      const index = indexOf(request, params.id);
      if (index < 0) return restFail(CODES.notFound, 'not found');
      const [removed] = table.splice(index, 1);
      return HttpResponse.json(removed);
    }),
  ];
};
