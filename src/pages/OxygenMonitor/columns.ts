import type { MarkedReading } from '../../domain/readingRanges';
import type { Unit } from '../../resources/types';

/** The readings a row shows from the device's latest telemetry, in the order of the table. */
export type ReadingColumn = MarkedReading | 'RGPi02' | 'RAP' | 'RRD';

type MonitorColumnKey = 'Id' | 'name' | 'Type' | 'Location' | 'State' | 'Online' | 'OrderNum' | ReadingColumn | 'Emergency';

export interface MonitorColumn {
  key: MonitorColumnKey;
  /** Shown in the header (translated under crud.units). */
  unit?: Unit;
  /** Decimals a number is shown with; a column with them is right-aligned. */
  digits?: number;
  /** The device list can sort by it (src/resources/devices/config.ts). */
  sortable?: boolean;
}

/**
 * The oxygen monitor's columns (docs/monitoring.md), in the order an operator reads a chamber: who and what it is,
 * whether it is reachable and in session, the pressure against its set point, the cabin air, the occupant,
 * the time left, and emergency depressurisation.
 */
export const MONITOR_COLUMNS: readonly MonitorColumn[] = [
  { key: 'Id', sortable: true },
  { key: 'name', sortable: true },
  { key: 'Type', sortable: true },
  { key: 'Location', sortable: true },
  { key: 'State', sortable: true },
  { key: 'Online', sortable: true },
  { key: 'OrderNum' },
  { key: 'RCP', unit: 'ata', digits: 2 },
  { key: 'RCPi02', unit: 'percent', digits: 1 },
  { key: 'RGPi02', unit: 'percent', digits: 1 },
  { key: 'RCT', unit: 'celsius', digits: 1 },
  { key: 'RCRH', unit: 'relativeHumidity', digits: 0 },
  { key: 'RAP', unit: 'kPa', digits: 1 },
  { key: 'HmSP02', unit: 'percent', digits: 0 },
  { key: 'HmHR', unit: 'bpm', digits: 0 },
  { key: 'HmBP', unit: 'mmHg' },
  { key: 'RRD', unit: 'minute', digits: 0 },
  { key: 'Emergency' },
];
