import type { ResourceConfig } from '../src/resources/types';
import { RESOURCE_CONFIGS } from '../src/resources';
import { sharedPolicy, type AccessCheck } from './access';
import { authHandlers } from './auth';
import { commandHandlers } from './commands';
import { restResourceHandlers } from './rest';
import { seedTables } from './seed';
import { upstreamResourceHandlers } from './upstream';

export interface MockOptions {
  /** The resources to serve; the registry by default. */
  resources?: readonly ResourceConfig[];
  /** Who may do what; the shared policy by default. */
  canAccess?: AccessCheck;
}

/**
 * Every call the console makes, mocked with msw: sign-in, each configured resource (generated from its
 * configuration, over freshly seeded data) and the upstream's commands. Each call gets its own data.
 */
export const handlers = (upstreamBase: string, restBase: string, { resources = RESOURCE_CONFIGS, canAccess = sharedPolicy }: MockOptions = {}) => {
  const tables = seedTables(resources);
  const tableOf = (config: ResourceConfig) => tables.get(config.name) ?? [];
  return [
    ...authHandlers(upstreamBase),
    ...resources.flatMap((config) =>
      config.adapter === 'upstream'
        ? upstreamResourceHandlers(upstreamBase, config, tableOf(config), canAccess)
        : restResourceHandlers(restBase, config, tableOf(config), canAccess),
    ),
    ...commandHandlers(upstreamBase, tables, canAccess),
  ];
};
