import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { historyValueOf } from '../../../domain/history';
import { READING_CHARTS } from './readingCharts';
import { ReadingChart } from './ReadingChart';
import { LIVE_WINDOW_MS, useLiveWindow } from './useLiveWindow';

/** The last 15 minutes of a device's readings, charted as they arrive from the live stream. */
export const LiveCharts = ({ Id }: { Id: string }) => {
  const translate = useTranslate();
  const { readings } = useLiveWindow(Id);
  const times = readings.map((reading) => reading.Time);
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
      {READING_CHARTS.map((chart) => (
        <ReadingChart
          key={chart.key}
          title={translate(`app.detail.charts.${chart.key}`)}
          times={times}
          spanMs={LIVE_WINDOW_MS}
          lines={chart.lines.map((line) => ({ line, values: readings.map((reading) => historyValueOf(reading, line.reading) ?? null) }))}
        />
      ))}
    </Box>
  );
};
