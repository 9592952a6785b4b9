import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Box, Checkbox, TableCell, TableRow, Typography } from '@mui/material';
import { alpha, styled } from '@mui/material/styles';
import { memo, type ReactNode } from 'react';
import { useLocaleState, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import { DEFAULT_RATED_MAX_ATA, type DeviceType } from '../../domain/deviceTypes';
import type { Telemetry } from '../../domain/mqtt/payloads';
import { MONITOR_COLUMNS, type MonitorColumn } from './columns';
import { formatDateTime, formatTime } from './formats';
import { ReadingValue } from './ReadingValue';
import { AlarmMarks } from '../../resources/devices/alarms/AlarmMark';

/** A device as the device list answers it (src/resources/devices/config.ts), live patches merged in. */
export interface MonitoredDevice extends RaRecord {
  Id: string;
  name: string;
  Type: number;
  Location: string;
  State: string;
  OrderNum?: string | null;
  Emergency?: boolean;
  Online?: boolean;
  LastSeen?: number | null;
  SessionOC?: string | null;
  Reading?: Telemetry | null;
}

const nowrap = { whiteSpace: 'nowrap' } as const;

/** A row in alarm: a band at its left edge and a tint in the most urgent alarm's colour (red high, amber medium). */
const band = (color: string) => ({ backgroundColor: alpha(color, 0.1), '& > td:first-of-type': { boxShadow: `inset 4px 0 0 ${color}` } });
const Row = styled(TableRow)(({ theme }) => ({
  cursor: 'pointer',
  '&[data-alarm="high"]': band(theme.palette.error.main),
  '&[data-alarm="medium"]': band(theme.palette.warning.main),
}));

interface SelectCellProps {
  id: Identifier;
  device: string;
  selected: boolean;
  onToggle: (id: Identifier) => void;
}

/** The row's checkbox, memoised apart from the readings: a new reading does not render it again. */
const SelectCell = memo(function SelectCell({ id, device, selected, onToggle }: SelectCellProps) {
  const translate = useTranslate();
  return (
    <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
      <Checkbox size="small" checked={selected} onChange={() => onToggle(id)} slotProps={{ input: { 'aria-label': translate('app.monitor.selectRow', { device }) } }} />
    </TableCell>
  );
});

interface MonitorRowProps {
  record: MonitoredDevice;
  /** The device's type, for its name and the rated maximum its pressure is marked against; undefined until the types are read. */
  deviceType: DeviceType | undefined;
  /** Its standing alarms, most urgent first: the same array while they stay the same, so the row is not rendered again. */
  alarms: readonly AlarmRecord[];
  selected: boolean;
  onToggle: (id: Identifier) => void;
  onOpen: (id: Identifier) => void;
}

/**
 * One chamber. Memoised: a live patch replaces only the patched device's record in the query cache
 * (src/providers/live/cache.ts), so only that row renders again; the others keep their props.
 */
export const MonitorRow = memo(function MonitorRow({ record, deviceType, alarms, selected, onToggle, onOpen }: MonitorRowProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const reading = record.Reading ?? undefined;
  const inSession = Boolean(record.SessionOC);

  const online = (): ReactNode => {
    const seen = record.LastSeen ? new Date(record.LastSeen) : undefined;
    const title = seen ? translate('app.monitor.lastSeen', { time: formatDateTime(locale, seen) }) : translate('app.monitor.never');
    if (!record.Online && inSession) {
      return (
        <Box component="span" title={title} data-mark="high" sx={{ color: 'error.main', fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 0.25 }}>
          <ErrorOutlineIcon sx={{ fontSize: '1rem' }} />
          {translate('app.monitor.offlineInSession')}
        </Box>
      );
    }
    return (
      <Box component="span" title={title} sx={{ color: record.Online ? 'success.main' : 'text.secondary' }}>
        {translate(record.Online ? 'app.monitor.online' : 'app.monitor.offline')}
        {seen && <Typography component="span" variant="caption" color="text.secondary">{` · ${formatTime(locale, seen)}`}</Typography>}
      </Box>
    );
  };

  const cell = (column: MonitorColumn): ReactNode => {
    switch (column.key) {
      case 'Id':
        return record.Id;
      case 'name':
        return record.name;
      case 'Type':
        return deviceType?.name ?? record.Type;
      case 'Location':
        return record.Location;
      case 'State':
        return translate(`resources.devices.choices.State.${record.State}`);
      case 'Online':
        return online();
      case 'OrderNum':
        return record.OrderNum ?? '';
      case 'Emergency':
        return record.Emergency ? (
          <Box component="span" data-mark="high" sx={{ color: 'error.main', fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 0.25 }}>
            <ErrorOutlineIcon sx={{ fontSize: '1rem' }} />
            {translate('app.monitor.erdActive')}
          </Box>
        ) : (
          <Typography component="span" variant="inherit" color="text.secondary">{translate('app.monitor.erdIdle')}</Typography>
        );
      case 'alarms':
        return <AlarmMarks alarms={alarms} />;
      default:
        return (
          <ReadingValue
            reading={reading}
            field={column.key}
            digits={column.digits ?? 0}
            unit={column.unit}
            inSession={inSession}
            ratedMaxAta={deviceType?.ratedMaxAta ?? DEFAULT_RATED_MAX_ATA}
          />
        );
    }
  };

  return (
    <Row hover selected={selected} onClick={() => onOpen(record.id)} data-device={record.Id} data-reading-time={reading?.Time} data-alarm={alarms[0]?.priority}>
      <SelectCell id={record.id} device={record.Id} selected={selected} onToggle={onToggle} />
      {MONITOR_COLUMNS.map((column) => (
        <TableCell key={column.key} align={column.unit ? 'right' : 'left'} sx={nowrap} data-column={column.key}>
          {cell(column)}
        </TableCell>
      ))}
    </Row>
  );
});
