import type { WireRecord } from '../../src/resources/model';
import { countLimit, listTotal, type ListAnswer, type ListBody } from '../../src/resources/query';
import { runCompiled, type ListSource } from './compiled';
import { filtered, planFilter } from './filter';
import type { Listing } from './listing';
import { cappedCountQuery, countQuery, readCount, readRenderedPage, renderedPageQuery } from './page';
import { sortKey } from './sort';

/**
 * A list's answer with its page as the wire's JSON text (`list`: a JSON array, rendered by the store:
 * ./page.ts). The list routes put it into their answer as it is; a caller that needs the records
 * parses it (asRecords).
 */
export interface RenderedList {
  list: string;
  total: number;
  /** How many records `list` holds (a REST answer's Content-Range names them). */
  length: number;
  /** `total` is a lower bound: the match holds more than the resource counts (ResourceConfig.countUpTo). */
  totalIsLowerBound?: true;
}

/**
 * Answers a validated list body from `source` (./compiled.ts: the rows the viewer sees), with at most
 * two queries: the whole match counted and one page read. The first page is read first: when it is not
 * full it is the whole match, and its length is the total (getOne, getMany and short lists never count).
 * Any other page is read only when it lies before the end, so no offset beyond the data reaches the
 * store. A filter that can match nothing is answered without asking the store. `total`, when the caller
 * knows the size of the match without counting it (server/devices/list.ts), replaces the count query.
 * A resource with `countUpTo` counts no further than that (plus one): beyond it, the total is a lower
 * bound that says so, and a page is read whatever its offset.
 */
export const renderList = async <D, TB extends keyof D>(
  source: ListSource<D, TB>,
  listing: Listing,
  body: ListBody,
  total?: number,
): Promise<RenderedList> => {
  const values = [...source.values];
  const plan = planFilter(listing, body.filter, values);
  if (plan.matchesNothing) return { list: '[]', total: 0, length: 0 };
  const page = { sort: sortKey(listing, body.sort), pageSize: body.pageSize, offset: values.push((body.current - 1) * body.pageSize) - 1 };
  const query = () => filtered(source.from(), plan);
  const shape = `${source.key} | ${plan.key}`;
  const offset = (body.current - 1) * body.pageSize;
  const upTo = listing.config.countUpTo;
  /** How far the match is counted (undefined: in full); see countLimit. */
  const limit = total === undefined && upTo !== undefined ? countLimit(upTo, offset, body.pageSize) : undefined;
  const count = async () => {
    if (total !== undefined) return total;
    if (limit === undefined) return readCount(await runCompiled(source, `${shape} | count`, () => countQuery(query()), values));
    const usual = limit === (upTo ?? 0) + 1;
    const bound = usual ? limit : { index: values.push(limit) - 1 };
    return readCount(await runCompiled(source, `${shape} | count to ${usual ? limit : 'page'}`, () => cappedCountQuery(source.db, query(), bound), values));
  };
  const read = async () =>
    readRenderedPage(await runCompiled(source, `${shape} | ${page.sort} | page of ${page.pageSize}`, () => renderedPageQuery(source.db, query(), listing, page), values));
  if (offset === 0) {
    const first = await read();
    if (first.length < body.pageSize) return { ...first, total: first.length };
    return { ...first, ...listTotal(await count(), limit) };
  }
  const matched = await count();
  if (offset >= matched) return { list: '[]', total: matched, length: 0 };
  return { ...(await read()), ...listTotal(matched, limit) };
};

/** A rendered answer's records, for a caller that adds to them or reads them (the store wrote the JSON: it parses). */
export const asRecords = ({ list, length: _length, ...total }: RenderedList): ListAnswer => ({ list: JSON.parse(list) as WireRecord[], ...total });
