import { z } from 'zod';
import { fieldOf } from '../../src/resources/model';
import { listBodySchema, sortableFields, type ListBody } from '../../src/resources/query';
import { fieldSchema } from '../../src/resources/schema';
import type { FieldConfig, ResourceConfig } from '../../src/resources/types';
import { nulCharacterPath } from '../http/validation';

/**
 * The body of a paged list call, `{ current, pageSize, sort: { field, order }, filter }`, validated by
 * the console's shared schema (src/resources/query.ts: the same paging limits, the same allow-listed
 * filter fields and value shapes), so console, mocks and server accept exactly the same bodies. Only
 * the sort field's check is replaced here, to name the refused field and the allowed ones in the msg,
 * and one check is added: a range bound `{ gte, lte }` must be a value of its field (a whole number for
 * a time or an integer field, inside the field's limits), since PostgreSQL cannot compare a bigint or
 * integer column with 1.5 or 1e20 and answered 500 (found by tests/server/bad-input.spec.ts). A
 * filter string with U+0000 is refused here too (a REST query carries the filter as JSON text, which the
 * route's own NUL check cannot see into).
 */

/** Longest refused value repeated in a msg; anything longer is cut. */
const SHOWN_VALUE_MAX = 64;

const sortFieldSchema = (sortable: readonly string[]) =>
  z.string().superRefine((value, ctx) => {
    if (sortable.includes(value)) return;
    ctx.addIssue({
      code: 'custom',
      params: {
        messageKey: 'list.notSortable',
        value: value.length > SHOWN_VALUE_MAX ? `${value.slice(0, SHOWN_VALUE_MAX)}…` : value,
        values: sortable.join(', '),
      },
    });
  });

const isRange = (value: unknown): value is Record<'gte' | 'lte', unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's value schema, built once per field (building a zod schema costs more than checking a value). */
const boundSchemas = new WeakMap<FieldConfig, z.ZodType>();
const boundSchema = (field: FieldConfig): z.ZodType => {
  let schema = boundSchemas.get(field);
  if (schema === undefined) {
    schema = fieldSchema(field);
    boundSchemas.set(field, schema);
  }
  return schema;
};

/** Each bound of a `{ gte, lte }` filter checked as a value of its field; its faults reported at filter.<field>.<bound>. */
const checkRangeBounds = (config: ResourceConfig, filter: Record<string, unknown> | undefined, ctx: z.RefinementCtx): void => {
  for (const [source, value] of Object.entries(filter ?? {})) {
    const field = fieldOf(config, source);
    if (field === undefined || !isRange(value)) continue;
    for (const bound of ['gte', 'lte'] as const) {
      if (value[bound] === undefined) continue;
      const checked = boundSchema(field).safeParse(value[bound], { reportInput: true });
      if (checked.success) continue;
      for (const issue of checked.error.issues) {
        ctx.addIssue({ ...issue, path: ['filter', source, bound, ...issue.path] } as z.core.$ZodRawIssue);
      }
    }
  }
};

const cache = new WeakMap<ResourceConfig, z.ZodType<ListBody>>();

/**
 * The list body schema of a resource. A missing or empty body is page 1 of 10 (docs/product.md); unknown
 * keys anywhere, sort or filter on a field not allowed, wrong types and out-of-range paging are refused
 * (40000, the msg naming the field).
 */
export const listBody = (config: ResourceConfig): z.ZodType<ListBody> => {
  const cached = cache.get(config);
  if (cached !== undefined) return cached;
  const shared = listBodySchema(config);
  const schema = z.preprocess(
    (value) => value ?? {},
    shared
      .extend({
        sort: z.strictObject({ field: sortFieldSchema(sortableFields(config)), order: z.enum(['ASC', 'DESC']) }).optional(),
      })
      .superRefine((body, ctx) => {
        checkRangeBounds(config, body.filter, ctx);
        // Route inputs are checked for NUL before parsing; a REST query's filter is JSON text until here.
        const nul = nulCharacterPath(body.filter);
        if (nul !== undefined) ctx.addIssue({ code: 'custom', path: ['filter', ...nul], params: { messageKey: 'validation.nulCharacter' } });
      }),
  ) as unknown as z.ZodType<ListBody>;
  cache.set(config, schema);
  return schema;
};
