import { Box, Paper, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import type { Telemetry } from '../../../domain/mqtt/payloads';
import { rangeMark, READING_RANGES, VITAL_READINGS, type MarkedReading } from '../../../domain/readingRanges';
import { ReadingMark } from '../ReadingMark';
import { READING_FORMATS, type ShownReading } from '../readingFormats';

/** The readings in large numbers, in the order an operator asks: the session's progress, the cabin air, the occupant. */
const SHOWN: readonly ShownReading[] = ['RCP', 'RRD', 'RCPi02', 'RGPi02', 'RCT', 'RCRH', 'RAP', 'HmSP02', 'HmHR', 'HmBP'];

const isMarked = (key: ShownReading): key is MarkedReading => Object.hasOwn(READING_RANGES, key);

/**
 * The newest reading in large numbers, each value outside its normal range marked (colour and icon, the
 * threshold in a tooltip); the occupant's readings only while a session runs, as on the oxygen monitor.
 */
export const LiveReadings = ({ reading, inSession }: { reading: Telemetry | undefined; inSession: boolean }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const number = (value: number | undefined, digits: number) =>
    value === undefined ? '—' : value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const valueOf = (key: ShownReading) => {
    const { unit, digits = 0 } = READING_FORMATS[key];
    if (isMarked(key) && VITAL_READINGS.includes(key) && !inSession) return <Typography component="span" variant="inherit" color="text.disabled" title={translate('app.monitor.noSession')}>—</Typography>;
    if (reading === undefined) return '—';
    const raw = reading[key];
    const text = key === 'RCP' ? `${number(reading.RCP, digits)} / ${number(reading.SP, digits)}` : typeof raw === 'number' ? number(raw, digits) : (raw ?? '—');
    const mark = isMarked(key) ? rangeMark(reading, key) : undefined;
    return mark ? <ReadingMark mark={mark} unit={translate(`crud.units.${unit}`)} digits={digits}>{text}</ReadingMark> : text;
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="device-readings-title" sx={{ p: 2 }}>
      <Typography id="device-readings-title" variant="h6" component="h2" gutterBottom>
        {translate('app.detail.readingsTitle')}
        {reading && (
          <Typography component="span" variant="body2" color="text.secondary">
            {` · ${new Date(reading.Time).toLocaleTimeString(locale)}`}
          </Typography>
        )}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(9rem, 1fr))' }}>
        {SHOWN.map((key) => (
          <Box key={key} data-reading={key} sx={key === 'RCP' ? { gridColumn: 'span 2' } : undefined}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {translate('app.detail.withUnit', { label: translate(`app.monitor.columns.${key}`), unit: translate(`crud.units.${READING_FORMATS[key].unit}`) })}
            </Typography>
            <Typography component="dd" variant="h4" sx={{ m: 0, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
              {valueOf(key)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
};
