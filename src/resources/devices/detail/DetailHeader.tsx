import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Box, Chip, Paper, Stack, Typography } from '@mui/material';
import { DeleteButton, useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import { useStandingAlarmsByDevice } from '../../../providers/alarms';
import { AlarmChip, PRIORITY_CHIP_COLOR } from '../alarms/AlarmMark';
import { MARK_LOOK } from '../ReadingMark';
import { DeviceCommands } from '../DeviceCommands';

/** How many alarms of the header's chamber stand, and the most urgent of them; "no alarms" when none do. */
const HeaderAlarms = ({ Id }: { Id: string }) => {
  const translate = useTranslate();
  const alarms = useStandingAlarmsByDevice().get(Id);
  const [first] = alarms ?? [];
  if (alarms === undefined || first === undefined) return <Chip variant="outlined" label={translate('app.alarmMarks.none')} data-alarm-count={0} />;
  const { Icon } = MARK_LOOK[first.priority];
  return (
    <>
      <Chip
        color={PRIORITY_CHIP_COLOR[first.priority]}
        icon={<Icon />}
        label={translate('app.alarmMarks.count', { smart_count: alarms.length })}
        data-alarm-count={alarms.length}
      />
      <AlarmChip alarm={first} />
    </>
  );
};

/**
 * Who the chamber is and whether anyone is in danger: its Id and name, site, type, its standing alarms
 * (count and most urgent), state, permission, presence (offline during a session and emergency depressurisation in red, with an icon), the running
 * session; and what the operator can do, one click away.
 */
export const DetailHeader = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const inSession = Boolean(record.SessionOC);
  const seen = record.LastSeen ? translate('app.monitor.lastSeen', { time: new Date(Number(record.LastSeen)).toLocaleString(locale) }) : translate('app.monitor.never');
  const danger = <ErrorOutlineIcon />;
  const labelled = (field: string, value: string) => translate('app.detail.labelled', { label: translate(`resources.devices.fields.${field}`), value });
  return (
    <Paper variant="outlined" component="header" sx={{ p: 2 }} data-device-header>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ whiteSpace: 'nowrap' }}>
          {String(record.Id)}
        </Typography>
        <Typography variant="h6" component="p">
          {String(record.name ?? '')}
        </Typography>
        <Typography color="text.secondary">{labelled('Location', String(record.Location ?? ''))}</Typography>
        <Typography color="text.secondary">{labelled('Type', String(record.Type ?? ''))}</Typography>
      </Stack>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', my: 1.5 }} data-testid="device-status">
        <HeaderAlarms Id={String(record.Id)} />
        {record.Emergency === true && <Chip color="error" icon={danger} label={translate('app.detail.erd')} />}
        {record.Online === true ? (
          <Chip color="success" variant="outlined" label={translate('app.monitor.online')} title={seen} />
        ) : inSession ? (
          <Chip color="error" icon={danger} label={translate('app.monitor.offlineInSession')} title={seen} />
        ) : (
          <Chip variant="outlined" label={translate('app.monitor.offline')} title={seen} />
        )}
        <Chip color={record.State === 'Repair' ? 'warning' : 'default'} label={labelled('State', translate(`resources.devices.choices.State.${String(record.State)}`))} />
        <Chip
          color={record.Permission === 'Open' ? 'primary' : 'default'}
          variant="outlined"
          label={labelled('Permission', translate(`resources.devices.choices.Permission.${String(record.Permission)}`))}
        />
        <Chip
          color={inSession ? 'info' : 'default'}
          variant={inSession ? 'filled' : 'outlined'}
          label={inSession ? translate('app.detail.inSession', { session: String(record.SessionOC), order: String(record.OrderNum ?? '—') }) : translate('app.detail.noSession')}
        />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <DeviceCommands />
        {/* Removal names the device and says what is kept (resources.devices.message); it asks canAccess itself. */}
        <DeleteButton mutationMode="pessimistic" redirect="list" />
      </Box>
    </Paper>
  );
};
