import { alpha, darken, lighten } from '@mui/material/styles';
import { Checkbox, Table, type Theme, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography } from '@mui/material';
import { memo, useCallback, useMemo } from 'react';
import { useCreatePath, useListContext, useTranslate, type Identifier, type SortPayload } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { MONITOR_COLUMNS, monitorColumnLabel, type MonitorColumn } from './columns';
import { MONITOR_CAPTION, MONITOR_CELL, MONITOR_NUMBER_CELL, MONITOR_ROW, MONITOR_ROW_SELECTED, MonitorRow, type MonitoredDevice } from './MonitorRow';
import { useDeviceTypes } from '../../resources/device-types/useDeviceTypes';
import type { AlarmRecord } from '../../domain/alarms/record';
import { useStandingAlarmsByDevice } from '../../providers/alarms';
import { usePhone } from '../../resources/generate/usePhone';
import { MonitorCards } from './MonitorCards';

const NO_ALARMS: readonly AlarmRecord[] = [];

const nowrap = { whiteSpace: 'nowrap' } as const;

const alarmBand = (theme: Theme, priority: string, color: string) => ({
  [`& tr.${MONITOR_ROW}[data-alarm="${priority}"]`]: { backgroundColor: alpha(color, 0.1) },
  [`& tr.${MONITOR_ROW}[data-alarm="${priority}"]:hover`]: { backgroundColor: alpha(color, 0.1 + theme.palette.action.hoverOpacity) },
  [`& tr.${MONITOR_ROW}[data-alarm="${priority}"] > td:first-of-type`]: { boxShadow: `inset 4px 0 0 ${color}` },
});

/** The rows look like MUI's hoverable, selectable rows of small body cells, styled once here (MonitorRow says why). */
const rowStyles = (theme: Theme) => ({
  [`& tr.${MONITOR_ROW}`]: { cursor: 'pointer', verticalAlign: 'middle' },
  [`& tr.${MONITOR_ROW}:hover`]: { backgroundColor: theme.palette.action.hover },
  [`& tr.${MONITOR_ROW_SELECTED}`]: { backgroundColor: alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity) },
  [`& tr.${MONITOR_ROW_SELECTED}:hover`]: {
    backgroundColor: alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity + theme.palette.action.hoverOpacity),
  },
  [`& .${MONITOR_CAPTION}`]: {
    fontSize: theme.typography.caption.fontSize,
    lineHeight: theme.typography.caption.lineHeight,
    color: theme.palette.text.secondary,
  },
  [`& td.${MONITOR_CELL}`]: {
    fontFamily: theme.typography.body2.fontFamily,
    fontSize: theme.typography.body2.fontSize,
    fontWeight: theme.typography.body2.fontWeight,
    lineHeight: theme.typography.body2.lineHeight,
    letterSpacing: theme.typography.body2.letterSpacing,
    padding: '6px 16px',
    // MUI's own TableCell border colour.
    borderBottom: `1px solid ${theme.palette.mode === 'light' ? lighten(alpha(theme.palette.divider, 1), 0.88) : darken(alpha(theme.palette.divider, 1), 0.68)}`,
    color: theme.palette.text.primary,
    whiteSpace: 'nowrap',
    textAlign: 'left' as const,
  },
  [`& td.${MONITOR_NUMBER_CELL}`]: { textAlign: 'right' as const, fontVariantNumeric: 'tabular-nums' },
  // A row in alarm: a band at its left edge and a tint in its most urgent alarm's colour (red high, amber medium).
  ...alarmBand(theme, 'high', theme.palette.error.main),
  ...alarmBand(theme, 'medium', theme.palette.warning.main),
});

interface MonitorHeadProps {
  sort: SortPayload;
  setSort: (sort: SortPayload) => void;
  allSelected: boolean;
  someSelected: boolean;
  onSelectAll: () => void;
}

/** The header: memoised, so the readings changing do not render its cells and sort labels again. */
const MonitorHead = memo(function MonitorHead({ sort, setSort, allSelected, someSelected, onSelectAll }: MonitorHeadProps) {
  const translate = useTranslate();
  const header = (column: MonitorColumn) => {
    const text = monitorColumnLabel(translate, column);
    if (!column.sortable) return text;
    const active = sort.field === column.key;
    return (
      <TableSortLabel
        active={active}
        direction={active && sort.order === 'DESC' ? 'desc' : 'asc'}
        onClick={() => setSort({ field: column.key, order: active && sort.order === 'ASC' ? 'DESC' : 'ASC' })}
      >
        {text}
      </TableSortLabel>
    );
  };
  return (
    <TableHead>
      <TableRow>
        <TableCell padding="checkbox">
          <Checkbox
            size="small"
            checked={allSelected}
            indeterminate={!allSelected && someSelected}
            onChange={onSelectAll}
            slotProps={{ input: { 'aria-label': translate('app.monitor.selectAll') } }}
          />
        </TableCell>
        {MONITOR_COLUMNS.map((column) => (
          <TableCell key={column.key} align={column.unit ? 'right' : 'left'} sx={nowrap}>
            {header(column)}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
});

/**
 * The oxygen monitor's table: a table of our own rather than a Datagrid, so that each row is a memoised
 * component whose props change only when its device does (MonitorRow), and the header only when the sort
 * or the selection does. Page, sort, filter and selection live in react-admin's list context and the
 * scroll position in this container, none of which a live patch touches.
 */
export const MonitorTable = () => {
  const translate = useTranslate();
  const { data, sort, setSort, selectedIds, onToggleItem, onSelect } = useListContext<MonitoredDevice>();
  const deviceTypes = useDeviceTypes();
  // Each device's list keeps its identity while its alarms do: an alarm event renders only its chamber's row.
  const standing = useStandingAlarmsByDevice();
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const open = useCallback((id: Identifier) => navigate(createPath({ resource: 'devices', id, type: 'show' })), [navigate, createPath]);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const rows = data ?? [];
  // A patch makes a new data array with the same ids: the header's props stay the same.
  const pageKey = rows.map((record) => String(record.id)).join('\n');
  const pageIds = useMemo(() => (pageKey === '' ? [] : pageKey.split('\n')), [pageKey]);
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const someSelected = pageIds.some((id) => selected.has(id));
  const onSelectAll = useCallback(() => onSelect(allSelected ? [] : pageIds), [onSelect, allSelected, pageIds]);
  const phone = usePhone();
  const empty = rows.length === 0 && (
    <Typography sx={{ p: 2 }} color="text.secondary">
      {translate('app.monitor.empty')}
    </Typography>
  );

  if (phone) {
    // Nineteen columns do not fit a phone: a card per chamber, nothing to scroll sideways.
    return (
      <>
        <MonitorCards rows={rows} deviceTypes={deviceTypes} standing={standing} onOpen={open} />
        {empty}
      </>
    );
  }
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" stickyHeader sx={rowStyles}>
        <MonitorHead sort={sort} setSort={setSort} allSelected={allSelected} someSelected={someSelected} onSelectAll={onSelectAll} />
        <TableBody>
          {rows.map((record) => (
            <MonitorRow
              key={record.id}
              record={record}
              deviceType={deviceTypes.get(record.Type)}
              alarms={standing.get(record.Id) ?? NO_ALARMS}
              selected={selected.has(record.id)}
              onToggle={onToggleItem}
              onOpen={open}
            />
          ))}
        </TableBody>
      </Table>
      {empty}
    </TableContainer>
  );
};
