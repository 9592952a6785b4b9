import { describe, expect, it } from 'vitest';
import StoreIcon from '@mui/icons-material/Store';
import { canAccess } from '../../../src/domain/policy';
import { generateResource } from '../../../src/resources/generate/resource';
import { RESOURCES } from '../../../src/resources';
import { configuredResourcesFor } from '../../../src/routes/routeTable';
import { policyWithSites, sitesConfig } from './sites';

const sites = generateResource(sitesConfig, { icon: StoreIcon });

describe("the console menu's entries for resources declared by configuration", () => {
  const names = (resources: { name: string }[]) => resources.map(({ name }) => name);

  it('lists a new resource with no old console path, in menu order, for every role its policy row lets read it', () => {
    for (const role of ['admin', 'user', 'lowUser', 'client'] as const) {
      // The device types and the notification channels are in the menu of the admin, who edits them, only; the
      // settings requests in the administrators'; the alarms and their rules in everyone's.
      const expected = {
        admin: ['alarms', 'sites', 'alarm-rules', 'setting-requests', 'device-types', 'notification-channels', 'audit-log'],
        user: ['alarms', 'sites', 'alarm-rules', 'setting-requests', 'audit-log'],
        lowUser: ['alarms', 'sites', 'alarm-rules', 'setting-requests', 'audit-log'],
        client: ['alarms', 'sites', 'alarm-rules', 'audit-log'],
      }[role];
      expect(names(configuredResourcesFor(role, [...RESOURCES, sites], policyWithSites))).toEqual(expected);
    }
  });

  it('does not list the resources the old console paths already show: only the alarms, their rules, the settings requests, the device types, the notification channels and the audit log have none', () => {
    expect(names(configuredResourcesFor('admin', RESOURCES, canAccess))).toEqual(['alarms', 'alarm-rules', 'setting-requests', 'device-types', 'notification-channels', 'audit-log']);
    expect(names(configuredResourcesFor('client', RESOURCES, canAccess))).toEqual(['alarms', 'alarm-rules', 'audit-log']);
  });

  it('hides a resource until the policy has a row for it', () => {
    expect(names(configuredResourcesFor('admin', [...RESOURCES, sites], canAccess))).toEqual(['alarms', 'alarm-rules', 'setting-requests', 'device-types', 'notification-channels', 'audit-log']);
  });
});
