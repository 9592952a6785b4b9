import { READING_FORMATS, type ShownReading } from '../../resources/devices/readingFormats';
import type { Unit } from '../../resources/types';

/** The readings a row shows from the device's latest telemetry. */
export type ReadingColumn = ShownReading;

type MonitorColumnKey = 'Id' | 'name' | 'Type' | 'Location' | 'State' | 'Online' | 'OrderNum' | ReadingColumn | 'Emergency' | 'alarms';

export interface MonitorColumn {
  key: MonitorColumnKey;
  /** Shown in the header (translated under crud.units). */
  unit?: Unit;
  /** Decimals a number is shown with; a column with them is right-aligned. */
  digits?: number;
  /** The device list can sort by it (src/resources/devices/config.ts). */
  sortable?: boolean;
}

const reading = (key: ReadingColumn): MonitorColumn => ({ key, ...READING_FORMATS[key] });

/**
 * The oxygen monitor's columns (docs/monitoring.md), in the order an operator reads a chamber: who and what it is,
 * whether it is reachable and in session, the pressure against its set point, the cabin air, the occupant,
 * the time left, emergency depressurisation, and the chamber's standing alarms.
 */
export const MONITOR_COLUMNS: readonly MonitorColumn[] = [
  { key: 'Id', sortable: true },
  { key: 'name', sortable: true },
  { key: 'Type', sortable: true },
  { key: 'Location', sortable: true },
  { key: 'State', sortable: true },
  { key: 'Online', sortable: true },
  { key: 'OrderNum' },
  reading('RCP'),
  reading('RCPi02'),
  reading('RGPi02'),
  reading('RCT'),
  reading('RCRH'),
  reading('RAP'),
  reading('HmSP02'),
  reading('HmHR'),
  reading('HmBP'),
  reading('RRD'),
  { key: 'Emergency' },
  { key: 'alarms' },
];

/** A column's name as its header shows it, with its unit: "舱内氧浓度 (%)". */
export const monitorColumnLabel = (translate: (key: string, options?: Record<string, unknown>) => string, column: MonitorColumn): string => {
  const label = translate(`app.monitor.columns.${column.key}`);
  return column.unit ? translate('app.monitor.withUnit', { label, unit: translate(`crud.units.${column.unit}`) }) : label;
};
