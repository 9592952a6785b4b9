import type { DeviceState } from '../../domain/devices';
import type { MonitoredDevice } from '../OxygenMonitor/MonitorRow';

/** A chamber as the dashboard holds it: the device list's record (its Type too), live patches merged in. */
export interface FleetDevice extends MonitoredDevice {
  Type?: number;
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
}

export const inSession = (device: FleetDevice): boolean => Boolean(device.SessionOC);

/**
 * How soon an operator must look at a chamber, lowest first: someone in danger (emergency depressurisation,
 * offline during a session), then a session under way, then the rest. An open alarm will rank with danger
 * once alarms exist: this is the one place that decides it.
 */
const urgency = (device: FleetDevice): number => {
  if (device.Emergency || (inSession(device) && !device.Online)) return 0;
  return inSession(device) ? 1 : 2;
};

const matches = (device: FleetDevice, filter: FleetFilter): boolean =>
  (filter.site === undefined || device.Location === filter.site) &&
  (filter.type === undefined || device.Type === filter.type) &&
  (filter.state === undefined || device.State === filter.state) &&
  (filter.online === undefined || Boolean(device.Online) === filter.online) &&
  (filter.inSession === undefined || inSession(device) === filter.inSession);

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
export const groupFleet = (devices: Iterable<FleetDevice>, filter: FleetFilter): SiteGroup[] => {
  const sites = new Map<string, FleetDevice[]>();
  for (const device of devices) {
    if (!matches(device, filter)) continue;
    const site = sites.get(device.Location);
    if (site) site.push(device);
    else sites.set(device.Location, [device]);
  }
  const groups = [...sites].map(([site, members]): SiteGroup => {
    members.sort((a, b) => urgency(a) - urgency(b) || byId(a, b));
    return { site, ids: members.map((device) => device.Id), sessions: members.filter(inSession).length, urgency: Math.min(...members.map(urgency)) };
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
