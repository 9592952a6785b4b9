import { Checkbox, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography } from '@mui/material';
import { useCallback, useMemo } from 'react';
import { useCreatePath, useListContext, useTranslate, type Identifier } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useDeviceTypes } from '../../resources/device-types/useDeviceTypes';
import { MONITOR_COLUMNS, type MonitorColumn } from './columns';
import { MonitorRow, type MonitoredDevice } from './MonitorRow';

const nowrap = { whiteSpace: 'nowrap' } as const;

/**
 * The oxygen monitor's table: a table of our own rather than a Datagrid, so that each row is a memoised
 * component whose props change only when its device does (MonitorRow). Page, sort, filter and selection
 * live in react-admin's list context and the scroll position in this container, none of which a live
 * patch touches.
 */
export const MonitorTable = () => {
  const translate = useTranslate();
  const { data, sort, setSort, selectedIds, onToggleItem, onSelect } = useListContext<MonitoredDevice>();
  const deviceTypes = useDeviceTypes();
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const open = useCallback((id: Identifier) => navigate(createPath({ resource: 'devices', id, type: 'show' })), [navigate, createPath]);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const rows = data ?? [];
  const pageIds = rows.map((record) => record.id);
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));

  const header = (column: MonitorColumn) => {
    const label = translate(`app.monitor.columns.${column.key}`);
    const text = column.unit ? translate('app.monitor.withUnit', { label, unit: translate(`crud.units.${column.unit}`) }) : label;
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
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" stickyHeader>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                size="small"
                checked={allSelected}
                indeterminate={!allSelected && pageIds.some((id) => selected.has(id))}
                onChange={() => onSelect(allSelected ? [] : pageIds)}
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
        <TableBody>
          {rows.map((record) => (
            <MonitorRow key={record.id} record={record} deviceType={deviceTypes.get(record.Type)} selected={selected.has(record.id)} onToggle={onToggleItem} onOpen={open} />
          ))}
        </TableBody>
      </Table>
      {rows.length === 0 && (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {translate('app.monitor.empty')}
        </Typography>
      )}
    </TableContainer>
  );
};
