import { historyValueOf } from '../../../domain/history';
import { ChartGrid } from './ReadingChart';
import { LIVE_WINDOW_MS, useLiveWindow } from './useLiveWindow';

/** The last 15 minutes of a device's readings, charted as they arrive from the live stream. */
export const LiveCharts = ({ Id }: { Id: string }) => {
  const readings = useLiveWindow(Id);
  return (
    <ChartGrid
      times={readings.map((reading) => reading.Time)}
      spanMs={LIVE_WINDOW_MS}
      valuesOf={(line) => ({ values: readings.map((reading) => historyValueOf(reading, line.reading) ?? null) })}
    />
  );
};
