import { Alert, Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import DownloadIcon from '@mui/icons-material/Download';
import { useQuery } from '@tanstack/react-query';
import { Button, downloadCSV, Loading, Title, useDataProvider, useGetRecordId, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { REPORT_MAX_READINGS, SETTINGS_IN_FORCE, type ReportCommand, type ReportSettings, type SessionReport } from '../../../domain/sessionReport';
import { orderStateOf } from '../requests';
import { AlarmsRaised } from './AlarmsRaised';
import { alarmsCsv, readingsCsv } from './reportCsv';
import { ReportCharts } from './ReportCharts';
import { useTime } from './useTime';
import { PRINT_STYLES } from '../../PrintStyles';
import { PrintSection } from '../../PrintSection';

const Fact = ({ label, value }: { label: string; value: string }) => (
  <Box>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {value}
    </Typography>
  </Box>
);


/** What the report says about the order: who booked which chamber when, and where the booking is in its life. */
const ReportHeader = ({ report }: { report: SessionReport }) => {
  const translate = useTranslate();
  const time = useTime();
  const { order, device, session } = report;
  const state = orderStateOf(order);
  const field = (name: string) => translate(`resources.orders.fields.${name}`);
  return (
    <PrintSection title={translate('crud.orders.reportTitle', { order: order.OrderNum })}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 3, alignItems: 'center' }}>
        <Chip label={translate(`crud.orders.states.${state}`)} color={state === 'running' ? 'primary' : 'default'} data-testid="order-state" />
        <Fact label={translate('crud.orders.device')} value={`${device.Id} ${device.name} · ${device.Location}`} />
        <Fact label={translate('crud.orders.guest')} value={order.OpenId ?? '—'} />
        <Fact label={field('OC')} value={order.OC ?? '—'} />
        <Fact label={field('Time')} value={time(order.Time)} />
        <Fact label={field('SetT')} value={time(order.SetT)} />
        <Fact
          label={translate('crud.orders.session')}
          value={
            session === null
              ? '—'
              : translate('crud.orders.sessionSpan', { from: time(session.from), to: session.running ? translate('crud.orders.stillRunning') : time(session.to) })
          }
        />
        {order.CancelTime !== null && <Fact label={field('CancelTime')} value={time(order.CancelTime)} />}
      </Stack>
    </PrintSection>
  );
};

const settingValue = (translate: ReturnType<typeof useTranslate>, settings: ReportSettings, name: (typeof SETTINGS_IN_FORCE)[number]): string => {
  const value = settings[name];
  if (value === null) return '—';
  if (name === 'SS' || name === 'SL' || name === 'SA') return translate(`resources.state-records.choices.${name}.${String(value)}`, { _: String(value) });
  return name === 'SP' ? `${value} ${translate('crud.units.ata')}` : `${value} ${translate('crud.units.minute')}`;
};

const SettingsInForce = ({ settings }: { settings: NonNullable<SessionReport['settings']> }) => {
  const translate = useTranslate();
  const rows = [
    ['crud.orders.atStart', settings.atStart],
    ['crud.orders.atEnd', settings.atEnd],
  ] as const;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell />
          {SETTINGS_IN_FORCE.map((name) => (
            <TableCell key={name}>{translate(`resources.state-records.fields.${name}`)}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(([label, values]) => (
          <TableRow key={label}>
            <TableCell component="th">{translate(label)}</TableCell>
            {SETTINGS_IN_FORCE.map((name) => (
              <TableCell key={name} sx={{ whiteSpace: 'nowrap' }}>
                {settingValue(translate, values, name)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

/** A command's values as sent, without its envelope (type, id, time), e.g. `SP=1.6 SA=1`. */
const commandValues = (command: unknown): string =>
  typeof command === 'object' && command !== null
    ? Object.entries(command)
        .filter(([key]) => !['type', 'cmdId', 'Time'].includes(key))
        .map(([key, value]) => `${key}=${String(value)}`)
        .join(' ')
    : '';

const CommandsSent = ({ commands }: { commands: readonly ReportCommand[] }) => {
  const translate = useTranslate();
  const time = useTime();
  const label = (name: string) => translate(`resources.device-commands.fields.${name}`);
  const choice = (name: string, value: string) => translate(`resources.device-commands.choices.${name}.${value}`, { _: value });
  if (commands.length === 0) return <Typography variant="body2">{translate('crud.orders.noCommands')}</Typography>;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>{label('issuedAt')}</TableCell>
          <TableCell>{label('type')}</TableCell>
          <TableCell>{translate('crud.orders.commandValues')}</TableCell>
          <TableCell>{label('status')}</TableCell>
          <TableCell>{label('actor')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {commands.map((command) => (
          <TableRow key={command.cmdId}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(command.issuedAt)}</TableCell>
            <TableCell>{choice('type', command.type)}</TableCell>
            <TableCell>{commandValues(command.command)}</TableCell>
            <TableCell>{choice('status', command.status) + (command.error ? ` (${command.error})` : '')}</TableCell>
            <TableCell>{command.actor ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

/**
 * An order's detail (`/orders/:id/show`): its session report (docs/orders.md, "The session report"): the
 * booking, the alarms raised, charts of the session's readings, the settings in force, the commands sent;
 * printable (the print stylesheet leaves the console's bars out), its readings and alarms exportable as CSV.
 */
export const OrderReport = () => {
  const id = useGetRecordId();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data: report, error } = useQuery({ queryKey: ['orders', 'report', String(id)], queryFn: () => dataProvider.sessionReport(id) });
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!report) return <Loading />;
  return (
    <Stack spacing={2} sx={{ my: 2 }} data-testid="session-report">
      {PRINT_STYLES}
      <Title title={translate('crud.orders.reportTitle', { order: report.order.OrderNum })} />
      <Stack direction="row" spacing={1} data-print="hide">
        <Button label="crud.orders.print" onClick={() => window.print()}>
          <PrintIcon />
        </Button>
        <Button label="crud.orders.csv" disabled={report.readings.length === 0} onClick={() => downloadCSV(readingsCsv(report.readings), `${report.order.OrderNum}-readings`)}>
          <DownloadIcon />
        </Button>
        <Button label="crud.orders.alarmsCsv" disabled={report.alarms.length === 0} onClick={() => downloadCSV(alarmsCsv(report.alarms), `${report.order.OrderNum}-alarms`)}>
          <DownloadIcon />
        </Button>
      </Stack>
      <ReportHeader report={report} />
      {report.session === null ? (
        <Alert severity="info">{translate('crud.orders.noSession')}</Alert>
      ) : (
        <>
          <PrintSection title={translate('crud.orders.alarms', { count: report.alarms.length })}>
            <AlarmsRaised alarms={report.alarms} />
          </PrintSection>
          <PrintSection title={`${translate('crud.orders.session')} · ${translate('crud.orders.readingsCount', { count: report.readings.length })}`}>
            {report.truncated && <Alert severity="warning">{translate('crud.orders.truncated', { count: REPORT_MAX_READINGS })}</Alert>}
            {report.readings.length === 0 ? <Typography variant="body2">{translate('crud.orders.noReadings')}</Typography> : <ReportCharts readings={report.readings} />}
          </PrintSection>
          {report.settings !== null && (
            <PrintSection title={translate('crud.orders.settings')}>
              <SettingsInForce settings={report.settings} />
            </PrintSection>
          )}
          <PrintSection title={translate('crud.orders.commands')}>
            <CommandsSent commands={report.commands} />
          </PrintSection>
        </>
      )}
    </Stack>
  );
};
