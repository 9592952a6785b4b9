import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Checkbox, TableCell, useTheme } from '@mui/material';
import { memo, type ReactNode } from 'react';
import { useLocaleState, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { DEFAULT_RATED_MAX_ATA, type DeviceType } from '../../domain/deviceTypes';
import type { Telemetry } from '../../domain/mqtt/payloads';
import { MONITOR_COLUMNS, type MonitorColumn } from './columns';
import { formatDateTime, formatTime } from './formats';
import { ReadingValue } from './ReadingValue';

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

/**
 * A row is plain `tr` and `td` elements with classes the table styles once (MonitorTable), and its marks
 * take the theme's colours inline, rather than MUI components whose styles are computed again on every
 * render: a live fleet renders every visible row each second, and that styling was most of the work.
 */
export const MONITOR_ROW = 'monitor-row';
export const MONITOR_ROW_SELECTED = 'monitor-row-selected';
export const MONITOR_CELL = 'monitor-cell';
export const MONITOR_NUMBER_CELL = 'monitor-cell-number';
export const MONITOR_CAPTION = 'monitor-caption';

const ICON_STYLE = { fontSize: '1rem' } as const;

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
  selected: boolean;
  onToggle: (id: Identifier) => void;
  onOpen: (id: Identifier) => void;
}

/**
 * One chamber. Memoised: a live patch replaces only the patched device's record in the query cache
 * (src/providers/live/cache.ts), so only that row renders again; the others keep their props.
 */
export const MonitorRow = memo(function MonitorRow({ record, deviceType, selected, onToggle, onOpen }: MonitorRowProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { palette } = useTheme();
  const alert = { color: palette.error.main, fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 2 } as const;
  const reading = record.Reading ?? undefined;
  const inSession = Boolean(record.SessionOC);

  const online = (): ReactNode => {
    const seen = record.LastSeen ? new Date(record.LastSeen) : undefined;
    const title = seen ? translate('app.monitor.lastSeen', { time: formatDateTime(locale, seen) }) : translate('app.monitor.never');
    if (!record.Online && inSession) {
      return (
        <span title={title} data-mark="high" style={alert}>
          <ErrorOutlineIcon style={ICON_STYLE} />
          {translate('app.monitor.offlineInSession')}
        </span>
      );
    }
    return (
      <span title={title} style={{ color: record.Online ? palette.success.main : palette.text.secondary }}>
        {translate(record.Online ? 'app.monitor.online' : 'app.monitor.offline')}
        {seen && <span className={MONITOR_CAPTION}>{` · ${formatTime(locale, seen)}`}</span>}
      </span>
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
          <span data-mark="high" style={alert}>
            <ErrorOutlineIcon style={ICON_STYLE} />
            {translate('app.monitor.erdActive')}
          </span>
        ) : (
          <span style={{ color: palette.text.secondary }}>{translate('app.monitor.erdIdle')}</span>
        );
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
    <tr
      className={selected ? `${MONITOR_ROW} ${MONITOR_ROW_SELECTED}` : MONITOR_ROW}
      aria-selected={selected}
      onClick={() => onOpen(record.id)}
      data-device={record.Id}
      data-reading-time={reading?.Time}
    >
      <SelectCell id={record.id} device={record.Id} selected={selected} onToggle={onToggle} />
      {MONITOR_COLUMNS.map((column) => (
        <td key={column.key} className={column.unit ? `${MONITOR_CELL} ${MONITOR_NUMBER_CELL}` : MONITOR_CELL} data-column={column.key}>
          {cell(column)}
        </td>
      ))}
    </tr>
  );
});
