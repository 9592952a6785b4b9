import DownloadIcon from '@mui/icons-material/Download';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { Button, downloadCSV, useTranslate } from 'react-admin';
import { csvTable, type CsvValue } from '../../domain/csv';

/** Bars labelled with their value only while they are few enough to read. */
export const LABELLED_BARS = 31;

/** What a chart exports: its numbers as a table, one row per bar, slice or cell. */
export interface ChartTable {
  header: readonly string[];
  rows: readonly (readonly CsvValue[])[];
}

/** A chart with its title and a button that downloads the chart's numbers as CSV (neutralised cells, src/domain/csv.ts). */
export const ChartCard = ({ title, file, table, children }: { title: string; file: string; table: ChartTable; children: ReactNode }) => {
  const translate = useTranslate();
  return (
  <Card variant="outlined" data-testid={`chart-${file}`}>
    <CardContent>
      <Stack direction="row" justifyContent="space-between" alignItems="center">
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Button label="app.analysis.csv" disabled={table.rows.length === 0} onClick={() => downloadCSV(csvTable(table.header, table.rows), file)}>
          <DownloadIcon />
        </Button>
      </Stack>
      <ChartsLocalizationProvider localeText={{ noData: translate('app.analysis.noData') }}>{children}</ChartsLocalizationProvider>
    </CardContent>
  </Card>
  );
};
