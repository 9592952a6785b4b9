import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';
import { CODES, type Code } from '../../src/domain/envelope';
import { AppError } from './envelope';
import { isMessageKey, translate, type Language, type MessageKey, type MessageParams } from './messages';

/**
 * Route schemas are zod schemas. `zodValidatorCompiler` checks request parts with them, and
 * `ZodTypeProvider` gives handlers the parsed types: `app.withTypeProvider<ZodTypeProvider>()`.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** Wire fields whose emptiness the spec words in its own way (its login mock). */
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

const fieldName = (path: readonly PropertyKey[], part: string): string =>
  path.length === 0 ? part : path.map((segment) => String(segment)).join('.');

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
export const describeIssue = (issue: z.core.$ZodIssue, data: unknown, part: string): Described => {
  if (issue.code === 'unrecognized_keys') {
    const field = fieldName([...issue.path, issue.keys[0] ?? ''], part);
    return { key: 'validation.unknownField', params: { field } };
  }
  const field = fieldName(issue.path, part);
  const emptyKey = issue.path.length === 1 ? EMPTY_FIELD_KEYS[String(issue.path[0])] : undefined;
  const value = valueAt(data, issue.path);
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
      const custom: unknown = issue.params?.messageKey;
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
export class ValidationError extends AppError {
  constructor(
    readonly described: Described,
    readonly part: string,
  ) {
    super(described.code ?? CODES.badInput, described.key, described.params);
    this.name = 'ValidationError';
  }

  override render(language: Language): string {
    const { key, params, typeKey } = this.described;
    return translate(language, key, typeKey === undefined ? params : { ...params, type: translate(language, typeKey) });
  }
}

/** Parses `data` with `schema`, throwing ValidationError (40000) on bad input. For use outside routes. */
export const parseInput = <S extends z.ZodType>(schema: S, data: unknown, part = 'body'): z.output<S> => {
  const result = schema.safeParse(data);
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
