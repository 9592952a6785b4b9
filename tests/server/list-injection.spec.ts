import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { alarmsConfig } from '../../src/resources/alarms/config';
import { fieldOf, INTEGER_ID_MAX } from '../../src/resources/model';
import { ordersConfig } from '../../src/resources/orders/config';
import { filterableFields } from '../../src/resources/query';
import type { FieldConfig, ResourceConfig } from '../../src/resources/types';
import { listPath } from '../../server/lists/route';
import { SERVED_RESOURCES } from '../../server/resources/registry';
import { restPath } from '../../server/rest/list';
import { REST_PREFIX } from '../../server/rest/plugin';
import { snapshot, useFleetApp } from './fleet';
import { call, envelope } from './http';
import { STORE_KINDS, useStore } from './stores';

/**
 * SQL fragments in a list's sort and filter, on every list the server serves (its registry, so a list
 * added later is covered): a fragment in a field name or a sort order is refused with 40000 (HTTP 400)
 * naming the field, since only the configuration's fields reach the query builder; a fragment in a text
 * filter's value is data, matched literally, and finds nothing. No table changes.
 */
const FIELD_FRAGMENTS = ['Id; DROP TABLE devices --', 'Id) OR 1=1 --', '(SELECT password_hash FROM accounts)', '1', '"Id"'];
const ORDER_FRAGMENTS = ['ASC; DROP TABLE accounts --', 'DESC NULLS FIRST, (SELECT 1)'];
const VALUE_FRAGMENT = "' OR '1'='1' --";

interface ListAnswer {
  status: number;
  code?: number;
  message: string;
  total?: number;
}

const ask = async (app: FastifyInstance, token: string, config: ResourceConfig, body: { sort?: { field: string; order: string }; filter?: Record<string, unknown> }): Promise<ListAnswer> => {
  let response: LightMyRequestResponse;
  if (config.adapter === 'rest') {
    const query = new URLSearchParams();
    if (body.sort) query.set('sort', JSON.stringify([body.sort.field, body.sort.order]));
    if (body.filter) query.set('filter', JSON.stringify(body.filter));
    response = await app.inject({ method: 'GET', url: `${REST_PREFIX}${restPath(config)}?${query}`, headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' } });
    const json = response.json<unknown>();
    const message = response.statusCode === 200 ? '' : (json as { message?: string }).message ?? '';
    const total = response.statusCode === 200 ? Number(response.headers['content-range']?.toString().split('/')[1]) : undefined;
    return { status: response.statusCode, message, total };
  }
  response = await call(app, listPath(config), body, { token, lang: 'en-US' });
  const answer = envelope<{ total: number }>(response);
  return { status: response.statusCode, code: answer.code, message: answer.msg, total: answer.data?.total };
};

const expectRefusedNaming = (answer: ListAnswer, field: string) => {
  expect(answer.status).toBe(400);
  if (answer.code !== undefined) expect(answer.code).toBe(CODES.badInput);
  expect(answer.message).toContain(field);
};

describe.each(STORE_KINDS)('SQL fragments in every list (%s)', (kind) => {
  const store = useStore(kind);
  const fleet = useFleetApp(store);

  it.each(SERVED_RESOURCES.map((resource) => [resource.config.name, resource.config] as const))('%s refuses them by name and stores nothing', async (_name, config) => {
    const before = await snapshot(store.context());
    const token = fleet.tokens.admin;
    for (const field of FIELD_FRAGMENTS) {
      expectRefusedNaming(await ask(fleet.app, token, config, { sort: { field, order: 'ASC' } }), 'sort');
      expectRefusedNaming(await ask(fleet.app, token, config, { filter: { [field]: 'x' } }), field.slice(0, 20));
    }
    const [sortable] = filterableFields(config);
    for (const order of ORDER_FRAGMENTS) {
      expectRefusedNaming(await ask(fleet.app, token, config, { sort: { field: sortable ?? 'Id', order } }), 'sort');
    }
    const textField = filterableFields(config).find((source) => fieldOf(config, source)?.kind === 'text');
    if (textField !== undefined) {
      const literal = await ask(fleet.app, token, config, { filter: { [textField]: VALUE_FRAGMENT } });
      expect(literal.status).toBe(200);
      expect(literal.total).toBe(0);
    }
    expect(await snapshot(store.context())).toBe(before);
  });
});

/** A number or time bound as far as its field allows, or past it (a time has no limit but a safe integer). */
const limitsOf = (field: FieldConfig): { inside: number[]; outside: number[] } | undefined => {
  if (field.kind === 'number') return { inside: [field.min, field.max], outside: field.max < Number.MAX_SAFE_INTEGER ? [field.max + 1] : [] };
  if (field.kind === 'datetime') return { inside: [0, Number.MAX_SAFE_INTEGER], outside: [-1] };
  return undefined;
};

/**
 * A filter value at its field's limits is a question like any other, answered 200 on both stores; one past
 * them is refused naming the field. PostgreSQL compares a value with the column's own type, so a limit
 * wider than the column (an integer id allowed up to 2^53) was a 500 there and fine on SQLite.
 */
describe.each(STORE_KINDS)('every list at its fields\' limits (%s)', (kind) => {
  const store = useStore(kind);
  const fleet = useFleetApp(store);

  it.each(SERVED_RESOURCES.map((resource) => [resource.config.name, resource.config] as const))('%s answers each bound inside and refuses one outside', async (_name, config) => {
    const token = fleet.tokens.admin;
    for (const source of filterableFields(config)) {
      const field = fieldOf(config, source);
      const limits = field === undefined ? undefined : limitsOf(field);
      if (limits === undefined) continue;
      for (const value of limits.inside) {
        for (const filter of [{ [source]: value }, { [source]: { gte: value } }, { [source]: { lte: value } }]) {
          const answer = await ask(fleet.app, token, config, { filter });
          expect({ filter, status: answer.status }).toEqual({ filter, status: 200 });
        }
      }
      for (const value of limits.outside) expectRefusedNaming(await ask(fleet.app, token, config, { filter: { [source]: { lte: value } } }), `${source}.lte`);
    }
  });

  // A route under a record's path takes any id its column holds (the actions beside share the same params).
  const recordRoutes = SERVED_RESOURCES.flatMap(({ config }) => {
    const id = fieldOf(config, 'id');
    return config.adapter === 'rest' && id?.kind === 'number' ? [[`${REST_PREFIX}${restPath(config)}/:id`, id] as const] : [];
  });
  it.each([
    ...recordRoutes,
    ...(['history', 'notifications'] as const).map((tail) => [`${REST_PREFIX}/alarms/:id/${tail}`, fieldOf(alarmsConfig, 'id')] as const),
    [`${REST_PREFIX}/orders/:id/report`, fieldOf(ordersConfig, 'id')] as const,
  ])("GET %s answers up to its column's limit (the record or 404) and refuses a number past it", async (route, id) => {
    if (id?.kind !== 'number') throw new Error(`${route}: no number id`);
    const get = (value: number) =>
      fleet.app.inject({ method: 'GET', url: route.replace(':id', String(value)), headers: { authorization: `Bearer ${fleet.tokens.admin}`, 'accept-language': 'en-US' } });
    // An id field whose range fits 32 bits lives in an integer column, a wider one in a bigint.
    const column = id.max <= INTEGER_ID_MAX ? INTEGER_ID_MAX : Number.MAX_SAFE_INTEGER;
    for (const value of new Set([id.max, Math.min(id.max + 1, column), column])) {
      expect({ value, status: (await get(value)).statusCode }).toEqual({ value, status: expect.toBeOneOf([200, 404]) });
    }
    const past = await get(column + 1);
    expect(past.statusCode).toBe(400);
    expect(past.json<{ message: string }>().message).toContain('id');
  });
});
