import { memo } from 'react';
import { Box, Card, CardActions, CardContent, Typography } from '@mui/material';
import { RecordContextProvider, ShowButton, useLocaleState, useTranslate } from 'react-admin';
import { PER_READING_FIELDS } from '../../domain/live';
import { sameExcept } from '../../resources/generate/StableDatagridBody';
import { DeviceCommands } from '../../resources/devices/DeviceCommands';
import { ChamberStatus, chamberLook, LOOK_COLOR } from '../monitorDashboard/ChamberStatus';
import { inSession, type FleetDevice } from '../monitorDashboard/fleetLayout';
import { ReadingValue } from '../OxygenMonitor/ReadingValue';

/** A label and its value on one line of a card. */
const Fact = ({ label, children, name }: { label: string; children: React.ReactNode; name: string }) => (
  <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, typography: 'body2' }} data-field={name}>
    <Typography variant="body2" color="text.secondary" component="span">
      {label}
    </Typography>
    <Box component="span" sx={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
      {children}
    </Box>
  </Box>
);

const PER_READING = new Set<string>(PER_READING_FIELDS);

/**
 * The card's buttons, with a record context of their own: a reading (every second on every chamber)
 * changes nothing they show, so it renders none of them again, only the card's readings.
 */
const CardCommands = memo(
  ({ record }: { record: FleetDevice }) => (
    <RecordContextProvider value={record}>
      <CardActions sx={{ flexWrap: 'wrap', pt: 0 }}>
        <ShowButton />
        <DeviceCommands />
      </CardActions>
    </RecordContextProvider>
  ),
  (before, next) => sameExcept(before.record, next.record, PER_READING),
);

/**
 * One chamber as a card of the device status page: its status colour, who and where it is, its key
 * readings, and the device commands the role may give (the same as the table's row actions). Its type's
 * name comes from the page, which reads the types once for all its cards.
 */
export const DeviceCard = memo(function DeviceCard({ record, typeName }: { record: FleetDevice; typeName: string | undefined }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const reading = record.Reading ?? undefined;
  const session = inSession(record);
  const field = (source: string) => translate(`resources.devices.fields.${source}`);
  return (
    <Card variant="outlined" data-device={record.Id} data-reading-time={reading?.Time} sx={{ borderLeft: 6, borderLeftColor: LOOK_COLOR[chamberLook(record)], height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', gap: 0.5, pb: 1 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
          <Typography fontWeight={600} noWrap>
            {record.Id} · {record.name}
          </Typography>
          <ChamberStatus device={record} />
        </Box>
        <Fact name="Location" label={field('Location')}>{record.Location}</Fact>
        <Fact name="Type" label={field('Type')}>{typeName ?? translate('app.tiles.typeValue', { type: record.Type })}</Fact>
        <Fact name="Permission" label={field('Permission')}>{record.Permission ? translate(`resources.devices.choices.Permission.${record.Permission}`) : ''}</Fact>
        <Fact name="OrderNum" label={field('OrderNum')}>{record.OrderNum ?? '—'}</Fact>
        <Fact name="RCP" label={translate('app.monitor.columns.RCP')}>
          <ReadingValue reading={reading} field="RCP" digits={2} unit="ata" withUnit inSession={session} />
        </Fact>
        <Fact name="RCPi02" label={translate('app.monitor.columns.RCPi02')}>
          <ReadingValue reading={reading} field="RCPi02" digits={1} unit="percent" withUnit inSession={session} />
        </Fact>
        <Fact name="RCT" label={translate('app.monitor.columns.RCT')}>
          <ReadingValue reading={reading} field="RCT" digits={1} unit="celsius" withUnit inSession={session} />
        </Fact>
        {session && (
          <Fact name="RRD" label={translate('app.monitor.columns.RRD')}>
            <ReadingValue reading={reading} field="RRD" digits={0} unit="minute" withUnit inSession={session} />
          </Fact>
        )}
        <Fact name="UpdateTime" label={field('UpdateTime')}>{record.UpdateTime ? new Date(record.UpdateTime).toLocaleString(locale) : ''}</Fact>
      </CardContent>
      <CardCommands record={record} />
    </Card>
  );
});
