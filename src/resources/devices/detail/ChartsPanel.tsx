import { useState } from 'react';
import { Alert, Box, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { Button, useTranslate } from 'react-admin';
import { HistoryCharts, type TimeRange } from './HistoryCharts';
import { LiveCharts } from './LiveCharts';
import { DAY_MS, HOUR_MS, localInputTime, localInputValue, MINUTE_MS } from '../../../domain/time';

/** The ranges one click away; 15 minutes is the live window, the others ask the history. */
const PRESETS = { live: 15 * MINUTE_MS, hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS } as const;
type Preset = keyof typeof PRESETS;

/** A `datetime-local` value as a time, NaN when it is empty or incomplete. */
const fromLocalInput = (value: string) => localInputTime(value) ?? Number.NaN;

/**
 * The detail's charts with their range: the last 15 minutes live, a preset range up to now, or any range
 * between two times (the "to" must be after the "from", said under it).
 */
export const ChartsPanel = ({ Id }: { Id: string }) => {
  const translate = useTranslate();
  const [preset, setPreset] = useState<Preset | 'custom'>('live');
  const [range, setRange] = useState<TimeRange>(() => ({ from: Date.now() - HOUR_MS, to: Date.now() }));
  const [draft, setDraft] = useState({ from: localInputValue(range.from), to: localInputValue(range.to) });
  const choose = (next: Preset | 'custom' | null) => {
    if (next === null) return;
    setPreset(next);
    if (next !== 'custom' && next !== 'live') setRange({ from: Date.now() - PRESETS[next], to: Date.now() });
  };
  const [draftFrom, draftTo] = [fromLocalInput(draft.from), fromLocalInput(draft.to)];
  const draftError = Number.isNaN(draftFrom) || Number.isNaN(draftTo) ? 'app.detail.rangeIncomplete' : draftTo <= draftFrom ? 'app.detail.rangeOrder' : undefined;
  return (
    <Box component="section" aria-labelledby="device-charts-title" sx={{ display: 'grid', gap: 1 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id="device-charts-title" variant="h6" component="h2">
          {translate('app.detail.chartsTitle')}
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={preset} onChange={(_, next: Preset | 'custom' | null) => choose(next)} aria-label={translate('app.detail.range')}>
          {[...(Object.keys(PRESETS) as Preset[]), 'custom' as const].map((key) => (
            <ToggleButton key={key} value={key}>
              {translate(`app.detail.ranges.${key}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {preset === 'custom' && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <TextField size="small" type="datetime-local" label={translate('app.detail.from')} value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField
            size="small"
            type="datetime-local"
            label={translate('app.detail.to')}
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
            error={draftError !== undefined}
            helperText={draftError ? translate(draftError) : ' '}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button label="app.detail.show" variant="outlined" disabled={draftError !== undefined} onClick={() => setRange({ from: draftFrom, to: draftTo })} sx={{ mt: 0.5 }} />
        </Stack>
      )}
      {preset === 'live' ? (
        <>
          <Alert severity="info" variant="outlined" sx={{ py: 0 }}>
            {translate('app.detail.liveHint')}
          </Alert>
          <LiveCharts Id={Id} />
        </>
      ) : (
        <HistoryCharts Id={Id} range={range} />
      )}
    </Box>
  );
};
