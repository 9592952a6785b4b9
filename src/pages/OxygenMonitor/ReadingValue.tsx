import { useTheme } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { DEFAULT_RATED_MAX_ATA } from '../../domain/deviceTypes';
import type { Telemetry } from '../../domain/mqtt/payloads';
import { rangeMark, READING_RANGES, VITAL_READINGS, type MarkedReading } from '../../domain/readingRanges';
import type { Unit } from '../../resources/types';
import type { ReadingColumn } from './columns';
import { ReadingMark } from '../../resources/devices/ReadingMark';
import { formatNumber } from './formats';

const isMarked = (key: ReadingColumn): key is MarkedReading => Object.hasOwn(READING_RANGES, key);

interface ReadingValueProps {
  reading: Telemetry | undefined;
  field: ReadingColumn;
  /** Decimals the number is shown with. */
  digits: number;
  unit?: Unit;
  /** The unit after the number (a tile), rather than in a header (the table). */
  withUnit?: boolean;
  inSession: boolean;
  /** The rated maximum pressure of the chamber's type, ATA (the high pressure mark); the default type's when not given. */
  ratedMaxAta?: number;
}

/**
 * One reading of a chamber as the monitoring screens show it: the pressure against its set point, a vital
 * only during a session (`—` otherwise), a value outside its normal range marked (ReadingMark), nothing
 * when the chamber has not sent it.
 */
export const ReadingValue = ({ reading, field, digits, unit, withUnit = false, inSession, ratedMaxAta = DEFAULT_RATED_MAX_ATA }: ReadingValueProps) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { palette } = useTheme();
  if (isMarked(field) && VITAL_READINGS.includes(field) && !inSession) {
    // A plain span: a fleet's rows render each second, and MUI's Typography would style it anew each time.
    return <span style={{ color: palette.text.disabled }} title={translate('app.monitor.noSession')}>—</span>;
  }
  if (reading === undefined) return null;
  const number = (value: number | undefined) => (value === undefined ? '' : formatNumber(locale, value, digits));
  const raw = reading[field];
  const text = field === 'RCP' ? `${number(reading.RCP)} / ${number(reading.SP)}` : typeof raw === 'number' ? number(raw) : (raw ?? '');
  const unitText = unit ? translate(`crud.units.${unit}`) : '';
  const shown = withUnit && text !== '' && unitText !== '' ? `${text} ${unitText}` : text;
  const mark = isMarked(field) ? rangeMark(reading, field, { ratedMaxAta }) : undefined;
  return mark ? <ReadingMark mark={mark} unit={unitText} digits={field === 'RCP' ? 2 : digits}>{shown}</ReadingMark> : shown;
};
