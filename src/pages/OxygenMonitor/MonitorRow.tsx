import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Box, Checkbox, TableCell, TableRow, Typography } from '@mui/material';
import { memo, type ReactNode } from 'react';
import { useLocaleState, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { Telemetry } from '../../domain/mqtt/payloads';
import { rangeMark, READING_RANGES, VITAL_READINGS, type MarkedReading } from '../../domain/readingRanges';
import { MONITOR_COLUMNS, type MonitorColumn, type ReadingColumn } from './columns';
import { formatDateTime, formatNumber, formatTime } from './formats';
import { ReadingMark } from './ReadingMark';

/** A device as the device list answers it (src/resources/devices/config.ts), live patches merged in. */
export interface MonitoredDevice extends RaRecord {
  Id: string;
  name: string;
  Location: string;
  State: string;
  OrderNum?: string | null;
  Emergency?: boolean;
  Online?: boolean;
  LastSeen?: number | null;
  SessionOC?: string | null;
  Reading?: Telemetry | null;
}

const isMarked = (key: ReadingColumn): key is MarkedReading => Object.hasOwn(READING_RANGES, key);

const nowrap = { whiteSpace: 'nowrap' } as const;

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
  selected: boolean;
  onToggle: (id: Identifier) => void;
  onOpen: (id: Identifier) => void;
}

/**
 * One chamber. Memoised: a live patch replaces only the patched device's record in the query cache
 * (src/providers/live/cache.ts), so only that row renders again; the others keep their props.
 */
export const MonitorRow = memo(function MonitorRow({ record, selected, onToggle, onOpen }: MonitorRowProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const reading = record.Reading ?? undefined;
  const inSession = Boolean(record.SessionOC);
  const unit = (column: MonitorColumn) => (column.unit ? translate(`crud.units.${column.unit}`) : '');
  const number = (value: number | undefined, digits: number) => (value === undefined ? '' : formatNumber(locale, value, digits));

  const readingCell = (column: MonitorColumn & { key: ReadingColumn }): ReactNode => {
    if (isMarked(column.key) && VITAL_READINGS.includes(column.key) && !inSession) {
      return <Typography component="span" variant="inherit" color="text.disabled" title={translate('app.monitor.noSession')}>—</Typography>;
    }
    if (reading === undefined) return '';
    const digits = column.digits ?? 0;
    const raw = reading[column.key];
    const text = column.key === 'RCP' ? `${number(reading.RCP, digits)} / ${number(reading.SP, digits)}` : typeof raw === 'number' ? number(raw, digits) : (raw ?? '');
    const mark = isMarked(column.key) ? rangeMark(reading, column.key) : undefined;
    return mark ? <ReadingMark mark={mark} unit={unit(column)} digits={column.key === 'RCP' ? 2 : digits}>{text}</ReadingMark> : text;
  };

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
      default:
        return readingCell({ ...column, key: column.key });
    }
  };

  return (
    <TableRow hover selected={selected} onClick={() => onOpen(record.id)} sx={{ cursor: 'pointer' }} data-device={record.Id} data-reading-time={reading?.Time}>
      <SelectCell id={record.id} device={record.Id} selected={selected} onToggle={onToggle} />
      {MONITOR_COLUMNS.map((column) => (
        <TableCell key={column.key} align={column.unit ? 'right' : 'left'} sx={nowrap} data-column={column.key}>
          {cell(column)}
        </TableCell>
      ))}
    </TableRow>
  );
});
