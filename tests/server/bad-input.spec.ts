import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CODES } from '../../src/domain/envelope';
import { fieldOf, sourcesIn } from '../../src/resources/model';
import { filterableFields, sortableFields } from '../../src/resources/query';
import { RESOURCE_CONFIGS } from '../../src/resources/configs';
import type { ResourceConfig } from '../../src/resources/types';
import type { AppContext } from '../../server/context';
import { seedDemoFleet } from '../../server/demo/fleet';
import { upstreamNotFound } from '../../server/http/plugin';
import { fieldName, nulCharacterPath, shownSegment } from '../../server/http/validation';
import { expireOverdue } from '../../server/orders/expiry';
import { restNotFound } from '../../server/rest/errors';
import { demoTokens, seedFleet, T0, type DemoName } from './fleet';
import { fakeClock, STORE_KINDS, useStore, type StoreKind } from './stores';

/**
 * Bad input, property-based (docs/bad-input.md). Every route the app registers is found through an
 * onRoute hook, so endpoints added later are covered without editing this file; random malformed
 * requests (fast-check) are sent to them as each demo role, without a token and with a bad one:
 *   - every answer is below 500, and 4xx for every request that is malformed for certain;
 *   - every refusal carries a non-empty msg (envelope) or message (REST);
 *   - a refusal for bad input (40000) names the field: the unknown field, the field of the wrong type;
 *   - no table changes (row counts and a hash of every row), and the app still answers /healthz.
 * Reproduce a failure with the seed (and path) fast-check prints:
 *   BAD_INPUT_SEED=<seed> BAD_INPUT_PATH=<path> npx vitest run --project server tests/server/bad-input.spec.ts
 * BAD_INPUT_RUNS scales the SQLite run (default 10,000 requests; PostgreSQL runs a tenth).
 */

// ---------------------------------------------------------------------------------------------------
// Configuration

const envNumber = (name: string): number | undefined => {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`${name} must be a whole number (got "${value}")`);
  return parsed;
};

const SEED = envNumber('BAD_INPUT_SEED');
const PATH = process.env.BAD_INPUT_PATH;
const TOTAL: Record<StoreKind, number> = { sqlite: envNumber('BAD_INPUT_RUNS') ?? 10_000, postgres: 0 };
TOTAL.postgres = Math.max(100, Math.round(TOTAL.sqlite / 10));
/** Shares of the requests: bodies, queries/params/methods, read-only list queries. */
const SHARES = { bodies: 0.5, queries: 0.2, lists: 0.3 } as const;

/** Fastify's bodyLimit in server/app.ts. */
const BODY_LIMIT = 1024 * 1024;
/** find-my-way's maxParamLength: a longer path parameter never reaches a route (the not-found answers come). */
const MAX_PARAM_LENGTH = 100;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Routes left out, and why:
 *  - HEAD: Fastify's mirror of each GET (same handler and schema, no body), covered through the GET;
 *  - /healthz: takes no input, answers 503 by design when the store is down, and is the liveness
 *    check this test makes at the end;
 *  - the console's page (`/`, server/console/plugin.ts: takes no input, answers the built page or 503)
 *    and its catch-alls: the static console (`/*`, @fastify/static: serves files, takes no input, answers
 *    503 by design while the console is not built, as in tests) and the not-found answers of a
 *    prefix (`/api/v1`, `/api/v1/*`); they serve no endpoint of their own, and the wrong-method probes
 *    below reach them anyway;
 *  - WebSocket routes (`websocket: true`): not plain requests.
 */
const NOT_FOUND_HANDLERS: readonly unknown[] = [restNotFound, upstreamNotFound];
const isExcluded = (method: string, route: RouteOptions): boolean =>
  method === 'HEAD' ||
  route.url === '/healthz' ||
  route.url === '/' ||
  route.url.includes('*') ||
  NOT_FOUND_HANDLERS.includes(route.handler) ||
  (route as { websocket?: boolean }).websocket === true;

// ---------------------------------------------------------------------------------------------------
// Zod schemas, read generically

type Schema = z.ZodType;
interface Def {
  type: string;
  [key: string]: unknown;
}
const defOf = (schema: Schema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isSchema = (value: unknown): value is Schema => value instanceof z.ZodType;

/** The object a schema takes as input, under optional/nullable/default and pipes (preprocess, transform → pipe). */
const objectIn = (schema: Schema): z.ZodObject | undefined => {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return schema as z.ZodObject;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return isSchema(def.innerType) ? objectIn(def.innerType) : undefined;
    case 'pipe':
      return (isSchema(def.in) ? objectIn(def.in) : undefined) ?? (isSchema(def.out) ? objectIn(def.out) : undefined);
    default:
      return undefined;
  }
};

const isStrict = (object: z.ZodObject): boolean => {
  const catchall = defOf(object).catchall;
  return isSchema(catchall) && defOf(catchall).type === 'never';
};

/** Literal and enum values anywhere in a schema: candidates for a valid sample. */
const literalsIn = (schema: Schema, seen = new Set<Schema>()): unknown[] => {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const found: unknown[] = [];
  if (def.type === 'literal' && Array.isArray(def.values)) found.push(...(def.values as unknown[]));
  if (def.type === 'enum' && typeof def.entries === 'object' && def.entries !== null) found.push(...Object.values(def.entries));
  for (const key of ['innerType', 'in', 'out', 'element']) {
    const inner = def[key];
    if (isSchema(inner)) found.push(...literalsIn(inner, seen));
  }
  if (Array.isArray(def.options)) for (const option of def.options) if (isSchema(option)) found.push(...literalsIn(option, seen));
  return found;
};

/** The largest string length a schema's own checks allow, if it says. */
const maxLengthOf = (schema: Schema): number | undefined => {
  const def = defOf(schema);
  if (def.type === 'string' && Array.isArray(def.checks)) {
    for (const check of def.checks as { _zod: { def: { check: string; maximum?: number } } }[]) {
      if (check._zod.def.check === 'max_length') return check._zod.def.maximum;
    }
  }
  for (const key of ['innerType', 'in', 'out']) {
    const inner = def[key];
    if (isSchema(inner)) {
      const found = maxLengthOf(inner);
      if (found !== undefined) return found;
    }
  }
  return undefined;
};

const accepts = (schema: Schema, value: unknown): boolean => schema.safeParse(value).success;

const GENERIC_CANDIDATES: readonly unknown[] = [
  // A sha256 in hex: the settings' hash a signature of parameter approval signs.
  'a'.repeat(64),
  'OC-A1', 'first', 'Strong2026x', 'Id', 'Time', 'at', 'id', 'ASC', 'Work', 'Open', 1, 2, 3, 0, 10, T0, true, false, [], ['OC-A1'], [1], {}, 'x',
  // A history range (its `to` must follow its `from`, so no single candidate fills both).
  { from: T0, to: T0 + 1 },
  // The user settings' formats: an email, a calendar day, a session's name.
  'li.na@example.com', '2099-12-31', '0123456789abcdef',
  // A pivot of the analysis: a range, a measure and a dimension together.
  { from: T0, to: T0 + 1, measure: 'sessions', by: 'site' },
];

const NONE = Symbol('none');

/** A value the schema accepts: an object from samples of its required keys, else the first candidate that passes. */
const sampleOf = (schema: Schema, depth = 0): unknown => {
  if (depth > 4) return NONE;
  const object = objectIn(schema);
  if (object !== undefined && defOf(schema).type !== 'union') {
    const built: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(object.shape as Record<string, Schema>)) {
      if (accepts(inner, undefined)) continue;
      const value = sampleOf(inner, depth + 1);
      if (value === NONE) return NONE;
      built[key] = value;
    }
    if (accepts(schema, built)) return built;
  }
  for (const candidate of [...literalsIn(schema), ...GENERIC_CANDIDATES]) if (accepts(schema, candidate)) return candidate;
  return NONE;
};

/** One field a request part may carry: its path from the top, its schema, a valid sample. */
interface Leaf {
  path: string[];
  schema: Schema;
  sample: unknown;
}

/** A request part's schema, read: its top object, whether it refuses unknown keys, a valid base value, its leaves. */
interface PartInfo {
  schema: Schema;
  object: z.ZodObject | undefined;
  strict: boolean;
  /** A value the whole schema accepts (never sent as is), or NONE. */
  base: unknown;
  leaves: Leaf[];
  /** Containers (nested objects) by joined path, with a valid sample to put a nested leaf in. */
  containers: Map<string, unknown>;
}

const readPart = (schema: Schema): PartInfo => {
  const object = objectIn(schema);
  const leaves: Leaf[] = [];
  const containers = new Map<string, unknown>();
  const walk = (inner: z.ZodObject, prefix: string[], depth: number) => {
    for (const [key, child] of Object.entries(inner.shape as Record<string, Schema>)) {
      const path = [...prefix, key];
      const sample = sampleOf(child);
      leaves.push({ path, schema: child, sample });
      const nested = objectIn(child);
      if (nested !== undefined && depth < 3 && defOf(child).type !== 'union') {
        const containerSample = sampleOf(nested);
        if (containerSample !== NONE) {
          containers.set(path.join('\u0001'), containerSample);
          walk(nested, path, depth + 1);
        }
      }
    }
  };
  if (object !== undefined) walk(object, [], 0);
  return { schema, object, strict: object !== undefined && isStrict(object), base: sampleOf(schema), leaves, containers };
};

/** `base` with `value` at `path`, nested containers filled with their samples where missing. */
const withValueAt = (info: PartInfo, base: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> => {
  const top: Record<string, unknown> = { ...base };
  let at = top;
  path.forEach((segment, index) => {
    if (index === path.length - 1) {
      at[segment] = value;
      return;
    }
    const existing = at[segment];
    const container = typeof existing === 'object' && existing !== null && !Array.isArray(existing)
      ? existing
      : info.containers.get(path.slice(0, index + 1).join('\u0001'));
    const copy = { ...(container as Record<string, unknown>) };
    at[segment] = copy;
    at = copy;
  });
  return top;
};

// ---------------------------------------------------------------------------------------------------
// Endpoints

interface Endpoint {
  method: string;
  /** As registered, e.g. /upstream/list/get_Records, /api/v1/devices/:Id. */
  url: string;
  key: string;
  body?: PartInfo;
  querystring?: PartInfo;
  params?: PartInfo;
  paramNames: string[];
  guarded: boolean;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const collectRoutes = (sink: Endpoint[]) => (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods.map(String)) {
      if (isExcluded(method, route)) continue;
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      const part = (name: string) => (isSchema(schema[name]) ? readPart(schema[name]) : undefined);
      sink.push({
        method,
        url: route.url,
        key: `${method} ${route.url}`,
        body: part('body'),
        querystring: part('querystring'),
        params: part('params'),
        paramNames: [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? ''),
        guarded: route.onRequest !== undefined || route.preHandler !== undefined || route.preValidation !== undefined,
      });
    }
  });
};

/** Path parameters that the route's params schema accepts (to reach the body's validation), or plain ones. */
const plausibleParams = (endpoint: Endpoint): Record<string, string> => {
  const candidates = ['OC-A1', '1', 'first'];
  const params: Record<string, string> = {};
  for (const name of endpoint.paramNames) {
    const leaf = endpoint.params?.leaves.find((candidate) => candidate.path.join('.') === name);
    params[name] = candidates.find((value) => leaf === undefined || accepts(leaf.schema, value)) ?? 'OC-A1';
  }
  return params;
};

const fillUrl = (url: string, params: Record<string, string>, raw = false): string =>
  url.replace(/:(\w+)/g, (_whole, name: string) => (raw ? (params[name] ?? '') : encodeURIComponent(params[name] ?? '')));

// ---------------------------------------------------------------------------------------------------
// Requests

type Who = DemoName | 'none' | 'unknownToken' | 'garbage';
const whoArb: fc.Arbitrary<Who> = fc.oneof(
  { arbitrary: fc.constant<Who>('admin'), weight: 5 },
  { arbitrary: fc.constantFrom<Who>('first', 'second', 'client'), weight: 3 },
  { arbitrary: fc.constantFrom<Who>('none', 'unknownToken', 'garbage'), weight: 2 },
);
const langArb = fc.constantFrom<string | undefined>(undefined, 'en-US', 'zh-CN', 'en;q=0.5,zh-CN;q=0.9', 'fr');

interface Probe {
  kind: string;
  endpoint: string;
  method: string;
  url: string;
  contentType?: string;
  /** JSON text or raw text (deep nesting already expanded by `encode`). */
  payload?: string;
  who: Who;
  lang: string | undefined;
  /** Malformed for certain: must be refused with a 4xx. */
  malformed: boolean;
  /** For a refusal as bad input: the msg must contain one of these (the field named). */
  names?: string[];
  /** Sending it could change data if it were accepted (only malformed ones are then sent). */
  writes: boolean;
}

const shorten = (text: string | undefined, max = 300) =>
  text === undefined ? undefined : text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

const withDescription = (probe: Probe): Probe =>
  Object.assign(probe, {
    [fc.toStringMethod]: () => JSON.stringify({ ...probe, payload: shorten(probe.payload) }),
  });

/** Deeply nested JSON, written as text (JSON.stringify of such a value would overflow the stack). */
const DEEP_MARK = '\u0001deep\u0001';
/** DEEP_MARK as JSON.stringify writes it, replaced by the nested text in `encode`. */
const DEEP = JSON.stringify(DEEP_MARK);
const deepJson = (depth: number, kind: 'array' | 'object') =>
  kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArb = fc.tuple(
  fc.oneof({ arbitrary: fc.constantFrom(50, 1000, 10_000), weight: 9 }, { arbitrary: fc.constant(100_000), weight: 1 }),
  fc.constantFrom<'array' | 'object'>('array', 'object'),
);
const encode = (value: unknown, deep?: [number, 'array' | 'object']): string => {
  const text = JSON.stringify(value) ?? 'null';
  return deep === undefined ? text : text.replace(DEEP, deepJson(...deep));
};

/** Values for a field of the wrong type (or shape, or size): filtered per field to those its schema refuses. */
const wrongValueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53, '', '   ', '\u0000', 'a\u0000b', [], {}, [null], { gte: 'x' }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** A field counts as checkable when its schema refuses at least one of these. */
const PROBE_VALUES: readonly unknown[] = [null, true, 1.5, '', {}, [], 'x'.repeat(10_000)];

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const unknownKeyArb = (known: readonly string[]): fc.Arbitrary<string> =>
  fc
    .oneof(
      { arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/), weight: 4 },
      {
        arbitrary: fc.constantFrom(
          '', ' ', 'id ', ' Id', 'ID', 'account', 'CODE', 'toString', 'hasOwnProperty', 'valueOf', 'a.b', '$where', '{field}',
          '0', '-1', 'pageSize ', 'filter\n', 'ünknown', '未知字段', '🙂', 'x'.repeat(300), 'a\u0000b', '\ud800',
        ),
        weight: 2,
      },
      { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), weight: 1 },
      { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), weight: 1 },
    )
    .filter((key) => !known.includes(key) && !RESERVED_KEYS.has(key));

const NON_JSON_TEXTS = ['{', '{"a":', 'undefined', "{'a':1}", 'NaN', '[1,]', '{"a":1}}', '\uFEFF{', 'nul', '"unterminated', '{"a":01}', '{"a":1,}', '<xml/>', '--', '1 2'];
const OTHER_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml', 'application/octet-stream', 'image/png', 'application/jsonx'];
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];
const BIG_BODIES = [BODY_LIMIT + 1, BODY_LIMIT + 64 * 1024].map((size) => `{"x":"${'x'.repeat(size - 8)}"}`);

/**
 * What the server will see of a body, and whether that is malformed for certain: over the limit or of a
 * type it does not parse (refused before validation); not JSON; else what the schema says.
 */
const classifyBody = (info: PartInfo, contentType: string | undefined, payload: string): { malformed: boolean } => {
  if (Buffer.byteLength(payload) > BODY_LIMIT) return { malformed: true };
  if (contentType === undefined) return { malformed: payload.length > 0 || !accepts(info.schema, undefined) };
  if (contentType.startsWith('text/plain')) return { malformed: !accepts(info.schema, payload) };
  if (!contentType.startsWith('application/json')) return { malformed: true };
  if (payload.trim() === '') return { malformed: !accepts(info.schema, undefined) };
  let parsed: unknown;
  try {
    // Fastify's JSON parser (secure-json-parse) drops a leading byte order mark.
    parsed = JSON.parse(payload.replace(/^\uFEFF/, ''));
  } catch {
    return { malformed: true };
  }
  return { malformed: !accepts(info.schema, parsed) };
};

/** The expected field name in a msg, as the server renders it. */
const named = (path: readonly PropertyKey[], part = 'body') => fieldName(path, part);

/** Malformed bodies for one body-taking endpoint. */
const bodyProbeArb = (endpoint: Endpoint): fc.Arbitrary<Probe> => {
  const info = endpoint.body as PartInfo;
  const url = fillUrl(endpoint.url, plausibleParams(endpoint));
  const base = typeof info.base === 'object' && info.base !== null && !Array.isArray(info.base) ? (info.base as Record<string, unknown>) : undefined;
  const topKeys = info.object === undefined ? [] : Object.keys(info.object.shape);
  const rejectable = info.leaves.filter((leaf) => PROBE_VALUES.some((value) => !accepts(leaf.schema, value)));
  const stringLeaves = info.leaves.filter((leaf) => typeof leaf.sample === 'string');
  const nested = [...info.containers.keys()].map((joined) => joined.split('\u0001'));

  const common = fc.record({ who: whoArb, lang: langArb });
  const probe = (kind: string, payload: string, rest: Partial<Probe> & { who: Who; lang: string | undefined }, contentType: string | undefined = 'application/json'): Probe => {
    const { malformed } = classifyBody(info, contentType, payload);
    // Prototype keys anywhere are refused by the JSON parser itself (not valid JSON), before any field is read.
    const { names, ...others } = rest;
    const naming = names !== undefined && !/"(__proto__|constructor)"/.test(payload) ? { names } : {};
    return withDescription({
      kind,
      endpoint: endpoint.key,
      method: endpoint.method,
      url,
      ...(contentType === undefined ? {} : { contentType }),
      payload,
      malformed,
      writes: true,
      ...others,
      ...naming,
    });
  };

  /** Weights: field-level faults most, whole-body ones less, a body over the limit about 1 in 100. */
  const kinds: fc.WeightedArbitrary<Probe>[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<Probe>) => kinds.push({ arbitrary, weight });
  if (base !== undefined) {
    // An unknown field next to valid ones, at the top and inside nested objects (sort, filter, …).
    add(
      25,
      fc
        .tuple(common, unknownKeyArb(topKeys), fc.oneof({ arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 9 }, { arbitrary: fc.constant(DEEP_MARK), weight: 1 }), deepArb)
        .map(([{ who, lang }, key, value, deep]) =>
          probe('unknownField', encode({ ...base, [key]: value }, deep), { who, lang, names: [named([key])] }),
        ),
    );
    if (nested.length > 0) {
      add(
        10,
        fc
          .tuple(common, fc.constantFrom(...nested), fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }))
          .chain(([context, path, key, value]) => {
            const container = info.containers.get(path.join('\u0001')) as Record<string, unknown>;
            const knownHere = objectIn(info.leaves.find((leaf) => leaf.path.join('\u0001') === path.join('\u0001'))?.schema ?? z.never());
            const known = knownHere === undefined ? [] : Object.keys(knownHere.shape);
            if (known.includes(key) || RESERVED_KEYS.has(key)) return fc.constant(probe('nestedUnknownField', '[]', context));
            const body = withValueAt(info, base, path, { ...container, [key]: value });
            return fc.constant(probe('nestedUnknownField', encode(body), { ...context, names: [named([...path, key])] }));
          }),
      );
    }
    // A known field of the wrong type, shape or size; blank and NUL strings too.
    if (rejectable.length > 0) {
      add(
        25,
        fc.tuple(common, fc.constantFrom(...rejectable)).chain(([context, leaf]) =>
          fc
            .oneof({ arbitrary: wrongValueArb, weight: 9 }, { arbitrary: fc.constant(DEEP_MARK), weight: 1 })
            .filter((value) => value === DEEP_MARK || !accepts(leaf.schema, value))
            .chain((value) =>
              deepArb.map((deep) => {
                const body = withValueAt(info, base, leaf.path, value);
                return probe('wrongType', encode(body, deep), { ...context, names: [named(leaf.path)] });
              }),
            ),
        ),
      );
    }
    // A string longer than its field allows.
    if (stringLeaves.length > 0) {
      add(
        10,
        fc.tuple(common, fc.constantFrom(...stringLeaves), fc.constantFrom(1, 2, 1000, 100_000)).map(([context, leaf, extra]) => {
          const sample = leaf.sample as string;
          const value = sample + 'a'.repeat(Math.max(extra, (maxLengthOf(leaf.schema) ?? 0) - sample.length + extra));
          return probe('oversizedString', encode(withValueAt(info, base, leaf.path, value)), { ...context, names: [named(leaf.path)] });
        }),
      );
    }
  }
  // The whole body wrong: another JSON type, an array, null, deep nesting, text that is not JSON,
  // another media type, no media type, over the 1 MiB limit, prototype keys.
  add(
    5,
    fc.tuple(common, fc.oneof(fc.constantFrom<unknown>(null, 0, 'text', true, []), fc.jsonValue({ maxDepth: 1 }).map((value) => [value]))).map(
      ([context, value]) => probe('notAnObject', encode(value), context),
    ),
  );
  add(3, fc.tuple(common, deepArb).map(([context, [depth, kind]]) => probe('deepBody', deepJson(depth, kind), context)));
  add(5, fc.tuple(common, fc.constantFrom(...NON_JSON_TEXTS)).map(([context, text]) => probe('notJson', text, context)));
  add(
    5,
    fc
      .tuple(common, fc.constantFrom(...OTHER_TYPES, 'text/plain', undefined), fc.constantFrom(encode(base ?? {}), 'a=1&b=2', '<a/>', ''))
      .map(([context, type, text]) => probe('wrongContentType', text, context, type)),
  );
  add(1, fc.tuple(common, fc.constantFrom(...BIG_BODIES), fc.constantFrom(...JSON_TYPES)).map(([context, text, type]) => probe('bodyTooLarge', text, context, type)));
  add(
    3,
    fc
      .tuple(common, fc.constantFrom('{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}', '{"a":{"__proto__":1}}'))
      .map(([context, text]) => probe('prototypeKeys', base === undefined ? text : text.replace(/^\{/, `${encode(base).slice(0, -1)}${Object.keys(base).length > 0 ? ',' : ''}`), context)),
  );
  return fc.oneof(...kinds);
};

/** A query string the server parses back to exactly `query` (keys kept to a safe alphabet). */
const queryString = (query: Record<string, string | string[]>): string =>
  Object.entries(query)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((item) => `${encodeURIComponent(key)}=${encodeURIComponent(item)}`))
    .join('&');

const QUERY_TEXTS = [
  '', '[', '{', 'null', '[]', '{}', '[0]', '[0,24]', '[24,0]', '[-1,5]', '[0,1e9]', '[0,999]', '[0,1000]', '[5,9]', '[0.5,3]',
  '["id","ASC"]', '["id","asc"]', '["nope","ASC"]', '["id"]', '"id"', '{"nope":1}', '{"id":"x"}', '{"id":[1.5]}', '{"at_gte":"x"}',
  '{"at_gte":1.5}', '{"id":{"gte":1e300}}', '{"action":"a\\u0000b"}', '{"id":1e400}', '[1e400,1e401]', 'x'.repeat(5000),
];

/** Malformed query strings, path parameters and methods. */
const queryProbeArb = (endpoint: Endpoint, all: readonly Endpoint[]): fc.Arbitrary<Probe> => {
  const common = fc.record({ who: whoArb, lang: langArb });
  const kinds: fc.Arbitrary<Probe>[] = [];
  const isRead = endpoint.method === 'GET';
  const make = (kind: string, url: string, malformed: boolean, context: { who: Who; lang: string | undefined }, names?: string[]): Probe =>
    withDescription({ kind, endpoint: endpoint.key, method: endpoint.method, url, who: context.who, lang: context.lang, malformed, writes: !isRead, ...(names === undefined ? {} : { names }) });

  const query = endpoint.querystring;
  if (query !== undefined && isRead) {
    const url = fillUrl(endpoint.url, plausibleParams(endpoint));
    const base = (typeof query.base === 'object' && query.base !== null ? query.base : {}) as Record<string, string>;
    const known = query.object === undefined ? [] : Object.keys(query.object.shape);
    const safeKey = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,15}$/).filter((key) => !known.includes(key) && !RESERVED_KEYS.has(key));
    kinds.push(
      fc.tuple(common, safeKey, fc.string({ maxLength: 20 })).map(([context, key, value]) => {
        const q = { ...base, [key]: value };
        return make('unknownParam', `${url}?${queryString(q)}`, !accepts(query.schema, q), context, [named([key], 'querystring')]);
      }),
    );
    if (known.length > 0) {
      kinds.push(
        fc
          .tuple(common, fc.constantFrom(...known), fc.oneof(fc.constantFrom(...QUERY_TEXTS), fc.string({ maxLength: 30 }), fc.json({ maxDepth: 2 })))
          .map(([context, key, text]) => {
            const q = { ...base, [key]: text };
            return make('badParam', `${url}?${queryString(q)}`, !accepts(query.schema, q), context, [named([key], 'querystring')]);
          }),
        fc.tuple(common, fc.constantFrom(...known), fc.array(fc.constantFrom(...QUERY_TEXTS), { minLength: 2, maxLength: 3 })).map(([context, key, texts]) => {
          const q = { ...base, [key]: texts };
          return make('repeatedParam', `${url}?${queryString(q)}`, !accepts(query.schema, q), context, [named([key], 'querystring')]);
        }),
      );
    }
  }

  if (endpoint.paramNames.length > 0) {
    const info = endpoint.params;
    const raw = fc.oneof(
      { arbitrary: fc.string({ minLength: 1, maxLength: 40 }), weight: 3 },
      { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), weight: 1 },
      {
        arbitrary: fc.constantFrom('0', '-1', '1.5', '1e400', '9'.repeat(30), ' ', 'OC A1', 'oc-a1\u0000', '..', '%', '📟', 'x'.repeat(MAX_PARAM_LENGTH), 'x'.repeat(MAX_PARAM_LENGTH + 1), '9'.repeat(1000)),
        weight: 2,
      },
    );
    kinds.push(
      fc.tuple(common, fc.array(raw, { minLength: endpoint.paramNames.length, maxLength: endpoint.paramNames.length })).map(([context, values]) => {
        const params = Object.fromEntries(endpoint.paramNames.map((name, index) => [name, values[index] ?? '']));
        const malformed = info === undefined ? false : !accepts(info.schema, params);
        return make('badPathParam', fillUrl(endpoint.url, params), malformed, context);
      }),
      // Not even a valid URL component: Fastify refuses it before routing.
      fc.tuple(common, fc.constantFrom('%', '%ZZ', '%E0%A4%A', '%C0%AF')).map(([context, text]) =>
        make('badUrlEncoding', fillUrl(endpoint.url, Object.fromEntries(endpoint.paramNames.map((name) => [name, text])), true), true, context),
      ),
    );
  }

  // A method the path does not serve: 404 in the prefix's shape, never a handler.
  const served = new Set(all.filter((other) => other.url === endpoint.url).map((other) => other.method));
  const wrong = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((method) => !served.has(method));
  if (wrong.length > 0) {
    kinds.push(
      fc.tuple(common, fc.constantFrom(...wrong)).map(([context, method]) =>
        withDescription({
          kind: 'wrongMethod',
          endpoint: endpoint.key,
          method,
          url: fillUrl(endpoint.url, Object.fromEntries(endpoint.paramNames.map((name) => [name, 'no-such']))),
          who: context.who,
          lang: context.lang,
          malformed: true,
          writes: true,
          ...(method === 'GET' || method === 'OPTIONS' ? {} : { contentType: 'application/json', payload: '{"x":1}' }),
        }),
      ),
    );
  }
  return kinds.length === 0 ? fc.constant(make('none', endpoint.url, false, { who: 'none', lang: undefined })) : fc.oneof(...kinds);
};

// ---------------------------------------------------------------------------------------------------
// Read-only list queries: hostile values, valid or not (lists write nothing, so valid ones are sent too)

const hostileStringArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom('%', '_', '\\', "'", '"', "' OR 1=1 --", '\u0000', 'a\u0000b', '\ud800', '🙂', 'İ', 'ß', '', ' ', 'OC-A1'),
  fc.constantFrom(31, 32, 33, 63, 64, 65, 127, 128, 129, 2000).map((length) => 'x'.repeat(length)),
);
const hostileNumberArb = fc.oneof(
  fc.constantFrom(0, -0, 1, 5, 6, -1, 0.5, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53, 2 ** 63, 1e20, 1e308, -1e308, T0, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const hostileScalarArb = fc.oneof(hostileStringArb, hostileNumberArb, fc.boolean(), fc.constant(null));
const filterValueArb = fc.oneof(
  { arbitrary: hostileScalarArb, weight: 4 },
  { arbitrary: fc.array(fc.oneof(hostileStringArb, hostileNumberArb), { maxLength: 4 }), weight: 2 },
  { arbitrary: fc.record({ gte: hostileNumberArb, lte: hostileNumberArb }, { requiredKeys: [] }), weight: 3 },
);

interface ListTarget {
  config: ResourceConfig;
  endpoint: Endpoint;
  rest: boolean;
}

const listProbeArb = (target: ListTarget): fc.Arbitrary<Probe> => {
  const { config, endpoint, rest } = target;
  const filterable = filterableFields(config);
  const sortable = sortableFields(config);
  const fieldArb = fc.oneof({ arbitrary: fc.constantFrom(...filterable), weight: 5 }, { arbitrary: fc.constantFrom('nope', 'password_hash', ...sourcesIn(config, 'show')), weight: 1 });
  const filterArb = fc.dictionary(fieldArb, filterValueArb, { maxKeys: 3 });
  const sortArb = fc.record({
    field: fc.oneof({ arbitrary: fc.constantFrom(...sortable), weight: 4 }, { arbitrary: fc.constantFrom(...filterable, 'nope', ''), weight: 1 }),
    order: fc.constantFrom('ASC', 'DESC', 'asc', ''),
  });
  const pageArb = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 4 }), weight: 4 }, { arbitrary: hostileNumberArb, weight: 1 });
  const common = fc.record({ who: whoArb, lang: langArb });
  return fc
    .tuple(common, fc.option(filterArb, { nil: undefined }), fc.option(sortArb, { nil: undefined }), fc.option(pageArb, { nil: undefined }), fc.option(pageArb, { nil: undefined }))
    .map(([context, filter, sort, current, pageSize]) => {
      if (!rest) {
        const body = { ...(current === undefined ? {} : { current }), ...(pageSize === undefined ? {} : { pageSize }), ...(sort === undefined ? {} : { sort }), ...(filter === undefined ? {} : { filter }) };
        const payload = encode(body);
        const info = endpoint.body as PartInfo;
        return withDescription({ kind: 'listBody', endpoint: endpoint.key, method: 'POST', url: endpoint.url, contentType: 'application/json', payload, who: context.who, lang: context.lang, malformed: classifyBody(info, 'application/json', payload).malformed, writes: false });
      }
      const size = pageSize === undefined ? 25 : Math.trunc(Math.abs(pageSize)) || 1;
      const first = current === undefined ? 0 : (Math.trunc(current) - 1) * size;
      const reactAdminFilter = Object.fromEntries(
        Object.entries(filter ?? {}).flatMap(([field, value]): [string, unknown][] =>
          typeof value === 'object' && value !== null && !Array.isArray(value) && fieldOf(config, field)?.kind === 'datetime'
            ? Object.entries(value).map(([bound, inner]) => [`${field}_${bound}`, inner])
            : [[field, value]],
        ),
      );
      const query: Record<string, string> = {
        ...(filter === undefined ? {} : { filter: JSON.stringify(reactAdminFilter) }),
        ...(sort === undefined ? {} : { sort: JSON.stringify([sort.field, sort.order]) }),
        ...(current === undefined && pageSize === undefined ? {} : { range: JSON.stringify([first, first + size - 1]) }),
      };
      const malformed = !accepts((endpoint.querystring as PartInfo).schema, query);
      return withDescription({ kind: 'restList', endpoint: endpoint.key, method: 'GET', url: `${endpoint.url}?${queryString(query)}`, who: context.who, lang: context.lang, malformed, writes: false });
    });
};

// ---------------------------------------------------------------------------------------------------
// Data: every table, every row

/** Columns that legitimately change on any signed-in call: a session's last use (idle timeout bookkeeping). */
const VOLATILE_COLUMNS: Readonly<Record<string, readonly string[]>> = { sessions: ['last_used_at'] };

const tableNames = async (ctx: AppContext): Promise<string[]> => {
  const { rows } =
    ctx.kind === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(ctx.db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(ctx.db);
  return rows.map((row) => row.name);
};

/** Per table: the row count and a sha256 of every row (columns sorted, rows sorted), volatile columns left out. */
const fingerprint = async (ctx: AppContext): Promise<Record<string, string>> => {
  const result: Record<string, string> = {};
  for (const table of await tableNames(ctx)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(ctx.db);
    const skip = VOLATILE_COLUMNS[table] ?? [];
    const lines = rows
      .map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !skip.includes(column)).sort(([a], [b]) => (a < b ? -1 : 1))))
      .sort();
    result[table] = `${rows.length} rows, sha256 ${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return result;
};

// ---------------------------------------------------------------------------------------------------
// Sending and judging

interface Answer {
  status: number;
  code: number | undefined;
  message: string | undefined;
  raw: string;
}

const authorization = (who: Who, tokens: Record<DemoName, string>): string | undefined => {
  if (who === 'none') return undefined;
  if (who === 'unknownToken') return `Bearer ${randomBytes(32).toString('base64url')}`;
  if (who === 'garbage') return 'Basic YWRtaW46QWRtaW4yMDI2';
  return `Bearer ${tokens[who]}`;
};

const send = async (app: FastifyInstance, probe: Probe, tokens: Record<DemoName, string>): Promise<Answer> => {
  const auth = authorization(probe.who, tokens);
  const options: InjectOptions = {
    method: probe.method as InjectOptions['method'],
    url: probe.url,
    headers: {
      ...(auth === undefined ? {} : { authorization: auth }),
      ...(probe.lang === undefined ? {} : { 'accept-language': probe.lang }),
      ...(probe.contentType === undefined ? {} : { 'content-type': probe.contentType }),
    },
    ...(probe.payload === undefined ? {} : { payload: probe.payload }),
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms (a stream? exclude it in isExcluded)`)), REQUEST_TIMEOUT_MS);
  });
  let response: LightMyRequestResponse;
  try {
    response = await Promise.race([app.inject(options), timeout]);
  } finally {
    clearTimeout(timer);
  }
  let json: unknown;
  try {
    json = response.json();
  } catch {
    json = undefined;
  }
  const body = (typeof json === 'object' && json !== null ? json : {}) as { msg?: unknown; message?: unknown; code?: unknown };
  const message = typeof body.msg === 'string' ? body.msg : typeof body.message === 'string' ? body.message : undefined;
  return { status: response.statusCode, code: typeof body.code === 'number' ? body.code : undefined, message, raw: shorten(response.body, 400) ?? '' };
};

/** The property every answer must have; throws with the answer when it has not. Answers whether it checked a field name. */
const judge = (probe: Probe, answer: Answer): boolean => {
  const fail = (why: string) => {
    throw new Error(`${why}: ${probe.method} ${shorten(probe.url, 200)} [${probe.kind}, ${probe.who}] → ${answer.status} ${answer.raw}`);
  };
  if (answer.status >= 500) fail('5xx');
  if (probe.malformed && (answer.status < 400 || answer.status >= 500)) fail('a malformed request was not refused with a 4xx');
  if (answer.status >= 400 && (answer.message === undefined || answer.message.trim() === '')) fail('a refusal without a message');
  if (probe.malformed && probe.names !== undefined && answer.code === CODES.badInput) {
    const message = answer.message ?? '';
    if (!probe.names.some((name) => message.includes(name))) fail(`the message does not name ${probe.names.join(' or ')}`);
    return true;
  }
  return false;
};

// ---------------------------------------------------------------------------------------------------
// The tests

describe('reading field names for messages', () => {
  it('keeps ordinary names and paths as sent, quotes empty or invisible ones, cuts long ones', () => {
    expect(fieldName(['filter', 'OrderNum'], 'body')).toBe('filter.OrderNum');
    expect(fieldName(['DeviceIds', 0], 'body')).toBe('DeviceIds.0');
    expect(fieldName([], 'querystring')).toBe('querystring');
    expect(shownSegment('未知字段')).toBe('未知字段');
    expect(shownSegment('')).toBe('""');
    expect(shownSegment(' Id')).toBe('" Id"');
    expect(shownSegment('a\u0000b')).toBe('"a\\u0000b"');
    expect(shownSegment('x'.repeat(300))).toBe(`${'x'.repeat(64)}…`);
    expect(nulCharacterPath({ a: [1, { b: 'x\u0000' }] })).toEqual(['a', 1, 'b']);
    expect(nulCharacterPath({ 'k\u0000': 1 })).toEqual(['k\u0000']);
    expect(nulCharacterPath(JSON.parse(deepJson(100_000, 'array')))).toBeUndefined();
  });
});

describe.each(STORE_KINDS)('bad input, property-based (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const endpoints: Endpoint[] = [];
  let app: FastifyInstance;
  let ctx: AppContext;
  let tokens: Record<DemoName, string>;

  const start = async () => {
    await store.wipe();
    ctx = store.context(undefined, clock.now);
    await seedFleet(ctx);
    await seedDemoFleet(ctx);
    endpoints.length = 0;
    app = await store.app({ now: clock.now, setup: collectRoutes(endpoints) });
    // Signing in writes sessions and audit entries: done once per role, before the first snapshot.
    tokens = await demoTokens(app);
    // Whatever expires at this (fixed) clock expires now, so an order sweeper in the app changes nothing later.
    await expireOverdue(ctx, clock.now());
  };

  it('finds the routes; every body, query and params schema refuses unknown fields; every body-taking route has one', async () => {
    await start();
    const keys = endpoints.map((endpoint) => endpoint.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /upstream/login',
        'POST /upstream/list/get_Records',
        'POST /upstream/get_Admins',
        // The console's device administration (docs/server-devices.md): registration, rotation, removal.
        'POST /api/v1/devices',
        'POST /api/v1/devices/:Id/secret',
        'DELETE /api/v1/devices/:Id',
      ]),
    );
    const problems: string[] = [];
    for (const endpoint of endpoints) {
      const parts = ([['body', endpoint.body], ['querystring', endpoint.querystring], ['params', endpoint.params]] as const).filter(
        (entry): entry is readonly ['body' | 'querystring' | 'params', PartInfo] => entry[1] !== undefined,
      );
      for (const [part, info] of parts) {
        if (!info.strict) problems.push(`${endpoint.key}: the ${part} schema does not refuse unknown fields (not a strict object)`);
        else if (info.base === NONE) problems.push(`${endpoint.key}: no valid ${part} found to build malformed ones from (extend GENERIC_CANDIDATES)`);
      }
      if (BODY_METHODS.has(endpoint.method) && endpoint.body === undefined) {
        problems.push(`${endpoint.key}: takes a body but declares no body schema, so a stray body is ignored, not refused`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each([
    ['a NUL character in a filter', 'POST', '/upstream/list/get_Records', { filter: { OrderNum: 'a\u0000b' } }, 'filter.OrderNum must not contain the NUL character'],
    ['a NUL character in an account name', 'POST', '/upstream/login', { Account: 'adm\u0000in', Code: 'x' }, 'Account must not contain the NUL character'],
    ['a fractional time bound', 'POST', '/upstream/list/get_Records', { filter: { Time: { gte: 1.5 } } }, 'filter.Time.gte must be a whole number'],
    ['a bound beyond the column', 'POST', '/upstream/list/get_OCProperty', { filter: { Type: { gte: 1e10 } } }, 'filter.Type.gte must be at most 5'],
    ['a tiny id bound', 'POST', '/upstream/list/get_Records', { filter: { id: { lte: 5e-324 } } }, 'filter.id.lte must be a whole number'],
    ['a fractional bound in a REST query', 'GET', `/api/v1/audit-log?filter=${encodeURIComponent('{"at_gte":1.5}')}`, undefined, 'filter.at.gte must be a whole number'],
    ['a NUL character in a REST query', 'GET', `/api/v1/audit-log?filter=${encodeURIComponent('{"actor":"a\\u0000b"}')}`, undefined, 'filter.actor must not contain the NUL character'],
    ['an empty unknown field', 'POST', '/upstream/list/get_Records', { '': 1 }, 'unknown field: ""'],
  ] as const)('refuses %s with 400 naming the field (once a 500 on PostgreSQL or an unnamed field)', async (_case, method, url, body, message) => {
    await start();
    const before = await fingerprint(ctx);
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens.admin}`, 'accept-language': 'en-US', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    expect(response.statusCode).toBe(400);
    const answer = response.json<{ msg?: string; message?: string; code: number }>();
    expect(answer.code).toBe(CODES.badInput);
    expect(answer.msg ?? answer.message).toContain(message);
    expect(await fingerprint(ctx)).toEqual(before);
  });

  it(`answers ${TOTAL[kind]} random malformed requests with a 4xx naming the field, never a 5xx, and writes nothing`, { timeout: 240_000 }, async () => {
    await start();
    const before = await fingerprint(ctx);
    const bodyEndpoints = endpoints.filter((endpoint) => BODY_METHODS.has(endpoint.method) && endpoint.body !== undefined);
    const lists: ListTarget[] = RESOURCE_CONFIGS.flatMap((config): ListTarget[] => {
      const upstream = config.adapter === 'upstream' ? config.endpoints.list : undefined;
      const url = config.adapter === 'rest' ? `/api/v1/${config.path ?? config.name}` : `/upstream${upstream ?? ''}`;
      const endpoint = endpoints.find((candidate) => candidate.url === url && candidate.method === (upstream === undefined ? 'GET' : 'POST'));
      return endpoint === undefined || (upstream === undefined ? endpoint.querystring : endpoint.body) === undefined
        ? []
        : [{ config, endpoint, rest: upstream === undefined }];
    });
    expect(bodyEndpoints.length).toBeGreaterThan(5);
    expect(lists.length).toBeGreaterThanOrEqual(4);

    let sent = 0;
    let namesChecked = 0;
    const statuses = new Map<number, number>();
    const kinds = new Map<string, number>();
    const run = async (name: keyof typeof SHARES, arb: fc.Arbitrary<Probe>) => {
      const numRuns = Math.round(TOTAL[kind] * SHARES[name]);
      await fc.assert(
        fc.asyncProperty(arb, async (probe) => {
          // A request that would be accepted is sent only where nothing can be written.
          fc.pre(probe.malformed || !probe.writes);
          const answer = await send(app, probe, tokens);
          sent += 1;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          kinds.set(probe.kind, (kinds.get(probe.kind) ?? 0) + 1);
          if (judge(probe, answer)) namesChecked += 1;
        }),
        { numRuns, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH === undefined ? {} : { path: PATH }), maxSkipsPerRun: 1000 },
      );
    };
    await run('bodies', fc.constantFrom(...bodyEndpoints).chain(bodyProbeArb));
    // Paths with a query or parameters to get wrong are picked more often than those with only a wrong method.
    const queryEndpoints = fc.oneof(
      ...endpoints.map((endpoint) => ({
        arbitrary: fc.constant(endpoint),
        weight: endpoint.paramNames.length > 0 || (endpoint.method === 'GET' && endpoint.querystring !== undefined) ? 6 : 1,
      })),
    );
    await run('queries', queryEndpoints.chain((endpoint) => queryProbeArb(endpoint, endpoints)));
    await run('lists', fc.constantFrom(...lists).chain(listProbeArb));

    expect(sent).toBeGreaterThanOrEqual(TOTAL[kind]);
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(await fingerprint(ctx)).toEqual(before);
    const counts = (map: Map<string | number, number>) =>
      [...map.entries()].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([key, count]) => `${key}×${count}`).join(', ');
    console.info(
      `bad input (${kind}): ${sent} requests to ${endpoints.length} routes, ${namesChecked} field names checked\n` +
        `  answers: ${counts(statuses)}\n  kinds: ${counts(kinds)}`,
    );
  });
});
