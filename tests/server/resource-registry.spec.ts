import { describe, expect, it } from 'vitest';
import { auditListing, auditScope } from '../../server/audit/list';
import { recordAudit, SYSTEM_ACTOR } from '../../server/audit/trail';
import { renderList } from '../../server/lists/answer';
import { viewerSource } from '../../server/lists/compiled';
import { defineListing, listingProblems } from '../../server/lists/listing';
import { listPath } from '../../server/lists/route';
import { SERVED_RESOURCES, servedBy } from '../../server/resources/registry';
import type { ServedResource } from '../../server/resources/served';
import { registerRestList, restPath } from '../../server/rest/list';
import { REST_PREFIX } from '../../server/rest/plugin';
import { POLICY } from '../../src/domain/policy';
import { auditLogConfig } from '../../src/resources/audit-log/config';
import type { ResourceConfig } from '../../src/resources/types';
import { demoTokens, seedFleet, T0 } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * The server's resource registry (server/resources/registry.ts): what it declares is what the APIs
 * serve, so a resource registered without a rule in the shared policy, without a column for a field,
 * or on a path another one holds is caught here rather than at the first request.
 */
describe('the resource registry', () => {
  it.each(SERVED_RESOURCES.map((resource) => [resource.config.name, resource] as const))(
    '%s has a list rule in the shared policy (src/domain/policy.ts) and a listing that serves its configuration',
    (name, resource) => {
      expect(POLICY[name]?.list, `${name} has no "list" rule in src/domain/policy.ts`).toBeDefined();
      expect(listingProblems(resource.listing())).toEqual([]);
    },
  );

  it('names each resource once, and each list path once per API', () => {
    const names = SERVED_RESOURCES.map((resource) => resource.config.name);
    expect(new Set(names).size).toBe(names.length);
    const upstream = servedBy('upstream').map((resource) => listPath(resource.config));
    const rest = servedBy('rest').map((resource) => restPath(resource.config));
    expect(new Set(upstream).size).toBe(upstream.length);
    expect(new Set(rest).size).toBe(rest.length);
    expect(upstream.length + rest.length).toBe(SERVED_RESOURCES.length);
  });
});

/**
 * A REST entry whose list answers the page the store rendered (what a resource that adds nothing to
 * its records does, docs/adding-a-resource.md): the audit log's rows without before/after, at a path
 * of its own, registered beside the real one.
 */
const renderedConfig: ResourceConfig = { ...auditLogConfig, adapter: 'rest', path: 'audit-log-rendered' };
const renderedListing = defineListing(renderedConfig, { ...auditListing().columns });
const renderedAudit: ServedResource = {
  config: renderedConfig,
  listing: renderedListing,
  list: (ctx, viewer, body) => renderList(viewerSource(ctx.db, viewer, auditScope), renderedListing(), body),
};

describe.each(STORE_KINDS)('a REST list rendered by the store (%s)', (kind) => {
  const store = useStore(kind);

  it('is sent as it is: the records and Content-Range of the same list built as records', async () => {
    const ctx = store.context();
    await seedFleet(ctx);
    for (let n = 0; n < 5; n += 1) {
      await recordAudit(ctx.db, SYSTEM_ACTOR, { action: 'device.update', targetType: 'device', targetId: `OC-A${n}`, deviceId: null, after: { n } }, T0 + n * 1000);
    }
    const app = await store.app({
      setup: (root) => void root.register(async (rest) => registerRestList(rest, renderedAudit), { prefix: REST_PREFIX }),
    });
    const { admin } = await demoTokens(app);
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } });
    const query = `?sort=${encodeURIComponent('["at","DESC"]')}&range=[0,2]`;
    const rendered = await get(`${REST_PREFIX}/audit-log-rendered${query}`);
    const records = await get(`${REST_PREFIX}/audit-log${query}`);
    expect(rendered.statusCode, rendered.body).toBe(200);
    expect(rendered.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(rendered.headers['content-range']).toBe(String(records.headers['content-range']).replace('audit-log', 'audit-log-rendered'));
    const expected = records.json<Record<string, unknown>[]>().map(({ before: _before, after: _after, ...rest }) => rest);
    expect(expected).toHaveLength(3);
    expect(rendered.json()).toEqual(expected);
    const one = await get(`${REST_PREFIX}/audit-log-rendered/${String(expected[0]?.id)}`);
    expect(one.json()).toEqual(expected[0]);
    expect((await get(`${REST_PREFIX}/audit-log-rendered/999999`)).statusCode).toBe(404);
  });
});
