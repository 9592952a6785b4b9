import type { ResourceConfig } from '../src/resources/types';
import { RESOURCE_CONFIGS } from '../src/resources/configs';
import { sharedPolicy, type AccessCheck } from './access';
import { authHandlers, mockCredentials, mustChangeCodeGate } from './auth';
import { accountCallHandlers } from './accountCalls';
import { alarmHandlers, seededAlarms } from './alarms';
import { commandLog, deviceCommandHandlers } from './deviceCommands';
import { deviceRegistryHandlers } from './deviceRegistry';
import { fleetSummaryHandlers } from './fleetSummary';
import { historyHandlers } from './history';
import { issueCommandHandlers } from './issueCommands';
import { liveHandlers } from './live';
import { messageHandlers } from './messages';
import { orderHandlers, settleSeededOrders } from './orders';
import { restResourceHandlers } from './rest';
import { MOCK_EPOCH, seedTables } from './seed';
import { upstreamResourceHandlers } from './upstream';

export interface MockOptions {
  /** The resources to serve; the registry by default. */
  resources?: readonly ResourceConfig[];
  /** Who may do what; the shared policy by default. */
  canAccess?: AccessCheck;
}

/**
 * Every call the console makes, mocked with msw: sign-in, each configured resource (generated from its
 * configuration, over freshly seeded data), the upstream's commands to chambers and its account calls.
 * Each call gets its own data and its own passwords and its own command log. The first matching handler
 * answers, so the order is: the 40300 gate of an account that must change its password, sign-in, the
 * commands, the account calls, the booking calls (add_Admin with the level rule before the generated create) and the
 * alarms' actions, history and rule edits, the generated resource handlers, then the command log's REST read, a device's registration, secret and removal, a device's history, the message box, the
 * workplace's fleet summary and the live stream.
 */
export const handlers = (upstreamBase: string, restBase: string, { resources = RESOURCE_CONFIGS, canAccess = sharedPolicy }: MockOptions = {}) => {
  const tables = seedTables(resources);
  settleSeededOrders(tables.get('orders') ?? []);
  const tableOf = (config: ResourceConfig) => tables.get(config.name) ?? [];
  const credentials = mockCredentials();
  const commands = commandLog();
  return [
    mustChangeCodeGate(upstreamBase, credentials),
    ...authHandlers(upstreamBase, credentials),
    ...issueCommandHandlers(upstreamBase, tables, canAccess, commands),
    ...accountCallHandlers(upstreamBase, tables, canAccess, credentials),
    ...orderHandlers(restBase, tables, canAccess, commands),
    // The seeded alarms' transitions and conditions, made again the way the alarms table was (mocks/seed.ts).
    ...alarmHandlers(restBase, tables, canAccess, seededAlarms(tables.get('devices') ?? [], MOCK_EPOCH)),
    ...resources.flatMap((config) =>
      config.adapter === 'upstream'
        ? upstreamResourceHandlers(upstreamBase, config, tableOf(config), canAccess)
        : restResourceHandlers(restBase, config, tableOf(config), canAccess),
    ),
    ...deviceCommandHandlers(restBase, commands, canAccess),
    ...deviceRegistryHandlers(restBase, tables, canAccess),
    ...historyHandlers(restBase, tables, canAccess),
    ...messageHandlers(upstreamBase, canAccess),
    ...fleetSummaryHandlers(restBase, tables, canAccess),
    ...liveHandlers(restBase),
  ];
};
