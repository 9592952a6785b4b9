import { useLocaleState, useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { AlarmKind } from '../../domain/alarms/rules';
import { DEFAULT_LOCALE, isLocale } from '../../domain/locales';
import { ALARM_KIND_LABELS } from '../../resources/alarms/config';
import { READING_FORMATS, type ShownReading } from '../../resources/devices/readingFormats';

/** The reading each rule watches, for its value's unit and decimals; the event rules have no value. */
const KIND_READING: Partial<Record<AlarmKind, ShownReading>> = {
  'o2-high': 'RCPi02',
  'pressure-high': 'RCP',
  'pressure-rate': 'RCP',
  temperature: 'RCT',
  humidity: 'RCRH',
  'spo2-low': 'HmSP02',
  'heart-rate': 'HmHR',
  'blood-pressure': 'HmBP',
};

/**
 * An alarm in words, in the console's language: its kind, and its value against the limit it crossed
 * (`23.6 % ≥ 23.5 %`; the pressure rate in ATA a minute), empty for the rules that report no value.
 */
export const useAlarmText = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const labels = ALARM_KIND_LABELS[isLocale(locale) ? locale : DEFAULT_LOCALE];
  const kind = (alarm: AlarmRecord): string => labels[alarm.kind];
  const value = ({ kind: alarmKind, value: reading, threshold }: AlarmRecord): string => {
    const watched = KIND_READING[alarmKind];
    if (watched === undefined || reading === null) return '';
    const { unit, digits } = READING_FORMATS[watched];
    const unitText = translate(`crud.units.${unit}`);
    const shownUnit = alarmKind === 'pressure-rate' ? translate('app.alarmSignals.perMinute', { unit: unitText }) : unitText;
    const number = (figure: number) => `${figure.toFixed(digits ?? 0)} ${shownUnit}`;
    if (threshold === null) return number(reading);
    return `${number(reading)} ${reading >= threshold ? '≥' : '≤'} ${number(threshold)}`;
  };
  return { kind, value };
};
