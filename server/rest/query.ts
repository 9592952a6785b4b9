import { z } from 'zod';
import { MAX_PAGE_SIZE, sortableFields, toWireFilter, type ListBody, type SortOrder } from '../../src/resources/query';
import type { ResourceConfig } from '../../src/resources/types';
import { listBody } from '../lists/body';

/**
 * ra-data-simple-rest's list query, `?sort=["at","DESC"]&range=[0,24]&filter={"action":"device.update"}`,
 * validated with zod and turned into the list body the upstream's lists take (`{ current, pageSize,
 * sort, filter }`), so a REST list means exactly what an upstream list means (server/lists/). Every
 * parameter is optional; any other parameter is refused. A refusal is 400 naming the parameter (and
 * the field):
 *   sort    JSON `[field, "ASC" | "DESC"]`, field an id field or a `sort` field of the configuration;
 *           absent: the configuration's defaultSort
 *   range   JSON `[first, last]`, whole numbers, 0 ≤ first ≤ last, at most MAX_PAGE_SIZE records, first
 *           a multiple of the length (react-admin's pages always are); absent: the first MAX_PAGE_SIZE
 *           records (react-admin's getMany sends no range)
 *   filter  JSON object of react-admin's filter values: `<field>_gte` / `<field>_lte` become a range,
 *           empty values are dropped (toWireFilter), then only id fields and `filter` fields are allowed
 *           with the value shapes of the upstream's lists
 */

const SHOWN_VALUE_MAX = 64;

const jsonText = z.string().transform((text, ctx): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', params: { messageKey: 'rest.notJson' } });
    return z.NEVER;
  }
});

const isOrder = (value: unknown): value is SortOrder => value === 'ASC' || value === 'DESC';

const sortParam = (sortable: readonly string[]) =>
  jsonText.transform((value, ctx) => {
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || !isOrder(value[1])) {
      ctx.addIssue({ code: 'custom', params: { messageKey: 'rest.sortShape' } });
      return z.NEVER;
    }
    const [field, order] = value as [string, SortOrder];
    if (!sortable.includes(field)) {
      const shown = field.length > SHOWN_VALUE_MAX ? `${field.slice(0, SHOWN_VALUE_MAX)}…` : field;
      ctx.addIssue({ code: 'custom', params: { messageKey: 'list.notSortable', value: shown, values: sortable.join(', ') } });
      return z.NEVER;
    }
    return { field, order };
  });

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

const rangeParam = jsonText.transform((value, ctx) => {
  if (!Array.isArray(value) || value.length !== 2 || !isIndex(value[0]) || !isIndex(value[1]) || value[0] > value[1]) {
    ctx.addIssue({ code: 'custom', params: { messageKey: 'rest.rangeShape' } });
    return z.NEVER;
  }
  const [first, last] = value as [number, number];
  const size = last - first + 1;
  if (size > MAX_PAGE_SIZE) {
    ctx.addIssue({ code: 'custom', params: { messageKey: 'rest.rangeTooLarge', count: size, max: MAX_PAGE_SIZE } });
    return z.NEVER;
  }
  if (first % size !== 0) {
    ctx.addIssue({ code: 'custom', params: { messageKey: 'rest.rangeNotAligned', size } });
    return z.NEVER;
  }
  return { current: first / size + 1, pageSize: size };
});

const filterParam = jsonText.transform((value, ctx) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', params: { messageKey: 'rest.notObject' } });
    return z.NEVER;
  }
  return toWireFilter(value as Record<string, unknown>);
});

const cache = new WeakMap<ResourceConfig, z.ZodType<ListBody>>();

/** The querystring schema of a REST list: the three parameters, parsed into a validated list body. */
export const restListQuery = (config: ResourceConfig): z.ZodType<ListBody> => {
  const cached = cache.get(config);
  if (cached !== undefined) return cached;
  const schema = z
    .strictObject({
      sort: sortParam(sortableFields(config)).optional(),
      range: rangeParam.optional(),
      filter: filterParam.optional(),
    })
    // The body for the lists' own schema: unknown here, as that schema takes any input and names each fault.
    .transform(({ sort, range, filter }): unknown => ({
      ...(range ?? { current: 1, pageSize: MAX_PAGE_SIZE }),
      ...(sort === undefined ? {} : { sort }),
      ...(filter === undefined ? {} : { filter }),
    }))
    .pipe(listBody(config));
  cache.set(config, schema);
  return schema;
};

/**
 * The `Content-Range` of a list answer, as ra-data-simple-rest reads it (the total after the slash):
 * `audit-log 0-24/319`; when the page holds no record, `*` stands for the range (`audit-log *` + `/319`).
 */
export const contentRange = (name: string, body: Pick<ListBody, 'current' | 'pageSize'>, count: number, total: number): string => {
  const first = (body.current - 1) * body.pageSize;
  return count === 0 ? `${name} */${total}` : `${name} ${first}-${first + count - 1}/${total}`;
};
