import { Box, Paper, Typography } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { systolicOf } from '../../../domain/bloodPressure';
import type { SessionReading } from '../../../domain/sessionReport';

type Numeric = 'RCP' | 'SP' | 'RCPi02' | 'RCT' | 'RCRH' | 'HmHR' | 'HmSP02' | 'HmBPSys';

interface Chart {
  title: string;
  series: readonly { reading: Numeric; label: string; unit: string }[];
}

const field = (name: string) => `resources.state-records.fields.${name}`;

/** The four charts of docs/product.md: pressure against set point, oxygen, the cabin air, the occupant. */
const CHARTS: readonly Chart[] = [
  { title: 'crud.orders.pressureChart', series: [{ reading: 'RCP', label: field('RCP'), unit: 'crud.units.ata' }, { reading: 'SP', label: field('SP'), unit: 'crud.units.ata' }] },
  { title: 'crud.orders.oxygenChart', series: [{ reading: 'RCPi02', label: field('RCPi02'), unit: 'crud.units.percent' }] },
  { title: 'crud.orders.airChart', series: [{ reading: 'RCT', label: field('RCT'), unit: 'crud.units.celsius' }, { reading: 'RCRH', label: field('RCRH'), unit: 'crud.units.relativeHumidity' }] },
  {
    title: 'crud.orders.vitalsChart',
    series: [
      { reading: 'HmHR', label: field('HmHR'), unit: 'crud.units.bpm' },
      { reading: 'HmSP02', label: field('HmSP02'), unit: 'crud.units.percent' },
      { reading: 'HmBPSys', label: field('HmBP'), unit: 'crud.units.mmHg' },
    ],
  },
];

const valueOf = (reading: SessionReading, name: Numeric): number | null =>
  name === 'HmBPSys' ? (reading.HmBP === null ? null : (systolicOf(reading.HmBP) ?? null)) : reading[name];

/** The session's readings as line charts over its time, one per question an operator asks of a session. */
export const ReportCharts = ({ readings }: { readings: readonly SessionReading[] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const times = readings.map((reading) => new Date(reading.Time));
  const timeLabel = (value: Date) => value.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2, '@media print': { gridTemplateColumns: '1fr 1fr' } }}>
      {CHARTS.map((chart) => (
        <Paper key={chart.title} variant="outlined" sx={{ p: 1, breakInside: 'avoid' }} data-testid={`report-chart-${chart.series[0]?.reading ?? ''}`}>
          <Typography variant="subtitle2" component="h3" sx={{ px: 1 }}>
            {translate(chart.title)}
          </Typography>
          <LineChart
            height={220}
            skipAnimation
            xAxis={[{ data: times, scaleType: 'time', valueFormatter: timeLabel }]}
            series={chart.series.map((series) => ({
              data: readings.map((reading) => valueOf(reading, series.reading)),
              label: `${translate(series.label)} (${translate(series.unit)})`,
              showMark: false,
              connectNulls: true,
            }))}
          />
        </Paper>
      ))}
    </Box>
  );
};
