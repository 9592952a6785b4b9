import { z } from 'zod';
import { listBodySchema, sortableFields, type ListBody } from '../../src/resources/query';
import type { ResourceConfig } from '../../src/resources/types';

/**
 * The body of a paged list call, `{ current, pageSize, sort: { field, order }, filter }`, validated by
 * the console's shared schema (src/resources/query.ts: the same paging limits, the same allow-listed
 * filter fields and value shapes), so console, mocks and server accept exactly the same bodies. Only
 * the sort field's check is replaced here, to name the refused field and the allowed ones in the msg.
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

const cache = new WeakMap<ResourceConfig, z.ZodType<ListBody>>();

/**
 * The list body schema of a resource. A missing or empty body is page 1 of 10 (decisions.md); unknown
 * keys anywhere, sort or filter on a field not allowed, wrong types and out-of-range paging are refused
 * (40000, the msg naming the field).
 */
export const listBody = (config: ResourceConfig): z.ZodType<ListBody> => {
  const cached = cache.get(config);
  if (cached !== undefined) return cached;
  const shared = listBodySchema(config);
  const schema = z.preprocess(
    (value) => value ?? {},
    shared.extend({
      sort: z.strictObject({ field: sortFieldSchema(sortableFields(config)), order: z.enum(['ASC', 'DESC']) }).optional(),
    }),
  ) as unknown as z.ZodType<ListBody>;
  cache.set(config, schema);
  return schema;
};
