import { z } from 'zod';
import { isBloodPressure } from '../domain/bloodPressure';
import { telemetrySchema } from '../domain/mqtt/payloads';
import { passwordProblem } from '../domain/password';
import { fieldEntries, idFields, readableEntries, sourcesIn } from './model';
import type { FieldConfig, FormView, ResourceConfig } from './types';

/**
 * One zod schema per resource, derived from its configuration: the console's forms, the mock handlers
 * and the server validate with it, so a limit is written once, in the configuration.
 */

const idSchema = z.union([z.string().min(1), z.number()]);

/** The schema of one value of a field; `messageKey` names the message of a rule zod has no issue code for. */
export const fieldSchema = (field: FieldConfig): z.ZodType => {
  switch (field.kind) {
    case 'text': {
      const text = z.string().trim().min(field.minLength ?? (field.required ? 1 : 0)).max(field.maxLength);
      return field.pattern ? text.regex(field.pattern) : text;
    }
    case 'number':
      return (field.integer ? z.number().int() : z.number()).min(field.min).max(field.max);
    case 'enum':
      return z.literal(field.choices);
    case 'boolean':
      return z.boolean();
    case 'datetime':
      return z.number().int().nonnegative();
    case 'reference':
      return field.many ? z.array(idSchema).min(field.required ? 1 : 0) : idSchema;
    case 'bloodPressure':
      return z.string().refine(isBloodPressure, { params: { messageKey: 'bloodPressure' } });
    case 'reading':
      return telemetrySchema;
    case 'password':
      // The length in force is the server's (PASSWORD_MIN_LENGTH): forms that know it check it on top (AccountCreate).
      return z.string().refine((password) => passwordProblem(password, { minLength: 1 }) === null, { params: { messageKey: 'password' } });
  }
};

/** Every field of the resource: required ones must be present, the others may be null or missing. */
export const resourceSchema = (config: ResourceConfig) =>
  z.object(
    Object.fromEntries(
      fieldEntries(config).map(([source, field]) => [source, field.required ? fieldSchema(field) : fieldSchema(field).nullish()]),
    ),
  );

const pick = (config: ResourceConfig, sources: string[]) =>
  resourceSchema(config).pick(Object.fromEntries(sources.map((source) => [source, true] as const)));

/**
 * What a create or an update sends: the fields of that form, and for an update also the id fields that
 * name the record. Unknown fields are refused, so a form can never write what it does not show.
 */
export const writeSchema = (config: ResourceConfig, view: FormView) => {
  const inForm = sourcesIn(config, view);
  const sources = view === 'edit' ? [...new Set([...idFields(config), ...inForm])] : inForm;
  return pick(config, sources).strict();
};

/** A record as the lists answer it: every field but the passwords, which are never read back. */
export const recordSchema = (config: ResourceConfig) => pick(config, readableEntries(config).map(([source]) => source));

/** The id fields alone: what names one record (a delete sends only these). */
export const keySchema = (config: ResourceConfig) => pick(config, idFields(config)).strict();
