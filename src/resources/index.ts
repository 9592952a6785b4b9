import { accounts } from './accounts';
import { auditLog } from './audit-log';
import { devices } from './devices';
import { orders } from './orders';
import { stateRecords } from './state-records';
import type { ConsoleResource } from './generate/resource';
import { resourceCatalogues } from './i18n';

/** The registry: one line per resource. App.tsx renders it, the menu lists it, the mocks serve it. */
export const RESOURCES: readonly ConsoleResource[] = [
  devices,
  stateRecords,
  orders,
  accounts,
  auditLog,
];

export const RESOURCE_CONFIGS = RESOURCES.map((resource) => resource.options.config);

/** `resources.*` and `crud.*` messages per language, for the console's catalogues. */
export const RESOURCE_MESSAGES = resourceCatalogues(RESOURCE_CONFIGS);
