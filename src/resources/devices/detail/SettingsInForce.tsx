import { Box, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Telemetry } from '../../../domain/mqtt/payloads';

/** The settings a chamber reports with each reading, and its door lock. */
const IN_FORCE = ['SP', 'ST', 'SS', 'SL', 'SA', 'L'] as const;
const UNITS: Partial<Record<(typeof IN_FORCE)[number], 'ata' | 'minute'>> = { SP: 'ata', ST: 'minute' };

/** The labels and choices are the state records' (the same fields a chamber reports). */
const LABELS = 'resources.state-records';

/** The settings in force: those of the newest reading (the chamber reports what it runs, not what was last sent). */
export const SettingsInForce = ({ reading }: { reading: Telemetry | undefined }) => {
  const translate = useTranslate();
  const valueOf = (field: (typeof IN_FORCE)[number]) => {
    const value = reading?.[field];
    if (value === undefined) return '—';
    const unit = UNITS[field];
    if (unit) return `${value} ${translate(`crud.units.${unit}`)}`;
    return translate(`${LABELS}.choices.${field}.${value}`);
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="device-settings-in-force" sx={{ p: 2 }}>
      <Typography id="device-settings-in-force" variant="h6" component="h2" gutterBottom>
        {translate('app.detail.settingsTitle')}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1, gridTemplateColumns: 'auto 1fr' }}>
        {IN_FORCE.map((field) => (
          <Box key={field} sx={{ display: 'contents' }} data-setting={field}>
            <Typography component="dt" color="text.secondary">
              {translate(`${LABELS}.fields.${field}`)}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
              {valueOf(field)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
};
