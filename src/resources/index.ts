import { accounts } from './accounts';
import { alarmRules } from './alarm-rules';
import { alarms } from './alarms';
import { auditLog } from './audit-log';
import { deviceTypes } from './device-types';
import { devices } from './devices';
import { notificationChannels } from './notification-channels';
import { orders } from './orders';
import { settingRequests } from './setting-requests';
import { stateRecords } from './state-records';
import type { ConsoleResource } from './generate/resource';

/** The views of each configuration of configs.ts, in its order: App.tsx renders them, the menu lists them. */
export const RESOURCES: readonly ConsoleResource[] = [
  devices,
  stateRecords,
  orders,
  accounts,
  auditLog,
  deviceTypes,
  alarms,
  alarmRules,
  settingRequests,
  notificationChannels,
];
