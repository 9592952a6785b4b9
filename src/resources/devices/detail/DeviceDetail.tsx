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
    <Box sx={{ display: 'grid', gap: 2, py: 1 }}>
      <DetailHeader record={record} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
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
