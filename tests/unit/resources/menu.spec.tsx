import { describe, expect, it } from 'vitest';
import StoreIcon from '@mui/icons-material/Store';
import { canAccess } from '../../../src/domain/policy';
import { generateResource } from '../../../src/resources/generate/resource';
import { RESOURCES } from '../../../src/resources';
import { configuredResourcesFor } from '../../../src/routes/routeTable';
import { policyWithSites, sitesConfig } from './sites';

const sites = generateResource(sitesConfig, { icon: StoreIcon });

describe("the console menu's entries for resources declared by configuration", () => {
  it('lists a new resource with no spec path, for every role its policy row lets read it', () => {
    for (const role of ['admin', 'user', 'lowUser', 'client'] as const) {
      expect(configuredResourcesFor(role, [...RESOURCES, sites], policyWithSites).map(({ name }) => name)).toEqual(['sites']);
    }
  });

  it('does not list the resources the spec paths already show', () => {
    expect(configuredResourcesFor('admin', RESOURCES, canAccess)).toEqual([]);
  });

  it('hides a resource until the policy has a row for it', () => {
    expect(configuredResourcesFor('admin', [...RESOURCES, sites], canAccess)).toEqual([]);
  });
});
