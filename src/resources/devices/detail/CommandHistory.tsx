import { Alert, Chip, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { CommandStatus } from '../../../domain/commands';
import { SETTINGS_FIELDS } from '../../../domain/mqtt/payloads';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { useLiveEvent } from '../../../providers/live';
import { DEVICE_COMMANDS_PATH } from '../commandLog';
import type { DeviceCommandRecord } from '../requests';

/** The commands listed: the latest ones, as far back as an operator reads on one screen. */
const SHOWN_COMMANDS = 20;

const LABELS = `resources.${DEVICE_COMMANDS_PATH}`;
const STATUS_COLOR: Record<CommandStatus, 'default' | 'success' | 'error' | 'warning'> = { sent: 'default', acked: 'success', refused: 'error', timeout: 'warning' };

/**
 * A device's command history: what was sent (the change itself), by whom, when, and what the chamber
 * answered; read again whenever the live stream reports an outcome of this device's commands.
 */
export const CommandHistory = ({ Id }: { Id: string }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending, refetch } = useQuery({
    queryKey: [DEVICE_COMMANDS_PATH, 'of-device', Id],
    queryFn: () => dataProvider.deviceCommandLog(Id, SHOWN_COMMANDS),
  });
  useLiveEvent('command', (outcome) => {
    if (outcome.Id === Id) void refetch();
  });
  const change = ({ command }: DeviceCommandRecord): string => {
    switch (command.type) {
      case 'permission':
        return translate(`resources.devices.choices.Permission.${command.Permission}`);
      case 'state':
        return translate(`resources.devices.choices.State.${command.State}`);
      case 'settings':
        return SETTINGS_FIELDS.flatMap((field) => (command[field] === undefined ? [] : [`${field} ${String(command[field])}`])).join(', ');
    }
  };
  const time = (at: number | null) => (at === null ? '—' : new Date(at).toLocaleString(locale));
  if (isPending) return <LinearProgress />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (data.length === 0) return <Typography color="text.secondary">{translate('app.detail.noCommands')}</Typography>;
  return (
    <Table size="small" aria-label={translate('app.detail.tabs.commands')}>
      <TableHead>
        <TableRow>
          {(['issuedAt', 'type', 'change', 'status', 'actor', 'answeredAt'] as const).map((column) => (
            <TableCell key={column} sx={{ whiteSpace: 'nowrap' }}>
              {translate(column === 'change' ? 'app.detail.change' : `${LABELS}.fields.${column}`)}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {data.map((record) => (
          <TableRow key={record.id} data-command={record.id}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(record.issuedAt)}</TableCell>
            <TableCell>{translate(`${LABELS}.choices.type.${record.type}`)}</TableCell>
            <TableCell>{change(record)}</TableCell>
            <TableCell>
              <Chip size="small" color={STATUS_COLOR[record.status]} label={translate(`${LABELS}.choices.status.${record.status}`)} />
              {record.error && (
                <Typography component="span" variant="body2" sx={{ ml: 1 }}>
                  {record.error}
                </Typography>
              )}
            </TableCell>
            <TableCell>{record.actor ?? '—'}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(record.answeredAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
