import {
  HttpError,
  type CreateParams,
  type DataProvider,
  type DeleteManyParams,
  type DeleteParams,
  type GetListParams,
  type GetManyParams,
  type GetManyReferenceParams,
  type GetOneParams,
  type Identifier,
  type RaRecord,
  type UpdateManyParams,
  type UpdateParams,
} from 'react-admin';
import { CODES } from '../domain/envelope';
import {
  findResource,
  idFields,
  idFilter,
  idValues,
  recordId,
  withoutSecrets,
  writable,
  type WireRecord,
} from '../resources/model';
import { DEFAULT_PAGE, toWireFilter, type ListAnswer, type ListBody } from '../resources/query';
import type { ResourceConfig, UpstreamCall, UpstreamEndpoints } from '../resources/types';
import type { HttpClient } from './httpClient';

/** A call the upstream has no endpoint for; it always names the resource and the method. */
export class UnsupportedCallError extends Error {
  constructor(resource: string, method: string) {
    super(`The upstream cannot ${method} ${resource}: it has no endpoint for it`);
    this.name = 'UnsupportedCallError';
  }
}

type UpstreamConfig = ResourceConfig & { adapter: 'upstream'; endpoints: UpstreamEndpoints };

/** The one place a wire record becomes the record type a caller asked react-admin for. */
const withId = <R extends RaRecord>(config: ResourceConfig, record: WireRecord): R =>
  ({ ...record, id: recordId(config, record) }) as R;

/** The upstream answers a create or update with the record, or with nothing; either way we return one. */
const savedRecord = <R extends RaRecord>(config: ResourceConfig, sent: WireRecord, answer: unknown): R =>
  withId<R>(config, withoutSecrets(config, { ...sent, ...(typeof answer === 'object' && answer !== null ? answer : {}) }));

/**
 * react-admin's calls as the upstream's POST contract (docs/product.md, "Wire contract"): page/perPage →
 * current/pageSize, sort and filter in the body, `{ list, total }` → `{ data, total }`. Records get
 * react-admin's `id` from the resource's id field(s). The upstream has no single-record read, so getOne
 * and getMany ask the list with an id filter. What it has no endpoint for fails with UnsupportedCallError.
 */
export const createUpstreamProvider = (http: HttpClient, resources: readonly ResourceConfig[]) => {
  const configOf = (resource: string): UpstreamConfig => {
    const config = findResource(resources, resource);
    if (config.adapter !== 'upstream') throw new Error(`${resource} is not served by the upstream`);
    return config;
  };

  const endpoint = (config: UpstreamConfig, key: UpstreamCall, method: string): string => {
    const path = config.endpoints[key];
    if (!path) throw new UnsupportedCallError(config.name, method);
    return path;
  };

  const list = async <R extends RaRecord>(config: UpstreamConfig, { pagination, sort, filter }: Partial<GetListParams>) => {
    const body: ListBody = {
      current: pagination?.page ?? DEFAULT_PAGE.current,
      pageSize: pagination?.perPage ?? DEFAULT_PAGE.pageSize,
      // react-admin's default sort field is `id`, which on the wire is the (first) id field.
      ...(sort?.field ? { sort: { field: sort.field === 'id' ? (idFields(config)[0] ?? 'id') : sort.field, order: sort.order } } : {}),
      filter: toWireFilter(filter ?? {}) as ListBody['filter'],
    };
    const answer = await http.post<ListAnswer>(config.endpoints.list, body);
    const data = answer.list.map((record) => withId<R>(config, record));
    // A match too large to count (the readings log): react-admin pages it by previous/next, without a total.
    if (answer.totalIsLowerBound === true) {
      return { data, pageInfo: { hasPreviousPage: body.current > 1, hasNextPage: body.current * body.pageSize < answer.total } };
    }
    return { data, total: answer.total };
  };

  const byIds = async <R extends RaRecord>(config: UpstreamConfig, ids: readonly Identifier[]) => {
    const wanted = new Set(ids.map(String));
    const { data } = await list<R>(config, { pagination: { page: 1, perPage: ids.length }, filter: idFilter(config, ids) });
    // A composite id's filter may over-match (devices × times); keep exactly the records asked for.
    return data.filter((record) => wanted.has(String(record.id)));
  };

  /** Sequential, so a failure stops the rest and says which record it was. */
  const each = async (ids: Identifier[], call: (id: Identifier) => Promise<unknown>) => {
    for (const id of ids) await call(id);
    return { data: ids };
  };

  const provider = {
    getList: async <R extends RaRecord>(resource: string, params: GetListParams) => list<R>(configOf(resource), params),
    getOne: async <R extends RaRecord>(resource: string, { id }: GetOneParams) => {
      const config = configOf(resource);
      const [record] = await byIds<R>(config, [id]);
      if (!record) throw new HttpError(`${resource} ${String(id)} not found`, 404, { code: CODES.notFound });
      return { data: record };
    },
    getMany: async <R extends RaRecord>(resource: string, { ids }: GetManyParams) => ({
      data: ids.length ? await byIds<R>(configOf(resource), ids) : [],
    }),
    getManyReference: async <R extends RaRecord>(resource: string, { target, id, filter, ...params }: GetManyReferenceParams) =>
      list<R>(configOf(resource), { ...params, filter: { ...filter, [target]: id } }),
    create: async <R extends RaRecord>(resource: string, { data }: CreateParams) => {
      const config = configOf(resource);
      const sent = writable(config, 'create', data);
      return { data: savedRecord<R>(config, sent, await http.post(endpoint(config, 'create', 'create'), sent)) };
    },
    update: async <R extends RaRecord>(resource: string, { id, data }: UpdateParams) => {
      const config = configOf(resource);
      const sent = { ...writable(config, 'edit', data), ...idValues(config, id) };
      return { data: savedRecord<R>(config, sent, await http.post(endpoint(config, 'update', 'update'), sent)) };
    },
    updateMany: async (resource: string, { ids, data }: UpdateManyParams) => {
      const config = configOf(resource);
      const path = endpoint(config, 'update', 'updateMany');
      return each(ids, (id) => http.post(path, { ...writable(config, 'edit', data), ...idValues(config, id) }));
    },
    delete: async <R extends RaRecord>(resource: string, { id, previousData }: DeleteParams<R>) => {
      const config = configOf(resource);
      const sent = idValues(config, id);
      await http.post(endpoint(config, 'delete', 'delete'), sent);
      return { data: previousData ?? withId<R>(config, sent) };
    },
    deleteMany: async (resource: string, { ids }: DeleteManyParams) => {
      const config = configOf(resource);
      const path = endpoint(config, 'delete', 'deleteMany');
      return each(ids, (id) => http.post(path, idValues(config, id)));
    },
  } satisfies DataProvider;
  return provider;
};
