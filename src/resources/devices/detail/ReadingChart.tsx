import { Box, Paper, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { LineChart, type LineSeries } from '@mui/x-charts/LineChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { READING_CHARTS, type ChartLine } from './readingCharts';
import { DAY_MS, HOUR_MS } from '../../../domain/time';

/** One line's values at the chart's times (null where it has none), and its min–max band over history buckets. */
interface ChartValues {
  line: ChartLine;
  values: readonly (number | null)[];
  band?: { min: readonly (number | null)[]; max: readonly (number | null)[] };
}

/** A line, its band and its mean in one hue: the palette the charts cycle through. */
const COLORS = ['#1976d2', '#ed6c02', '#2e7d32', '#9c27b0'] as const;

interface ReadingChartProps {
  title: string;
  /** Epoch ms of each point. */
  times: readonly number[];
  lines: readonly ChartValues[];
  /** How the time axis is labelled: to the second within an hour, the clock time within a day, the date beyond. */
  spanMs: number;
}

/**
 * A value with none beside it draws no line (a range of one bucket, or one between gaps): it is marked,
 * so a chamber's only reading of a long range shows instead of an empty chart. A line without such a
 * value keeps no marks, and its legend keeps a line.
 */
const marksOf = (values: readonly (number | null)[]): false | ((point: { index: number }) => boolean) => {
  const isolated = ({ index }: { index: number }) => values[index] !== null && (values[index - 1] ?? null) === null && (values[index + 1] ?? null) === null;
  return values.some((_, index) => isolated({ index })) && isolated;
};

/**
 * One chart of the detail page: a line per reading (the history's mean), and where history answered, its
 * min–max band under it (an area stacked on the min, so it spans min to max). `data-points` counts the
 * points drawn, for the operator's tooltips and the browser tests alike.
 */
const ReadingChart = ({ title, times, lines, spanMs }: ReadingChartProps) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const number = (value: number | null) => (value === null ? '' : value.toLocaleString(locale, { maximumFractionDigits: 2 }));
  const labelOf = ({ reading, unit }: ChartLine) => translate('app.detail.withUnit', { label: translate(`app.detail.readings.${reading}`), unit: translate(`crud.units.${unit}`) });
  const series: LineSeries[] = lines.flatMap((chartLine, index) => {
    const color = COLORS[index % COLORS.length] ?? COLORS[0];
    const label = labelOf(chartLine.line);
    const mean: LineSeries = { type: 'line', id: chartLine.line.reading, data: [...chartLine.values], label, color, showMark: marksOf(chartLine.values), curve: 'linear' };
    if (!chartLine.band) return [mean];
    const { min, max } = chartLine.band;
    const stack = `${chartLine.line.reading}-band`;
    return [
      { type: 'line', id: `${stack}-min`, data: [...min], stack, color: alpha(color, 0.3), showMark: false, curve: 'linear', disableHighlight: true, valueFormatter: () => null },
      {
        type: 'line',
        id: stack,
        data: max.map((high, at) => (high === null || min[at] === null ? null : high - (min[at] ?? 0))),
        stack,
        area: true,
        color: alpha(color, 0.3),
        showMark: false,
        curve: 'linear',
        label: translate('app.detail.band', { label }),
        valueFormatter: (_, { dataIndex }) => `${number(min[dataIndex] ?? null)} – ${number(max[dataIndex] ?? null)}`,
      },
      mean,
    ];
  });
  const points = lines.reduce((count, { values }) => count + values.filter((value) => value !== null).length, 0);
  const tick = (time: Date) => {
    if (spanMs > DAY_MS) return time.toLocaleDateString(locale);
    return time.toLocaleTimeString(locale, spanMs > HOUR_MS ? { hour: '2-digit', minute: '2-digit' } : { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  };
  return (
    <Paper variant="outlined" sx={{ p: 1 }} data-chart={title} data-points={points}>
      <Typography variant="subtitle2" component="h3" sx={{ px: 1 }}>
        {title}
      </Typography>
      {points === 0 ? (
        <Box sx={{ height: 200, display: 'grid', placeItems: 'center' }}>
          <Typography color="text.secondary">{translate('app.detail.noReadings')}</Typography>
        </Box>
      ) : (
        <LineChart
          height={220}
          series={series}
          xAxis={[{ data: times.map((time) => new Date(time)), scaleType: 'time', valueFormatter: tick }]}
          skipAnimation
        />
      )}
    </Paper>
  );
};

interface ChartGridProps {
  times: readonly number[];
  spanMs: number;
  /** Each line's values at `times`, and its band where history answered. */
  valuesOf: (line: ChartLine) => Omit<ChartValues, 'line'>;
}

/** The detail's four charts (READING_CHARTS) over one time axis, two abreast on a wide screen. */
export const ChartGrid = ({ times, spanMs, valuesOf }: ChartGridProps) => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
      {READING_CHARTS.map((chart) => (
        <ReadingChart key={chart.key} title={translate(`app.detail.charts.${chart.key}`)} times={times} spanMs={spanMs} lines={chart.lines.map((line) => ({ line, ...valuesOf(line) }))} />
      ))}
    </Box>
  );
};
