import type { AlarmRecord } from '../../domain/alarms/record';
import type { DeviceState } from '../../domain/devices';
import type { MonitoredDevice } from '../OxygenMonitor/MonitorRow';

/** A chamber as the dashboard holds it: the device list's record, live patches merged in. */
export interface FleetDevice extends MonitoredDevice {
  Permission?: string;
  UpdateTime?: number;
}

/** The dashboard's filter chips; an absent key does not filter. */
export interface FleetFilter {
  site?: string;
  type?: number;
  state?: DeviceState;
  online?: boolean;
  inSession?: boolean;
  inAlarm?: boolean;
}

/** A chamber's standing alarms, most urgent first (empty: none). */
export type AlarmsOf = (id: string) => readonly AlarmRecord[];

const NO_ALARMS: AlarmsOf = () => [];

export const inSession = (device: FleetDevice): boolean => Boolean(device.SessionOC);

/**
 * How soon an operator must look at a chamber, lowest first: someone in danger (emergency depressurisation,
 * offline during a session, a standing high-priority alarm), then any other standing alarm, then a session
 * under way, then the rest. This is the one place that decides it.
 */
const urgency = (device: FleetDevice, alarms: readonly AlarmRecord[]): number => {
  if (device.Emergency || (inSession(device) && !device.Online) || alarms[0]?.priority === 'high') return 0;
  if (alarms.length > 0) return 1;
  return inSession(device) ? 2 : 3;
};

const matches = (device: FleetDevice, filter: FleetFilter, alarms: readonly AlarmRecord[]): boolean =>
  (filter.site === undefined || device.Location === filter.site) &&
  (filter.type === undefined || device.Type === filter.type) &&
  (filter.state === undefined || device.State === filter.state) &&
  (filter.online === undefined || Boolean(device.Online) === filter.online) &&
  (filter.inSession === undefined || inSession(device) === filter.inSession) &&
  (filter.inAlarm === undefined || (alarms.length > 0) === filter.inAlarm);

/** One site's chambers that pass the filter, most urgent first, then by Id. */
export interface SiteGroup {
  site: string;
  ids: string[];
  /** How many of them run a session. */
  sessions: number;
  /** The most urgent rank among them (see urgency). */
  urgency: number;
}

const byId = (a: FleetDevice, b: FleetDevice) => (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0);

/** The filtered fleet grouped by site: the sites with the most urgent chamber first, then by name. */
export const groupFleet = (devices: Iterable<FleetDevice>, filter: FleetFilter, alarmsOf: AlarmsOf = NO_ALARMS): SiteGroup[] => {
  const sites = new Map<string, { device: FleetDevice; urgency: number }[]>();
  for (const device of devices) {
    const alarms = alarmsOf(device.Id);
    if (!matches(device, filter, alarms)) continue;
    const ranked = { device, urgency: urgency(device, alarms) };
    const site = sites.get(device.Location);
    if (site) site.push(ranked);
    else sites.set(device.Location, [ranked]);
  }
  const groups = [...sites].map(([site, members]): SiteGroup => {
    members.sort((a, b) => a.urgency - b.urgency || byId(a.device, b.device));
    return {
      site,
      ids: members.map(({ device }) => device.Id),
      sessions: members.filter(({ device }) => inSession(device)).length,
      urgency: Math.min(...members.map((member) => member.urgency)),
    };
  });
  return groups.sort((a, b) => a.urgency - b.urgency || a.site.localeCompare(b.site));
};

/** A row of the virtualised grid: a site's heading, or up to `columns` of its tiles. */
export type GridRow = { kind: 'site'; group: SiteGroup } | { kind: 'tiles'; ids: string[] };

/** The groups cut into rows of `columns` tiles, each site starting on a row of its own under its heading. */
export const gridRows = (groups: readonly SiteGroup[], columns: number): GridRow[] => {
  const width = Math.max(1, Math.floor(columns));
  const rows: GridRow[] = [];
  for (const group of groups) {
    rows.push({ kind: 'site', group });
    for (let start = 0; start < group.ids.length; start += width) rows.push({ kind: 'tiles', ids: group.ids.slice(start, start + width) });
  }
  return rows;
};

/** The values present for a filter chip's choices, sorted. */
export const presentValues = <T extends string | number>(devices: Iterable<FleetDevice>, pick: (device: FleetDevice) => T | undefined): T[] => {
  const values = new Set<T>();
  for (const device of devices) {
    const value = pick(device);
    if (value !== undefined) values.add(value);
  }
  return [...values].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
};
