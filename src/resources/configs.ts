import { accountsConfig } from './accounts/config';
import { alarmRulesConfig } from './alarm-rules/config';
import { alarmsConfig } from './alarms/config';
import { auditLogConfig, withWrittenActions } from './audit-log/config';
import { deviceTypesConfig } from './device-types/config';
import { devicesConfig } from './devices/config';
import { notificationChannelsConfig } from './notification-channels/config';
import { ordersConfig } from './orders/config';
import { settingRequestsConfig } from './setting-requests/config';
import { stateRecordsConfig } from './state-records/config';
import type { ResourceConfig } from './types';

/**
 * The registry of configurations, one line per resource, in menu order: plain data, so the mocks, the
 * server and the console's catalogues take it without the views. index.ts adds each one's views.
 */
const CONFIGS: readonly ResourceConfig[] = [
  devicesConfig,
  stateRecordsConfig,
  ordersConfig,
  accountsConfig,
  auditLogConfig,
  deviceTypesConfig,
  alarmsConfig,
  alarmRulesConfig,
  settingRequestsConfig,
  notificationChannelsConfig,
];

/**
 * The audit log as it is served and shown: its actions and target types include the derived writes of the
 * resources above (withWrittenActions), each labelled from the resource's own name.
 */
export const AUDIT_LOG_CONFIG = withWrittenActions(auditLogConfig, CONFIGS);

/** The registry, with the audit log that labels the others' writes. */
export const RESOURCE_CONFIGS: readonly ResourceConfig[] = CONFIGS.map((config) => (config === auditLogConfig ? AUDIT_LOG_CONFIG : config));
