import type { AlarmKind } from '../../../domain/alarms/rules';
import type { Unit } from '../../types';
import { READING_FORMATS, type ShownReading } from '../readingFormats';

const reading = (field: ShownReading) => ({ unit: READING_FORMATS[field].unit, digits: READING_FORMATS[field].digits ?? 0 });

/**
 * How an alarm's value and threshold read for its kind: its reading's unit and decimals as the monitor shows
 * them, ATA a minute for the pressure rate; none for lost telemetry and emergency depressurisation, which
 * carry no value.
 */
export const ALARM_VALUE_FORMATS: Readonly<Record<AlarmKind, { unit: Unit; digits: number; perMinute?: true } | undefined>> = {
  'o2-high': reading('RCPi02'),
  'pressure-high': reading('RCP'),
  'pressure-rate': { ...reading('RCP'), perMinute: true },
  temperature: reading('RCT'),
  humidity: reading('RCRH'),
  'spo2-low': reading('HmSP02'),
  'heart-rate': reading('HmHR'),
  'blood-pressure': reading('HmBP'),
  offline: undefined,
  erd: undefined,
};

/** Seconds as `m:ss`, or `h:mm:ss` from an hour: how long an alarm has stood. */
export const elapsedText = (seconds: number): string => {
  const whole = Math.max(0, Math.floor(seconds));
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (part: number) => String(part).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${two(minutes)}:${two(rest)}`;
};
