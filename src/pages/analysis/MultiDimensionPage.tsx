import { MenuItem, Stack, TextField, Alert } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading, Title, useDataProvider, useTranslate } from 'react-admin';
import { PIVOT_DIMENSIONS, PIVOT_MEASURES, type PivotDimension, type PivotMeasure } from '../../domain/stats';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { rangeOf, type RangeDays } from './analysisRange';
import { ChartCard, LABELLED_BARS } from './ChartCard';
import { RangePicker } from './RangePicker';


/** A choice among a fixed list, its options labelled from the catalogue. */
const Choice = <T extends string>({ label, value, options, labelOf, onChange }: { label: string; value: T; options: readonly T[]; labelOf: (option: T) => string; onChange: (value: T) => void }) => (
  <TextField select size="small" label={label} value={value} onChange={(event) => onChange(event.target.value as T)} sx={{ minWidth: 200 }}>
    {options.map((option) => (
      <MenuItem key={option} value={option}>
        {labelOf(option)}
      </MenuItem>
    ))}
  </TextField>
);

/** `/visualization/multi-dimension-data-analysis` (docs/analysis.md): any measure by site, type, chamber, day or month. */
export const MultiDimensionPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [days, setDays] = useState<RangeDays>(30);
  const [measure, setMeasure] = useState<PivotMeasure>('sessions');
  const [by, setBy] = useState<PivotDimension>('site');
  const query = { ...rangeOf(days), measure, by };
  const { data, error, isPending } = useQuery({ queryKey: ['statsPivot', query], queryFn: () => dataProvider.statsPivot(query) });
  const measureLabel = (each: PivotMeasure) => translate(`app.analysis.measures.${each}`);
  const dimensionLabel = (each: PivotDimension) => translate(`app.analysis.dimensions.${each}`);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Title title={translate('app.menu.multiDimensionAnalysis')} />
      <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
        <RangePicker days={days} onChange={setDays} />
        <Choice label={translate('app.analysis.measure')} value={measure} options={PIVOT_MEASURES} labelOf={measureLabel} onChange={setMeasure} />
        <Choice label={translate('app.analysis.by')} value={by} options={PIVOT_DIMENSIONS} labelOf={dimensionLabel} onChange={setBy} />
      </Stack>
      {error ? <Alert severity="error">{translate('app.analysis.failed')}</Alert> : null}
      {data ? (
        <ChartCard
          title={translate('app.analysis.pivotTitle', { measure: measureLabel(data.measure), by: dimensionLabel(data.by) })}
          file={`${data.measure}-by-${data.by}`}
          table={{ header: [data.by, 'label', data.measure], rows: data.rows.map((row) => [row.key, row.label, row.value]) }}
        >
          <BarChart
            height={360}
            xAxis={[{ scaleType: 'band', data: data.rows.map((row) => row.label) }]}
            series={[{ data: data.rows.map((row) => row.value), label: measureLabel(data.measure), ...(data.rows.length <= LABELLED_BARS ? { barLabel: 'value' as const } : {}) }]}
            hideLegend
          />
        </ChartCard>
      ) : isPending ? (
        <Loading />
      ) : null}
    </Stack>
  );
};
