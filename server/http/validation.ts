import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';
import { CODES, type Code } from '../../src/domain/envelope';
import type { Locale } from '../../src/domain/locales';
import { AppError } from './envelope';
import { isMessageKey, translate, type MessageKey, type MessageParams } from './messages';

/**
 * Route schemas are zod schemas. `zodValidatorCompiler` checks request parts with them, and
 * `ZodTypeProvider` gives handlers the parsed types: `app.withTypeProvider<ZodTypeProvider>()`.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/**
 * The shared schemas name their own rules by the console's short keys (crud.validation.<key>); the
 * server's catalogue words them under these.
 */
const SHARED_RULE_KEYS: Record<string, MessageKey> = {
  password: 'validation.weakPassword',
};

/** Wire fields whose emptiness the old console words in its own way (its login mock). */
const EMPTY_FIELD_KEYS: Record<string, MessageKey> = {
  Account: 'validation.accountEmpty',
  Code: 'validation.passwordEmpty',
};

interface Described {
  key: MessageKey;
  params: MessageParams;
  /** A `type.*` key rendered into params.type in the caller's language. */
  typeKey?: MessageKey;
  /** The envelope's code when it is not 40000 (a custom issue's `code`, e.g. 401 for an empty device Id). */
  code?: Code;
}

const valueAt = (data: unknown, path: readonly PropertyKey[]): unknown => {
  let current = data;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
};

/** Longest field name repeated in a msg; a longer (unknown) one is cut. */
const SHOWN_FIELD_MAX = 64;

/**
 * One segment of a field name as a msg shows it: as sent, but cut at SHOWN_FIELD_MAX characters, and
 * quoted as JSON when it would vanish or mislead in a sentence (empty, edged with spaces, control or
 * invisible characters), so `unknown field: ""` still names the field.
 */
export const shownSegment = (segment: PropertyKey): string => {
  const text = String(segment);
  const cut = text.length > SHOWN_FIELD_MAX ? `${text.slice(0, SHOWN_FIELD_MAX)}…` : text;
  return cut === '' || cut.trim() !== cut || /[\p{C}\p{Z}]/u.test(cut.replace(/ /g, '')) ? JSON.stringify(cut) : cut;
};

export const fieldName = (path: readonly PropertyKey[], part: string): string =>
  path.length === 0 ? part : path.map(shownSegment).join('.');

/**
 * The path of the first string, value or key, that holds U+0000 (NUL), or undefined. Neither store keeps
 * it (PostgreSQL refuses it, which was a 500), so inputs with it are refused. Iterative, with parent
 * links: a body nested 100,000 levels deep costs no stack and no quadratic path copies.
 */
export const nulCharacterPath = (data: unknown): PropertyKey[] | undefined => {
  interface Node {
    value: unknown;
    key: PropertyKey | undefined;
    parent: Node | undefined;
  }
  const pathOf = (node: Node | undefined, last?: PropertyKey): PropertyKey[] => {
    const path: PropertyKey[] = last === undefined ? [] : [last];
    for (let at = node; at !== undefined && at.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Node[] = [{ value: data, key: undefined, parent: undefined }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(node);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) stack.push({ value: value[index], key: index, parent: node });
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, inner] = entries[index] as [string, unknown];
        if (key.includes('\u0000')) return pathOf(node, key);
        stack.push({ value: inner, key, parent: node });
      }
    }
  }
  return undefined;
};

const typeKeyOf = (expected: string): MessageKey => {
  const key = `type.${expected}`;
  return isMessageKey(key) ? key : 'type.value';
};

/** The string and number parameters a custom issue carries for its message (`{ messageKey, code, value, … }`). */
const textParams = (params: Record<string, unknown> | undefined): MessageParams =>
  Object.fromEntries(
    Object.entries(params ?? {}).filter(
      (entry): entry is [string, string | number] =>
        entry[0] !== 'messageKey' && entry[0] !== 'code' && ['string', 'number'].includes(typeof entry[1]),
    ),
  );

const KNOWN_CODES: readonly number[] = Object.values(CODES);

/** A custom issue's own envelope code (`params.code`), when it names one of CODES. */
const codeOf = (params: Record<string, unknown> | undefined): Code | undefined => {
  const code = params?.code;
  return typeof code === 'number' && KNOWN_CODES.includes(code) ? (code as Code) : undefined;
};

/** Turns the first zod issue into a message naming the field. */
const describeIssue = (issue: z.core.$ZodIssue, data: unknown, part: string): Described => {
  if (issue.code === 'unrecognized_keys') {
    const field = fieldName([...issue.path, issue.keys[0] ?? ''], part);
    return { key: 'validation.unknownField', params: { field } };
  }
  const field = fieldName(issue.path, part);
  const emptyKey = issue.path.length === 1 ? EMPTY_FIELD_KEYS[String(issue.path[0])] : undefined;
  // The value the issue is about: as zod saw it when it reports it (parseInput asks it to), which also
  // holds after a transform (a REST query's JSON text); else looked up in the input by the issue's path.
  const value = 'input' in issue ? issue.input : valueAt(data, issue.path);
  const isEmpty =
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  if (emptyKey !== undefined && isEmpty) return { key: emptyKey, params: { field } };

  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined && issue.path.length > 0) return { key: 'validation.required', params: { field } };
      return { key: 'validation.wrongType', params: { field }, typeKey: typeKeyOf(issue.expected) };
    case 'too_small':
      if (issue.origin === 'string') {
        return isEmpty
          ? { key: 'validation.required', params: { field } }
          : { key: 'validation.tooShort', params: { field, min: Number(issue.minimum) } };
      }
      return { key: 'validation.tooSmall', params: { field, min: Number(issue.minimum) } };
    case 'too_big':
      return issue.origin === 'string'
        ? { key: 'validation.tooLong', params: { field, max: Number(issue.maximum) } }
        : { key: 'validation.tooBig', params: { field, max: Number(issue.maximum) } };
    case 'invalid_value':
      return { key: 'validation.oneOf', params: { field, values: issue.values.map((v) => String(v)).join(', ') } };
    case 'custom': {
      const named: unknown = issue.params?.messageKey;
      const custom = typeof named === 'string' && Object.hasOwn(SHARED_RULE_KEYS, named) ? SHARED_RULE_KEYS[named] : named;
      const code = codeOf(issue.params);
      return typeof custom === 'string' && isMessageKey(custom)
        ? { key: custom, params: { ...textParams(issue.params), field }, ...(code === undefined ? {} : { code }) }
        : { key: 'validation.invalid', params: { field } };
    }
    default:
      return { key: 'validation.invalid', params: { field } };
  }
};

/**
 * Bad input (40000, or the code a custom issue names); the message names the field, in the caller's
 * language.
 */
class ValidationError extends AppError {
  constructor(
    readonly described: Described,
    readonly part: string,
  ) {
    super(described.code ?? CODES.badInput, described.key, described.params);
    this.name = 'ValidationError';
  }

  override render(language: Locale): string {
    const { key, params, typeKey } = this.described;
    return translate(language, key, typeKey === undefined ? params : { ...params, type: translate(language, typeKey) });
  }
}

/** Parses `data` with `schema`, throwing ValidationError (40000) on bad input. For use outside routes. */
const parseInput = <S extends z.ZodType>(schema: S, data: unknown, part = 'body'): z.output<S> => {
  const nul = nulCharacterPath(data);
  if (nul !== undefined) throw new ValidationError({ key: 'validation.nulCharacter', params: { field: fieldName(nul, part) } }, part);
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const [first] = result.error.issues;
  throw new ValidationError(
    first === undefined ? { key: 'validation.invalid', params: { field: part } } : describeIssue(first, data, part),
    part,
  );
};

export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, method, url }) => {
  if (!(schema instanceof z.ZodType)) {
    throw new Error(`Route ${method} ${url}: the ${httpPart ?? 'request'} schema must be a zod schema`);
  }
  const part = httpPart ?? 'body';
  return (data: unknown) => {
    try {
      return { value: parseInput(schema, data, part) };
    } catch (error) {
      if (error instanceof ValidationError) return { error };
      throw error;
    }
  };
};
