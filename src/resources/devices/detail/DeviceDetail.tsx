import { Box } from '@mui/material';
import { Show, useRecordContext } from 'react-admin';
import type { Telemetry } from '../../../domain/mqtt/payloads';
import { ChartsPanel } from './ChartsPanel';
import { DetailHeader } from './DetailHeader';
import { DetailTabs } from './DetailTabs';
import { LiveReadings } from './LiveReadings';
import { SettingsInForce } from './SettingsInForce';

const DetailContent = () => {
  const record = useRecordContext();
  if (!record) return null;
  const Id = String(record.Id);
  const reading = (record.Reading ?? undefined) as Telemetry | undefined;
  return (
    // minmax(0, …): a grid column is otherwise as wide as its widest content (a table), which on a phone
    // pushed cabin O2 off-screen; each part keeps to the window and scrolls its own table instead.
    <Box sx={{ display: 'grid', gap: 2, py: 1, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <DetailHeader record={record} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' } }}>
        <LiveReadings reading={reading} inSession={Boolean(record.SessionOC)} />
        <SettingsInForce reading={reading} />
      </Box>
      <ChartsPanel Id={Id} />
      <DetailTabs Id={Id} />
    </Box>
  );
};

/**
 * `/devices/:id/show`: one chamber for its operator (docs/monitoring.md): live readings and settings in
 * force, its commands (asking first while a session runs), live and history charts with CSV, and its
 * commands, orders and audit trail. The device record follows the live stream (the query cache's
 * patches), so every part is live without a refetch.
 */
export const DeviceDetail = () => (
  <Show actions={false} component="div">
    <DetailContent />
  </Show>
);
