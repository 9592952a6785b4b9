import type { MarkedReading } from '../../domain/readingRanges';
import type { Unit } from '../types';

/** A reading shown from a device's newest telemetry: the oxygen monitor's columns, the device detail's large numbers. */
export type ShownReading = MarkedReading | 'RGPi02' | 'RAP' | 'RRD';

/** Each one's unit (translated under crud.units) and the decimals it is shown with (none: blood pressure, shown as sent). */
export const READING_FORMATS: Readonly<Record<ShownReading, { unit: Unit; digits?: number }>> = {
  RCP: { unit: 'ata', digits: 2 },
  RCPi02: { unit: 'percent', digits: 1 },
  RGPi02: { unit: 'percent', digits: 1 },
  RCT: { unit: 'celsius', digits: 1 },
  RCRH: { unit: 'relativeHumidity', digits: 0 },
  RAP: { unit: 'kPa', digits: 1 },
  HmSP02: { unit: 'percent', digits: 0 },
  HmHR: { unit: 'bpm', digits: 0 },
  HmBP: { unit: 'mmHg' },
  RRD: { unit: 'minute', digits: 0 },
};
