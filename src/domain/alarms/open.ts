import type { AlarmRecord } from './record';
import { ALARM_PRIORITIES, type AlarmPriority, type AlarmState } from './rules';

/** Every state but `closed`: the alarms the console holds and marks (docs/alarms.md, "States"). */
export const OPEN_ALARM_STATES = ['active-unacked', 'active-acked', 'rtn-unacked', 'shelved', 'suppressed'] as const satisfies readonly AlarmState[];

/**
 * The states an operator is shown as standing alarms: counted in the app bar and marked on the chambers.
 * Shelved alarms are hidden on purpose and suppressed ones are by design; both stay in the alarm list.
 */
export const STANDING_ALARM_STATES: readonly AlarmState[] = ['active-unacked', 'active-acked', 'rtn-unacked'];

/** The states that wait for an operator's acknowledgement: the banner and its sound. */
export const UNACKED_ALARM_STATES: readonly AlarmState[] = ['active-unacked', 'rtn-unacked'];

export const isStanding = (alarm: AlarmRecord): boolean => STANDING_ALARM_STATES.includes(alarm.state);
export const isUnacked = (alarm: AlarmRecord): boolean => UNACKED_ALARM_STATES.includes(alarm.state);

/**
 * The open alarms after `alarm` changed: an open one replaces its older copy (or joins), a closed one
 * leaves. The stream sends an alarm's transitions in order, and a reconnect refetches the whole set,
 * so the copy that arrives last is the one in force. The same array when nothing changed.
 */
export const withAlarm = (open: readonly AlarmRecord[], alarm: AlarmRecord): readonly AlarmRecord[] => {
  const index = open.findIndex((held) => held.id === alarm.id);
  if (alarm.state === 'closed') return index < 0 ? open : open.filter((held) => held.id !== alarm.id);
  if (index < 0) return [...open, alarm];
  const next = [...open];
  next[index] = alarm;
  return next;
};

export type AlarmCounts = Record<AlarmPriority, number>;

/** Standing alarms by priority: the app bar's figures. */
export const alarmCounts = (open: readonly AlarmRecord[]): AlarmCounts => {
  const counts = Object.fromEntries(ALARM_PRIORITIES.map((priority) => [priority, 0])) as AlarmCounts;
  for (const alarm of open) if (isStanding(alarm)) counts[alarm.priority] += 1;
  return counts;
};

const sameAlarm = (a: AlarmRecord, b: AlarmRecord): boolean =>
  a === b || (Object.keys(a) as (keyof AlarmRecord)[]).every((field) => a[field] === b[field]);

const sameList = (a: readonly AlarmRecord[], b: readonly AlarmRecord[]): boolean =>
  a.length === b.length && a.every((alarm, index) => sameAlarm(alarm, b[index] as AlarmRecord));

export type AlarmsByDevice = ReadonlyMap<string, readonly AlarmRecord[]>;

/**
 * The open alarms of each device that pass `keep`, most urgent first (priority, then unacknowledged, then
 * newest); a device with none has no entry. A device whose alarms equal its list in `previous` keeps that
 * very array, so a screen's memoised rows and tiles render again only for the devices whose alarms changed.
 */
export const alarmsByDevice = (open: readonly AlarmRecord[], previous?: AlarmsByDevice, keep: (alarm: AlarmRecord) => boolean = () => true): AlarmsByDevice => {
  const byDevice = new Map<string, readonly AlarmRecord[]>();
  for (const alarm of open) {
    if (!keep(alarm)) continue;
    const list = byDevice.get(alarm.deviceId) as AlarmRecord[] | undefined;
    if (list) list.push(alarm);
    else byDevice.set(alarm.deviceId, [alarm]);
  }
  for (const [device, list] of byDevice) {
    (list as AlarmRecord[]).sort(byUrgency);
    const before = previous?.get(device);
    if (before && sameList(before, list)) byDevice.set(device, before);
  }
  return byDevice;
};

const PRIORITY_ORDER: Readonly<Record<AlarmPriority, number>> = { high: 0, medium: 1, low: 2 };

/** Most urgent first: standing before shelved or suppressed, higher priority, unacknowledged, then newest. */
const byUrgency = (a: AlarmRecord, b: AlarmRecord): number =>
  Number(isStanding(b)) - Number(isStanding(a)) ||
  PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] ||
  Number(isUnacked(b)) - Number(isUnacked(a)) ||
  b.raisedAt - a.raisedAt;
