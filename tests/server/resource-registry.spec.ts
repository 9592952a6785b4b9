import { describe, expect, it } from 'vitest';
import { listPath } from '../../server/lists/route';
import { listingProblems } from '../../server/lists/listing';
import { SERVED_RESOURCES, servedBy } from '../../server/resources/registry';
import { restPath } from '../../server/rest/list';
import { POLICY } from '../../src/domain/policy';

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
