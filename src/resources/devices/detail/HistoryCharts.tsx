import { Alert, Box, LinearProgress } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useQuery } from '@tanstack/react-query';
import { Button, downloadCSV, useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { historyCsv, historyTable } from './historyTable';
import { ChartGrid } from './ReadingChart';

/** Buckets asked per reading: about one per two pixels of a chart half the page wide. */
const HISTORY_POINTS = 400;

export interface TimeRange {
  from: number;
  to: number;
}

/**
 * A device's readings over a range from `GET /api/v1/devices/{Id}/history`: per reading its mean as a line
 * and its min–max as a band, and the range's buckets as CSV. A refusal (a range the server will not
 * answer) shows in place of the charts, in the user's language as the server words it.
 */
export const HistoryCharts = ({ Id, range }: { Id: string; range: TimeRange }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending } = useQuery({
    queryKey: ['device-history', Id, range.from, range.to],
    queryFn: () => dataProvider.deviceHistory(Id, { ...range, points: HISTORY_POINTS }),
  });
  if (isPending) return <LinearProgress />;
  if (error) return <Alert severity="error">{translate('app.detail.historyFailed', { reason: error.message })}</Alert>;
  const { times, columns } = historyTable(data);
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box>
        <Button label="app.detail.csv" onClick={() => downloadCSV(historyCsv(data), `${Id}-${new Date(range.from).toISOString()}-${new Date(range.to).toISOString()}`)}>
          <DownloadIcon />
        </Button>
      </Box>
      <ChartGrid
        times={times}
        spanMs={range.to - range.from}
        valuesOf={({ reading }) => {
          const column = columns[reading];
          return column ? { values: column.mean, band: { min: column.min, max: column.max } } : { values: times.map(() => null) };
        }}
      />
    </Box>
  );
};
