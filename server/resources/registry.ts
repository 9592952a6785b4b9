import { accountsResource } from '../accounts/list';
import { alarmRulesResource, alarmsResource } from '../alarms/list';
import { auditLogResource } from '../audit/list';
import { deviceCommandsResource } from '../commands/list';
import { deviceTypesResource } from '../device-types/list';
import { devicesResource } from '../devices/list';
import { notificationChannelsResource } from '../notifications/channels';
import { ordersResource } from '../orders/list';
import { settingRequestsResource } from '../setting-requests/list';
import { stateRecordsResource } from '../telemetry/list';
import type { ServedResource } from './served';

/**
 * Every resource the server lists, one line each (docs/adding-a-resource.md). The upstream contract
 * and the REST API register their list routes from it (server/upstream.ts, server/rest/plugin.ts), and
 * the permission matrix derives its list rows from it.
 */
export const SERVED_RESOURCES: readonly ServedResource[] = [
  devicesResource,
  stateRecordsResource,
  ordersResource,
  accountsResource,
  auditLogResource,
  deviceCommandsResource,
  deviceTypesResource,
  alarmsResource,
  alarmRulesResource,
  settingRequestsResource,
  notificationChannelsResource,
];

/** The resources one API lists: `upstream` (the POST contract under API_PREFIX) or `rest` (/api/v1), by their configuration's adapter. */
export const servedBy = (api: 'upstream' | 'rest'): readonly ServedResource[] => SERVED_RESOURCES.filter((resource) => resource.config.adapter === api);
