/** The open alarms in the console (docs/alarms.md, "In the console"): one set per tab, moved by the live stream. */
export { applyAlarmEvent, OPEN_ALARMS_KEY, useAlarmCounts, useOpenAlarms, useOpenAlarmsFeed, useStandingAlarmsByDevice } from './openAlarms';
