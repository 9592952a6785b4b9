import { Checkbox, TableCell } from '@mui/material';
import { memo } from 'react';
import { useTranslate, type Identifier } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { DeviceType } from '../../domain/deviceTypes';
import { MONITOR_COLUMNS } from './columns';
import type { MonitoredDevice } from './monitoredDevice';
import { useMonitorCells } from './useMonitorCells';

export { MONITOR_CAPTION, type MonitoredDevice } from './monitoredDevice';

/**
 * A row is plain `tr` and `td` elements with classes the table styles once (MonitorTable), and its marks
 * take the theme's colours inline, rather than MUI components whose styles are computed again on every
 * render: a live fleet renders every visible row each second, and that styling was most of the work.
 */
export const MONITOR_ROW = 'monitor-row';
export const MONITOR_ROW_SELECTED = 'monitor-row-selected';
export const MONITOR_CELL = 'monitor-cell';
export const MONITOR_NUMBER_CELL = 'monitor-cell-number';

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
  const cell = useMonitorCells(record, deviceType, alarms);

  return (
    <tr
      className={selected ? `${MONITOR_ROW} ${MONITOR_ROW_SELECTED}` : MONITOR_ROW}
      aria-selected={selected}
      onClick={() => onOpen(record.id)}
      data-device={record.Id}
      data-reading-time={record.Reading?.Time}
      data-alarm={alarms[0]?.priority}
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
