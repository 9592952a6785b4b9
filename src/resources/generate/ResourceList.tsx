import { useMemo, type ComponentType, type ReactNode } from 'react';
import EditIcon from '@mui/icons-material/Edit';
import { Box } from '@mui/material';
import {
  CanAccess,
  CreateButton,
  DatagridConfigurable,
  DeleteButton,
  ExportButton,
  FilterButton,
  List,
  SelectColumnsButton,
  TopToolbar,
  useCreatePath,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { usePhone } from './usePhone';
import { fieldEntries, idFields, serves, shows } from '../model';
import { DEFAULT_PAGE } from '../query';
import type { ResourceConfig } from '../types';
import { csvExporter } from './exporter';
import { fieldElement } from './fields';
import { filterElements } from './filters';
import { useLabels } from './labels';
import { PhoneCards } from './PhoneCards';
import { RowAction } from './RowAction';
import { StableDatagridBody } from './StableDatagridBody';

const ListActions = ({ config, extra }: { config: ResourceConfig; extra?: ReactNode }) => (
  <TopToolbar>
    {extra}
    <FilterButton />
    <SelectColumnsButton />
    {serves(config, 'create') && <CreateButton />}
    <CanAccess action="export">
      <ExportButton />
    </CanAccess>
  </TopToolbar>
);

interface RowActionsProps {
  config: ResourceConfig;
  extra?: ComponentType;
  /** The column's header, read by the datagrid. */
  label: string;
}

/**
 * Cells keep 8 px on either side rather than MUI's 16 (the first keeps its 16 against the card's edge): a
 * list of ten columns gains 160 px, what the device manager in English needs to fit a laptop's 1366 px.
 */
const compactCells = {
  '& .MuiTableCell-root': { paddingLeft: 1, paddingRight: 1 },
  '& .MuiTableCell-root:first-of-type': { paddingLeft: 2 },
} as const;

/**
 * The row actions' column stays at the right edge should a wide list still scroll sideways (a narrower
 * window), so a row's actions are always on screen beside it.
 */
const stickyActions = {
  '& .RaDatagrid-headerCell:last-of-type, & .RaDatagrid-row > td:last-of-type': { position: 'sticky', right: 0, zIndex: 1, backgroundColor: 'background.paper' },
} as const;

/**
 * react-admin's delete button drawn as an icon like the other row actions, so a row keeps to one line at
 * 1366 px; its label stays in the button's text (font size 0), so it is still the button's accessible name.
 */
const iconOnly = { fontSize: 0, minWidth: 0, padding: '3px', '& .MuiButton-startIcon': { margin: 0 } } as const;

/** The record's edit form as a row icon, for roles the policy lets edit. */
const EditAction = () => {
  const resource = useResourceContext();
  const record = useRecordContext();
  const createPath = useCreatePath();
  if (!record) return null;
  return (
    <CanAccess action="edit" record={record}>
      <RowAction label="ra.action.edit" icon={<EditIcon />} to={createPath({ resource, id: record.id, type: 'edit' })} />
    </CanAccess>
  );
};

/** The resource's own row buttons, then edit and delete, on one line; each asks canAccess itself and hides when the role may not. */
const RowActions = ({ config, extra: Extra }: RowActionsProps) => (
  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', whiteSpace: 'nowrap' }}>
    {Extra && <Extra />}
    {serves(config, 'edit') && <EditAction />}
    {serves(config, 'delete') && <DeleteButton mutationMode="pessimistic" sx={iconOnly} />}
  </Box>
);

interface ResourceListProps {
  config: ResourceConfig;
  rowActions?: ComponentType;
  /** The screen's own buttons, first in the toolbar (the order manager's "Book a chamber"). */
  toolbarActions?: ReactNode;
}

/**
 * The generated list: filters, sortable columns, paging, a column chooser offering the list and show
 * fields (show-only ones hidden at first), and CSV export of the current filter and sort.
 */
export const ResourceList = ({ config, rowActions, toolbarActions }: ResourceListProps) => {
  const translate = useTranslate();
  const labels = useLabels(config);
  // Stable across renders, so react-admin's filter form and export keep their state.
  const filters = useMemo(() => filterElements(config, labels, translate), [config, labels, translate]);
  const exporter = useMemo(() => csvExporter(config), [config]);
  const ids = idFields(config);
  const columns = fieldEntries(config).filter(([, field]) => shows(field, 'list') || shows(field, 'show'));
  const hasRowActions = Boolean(rowActions) || serves(config, 'edit') || serves(config, 'delete');
  const phone = usePhone();
  const Actions = useMemo(() => (hasRowActions ? () => <RowActions config={config} extra={rowActions} label="" /> : undefined), [hasRowActions, config, rowActions]);
  return (
    <List
      filters={filters}
      actions={<ListActions config={config} extra={toolbarActions} />}
      sort={config.defaultSort}
      filterDefaultValues={config.defaultFilter}
      perPage={DEFAULT_PAGE.pageSize}
      exporter={exporter}
    >
      {phone ? (
        // A phone has no room for columns: each record is a card of the list's fields.
        <PhoneCards config={config} columns={columns.filter(([, field]) => shows(field, 'list'))} labels={labels} actions={Actions} />
      ) : (
        <DatagridConfigurable
          body={StableDatagridBody}
          rowClick="show"
          omit={columns.filter(([, field]) => !shows(field, 'list')).map(([source]) => source)}
          // A resource with actions of its own (devices, accounts) deletes one named record at a time, from its row.
          bulkActionButtons={serves(config, 'delete') && !rowActions ? undefined : false}
          sx={hasRowActions ? { ...compactCells, ...stickyActions } : compactCells}
        >
          {columns.map(([source, field]) => fieldElement(config, source, field, labels, ids.includes(source) || shows(field, 'sort')))}
          {hasRowActions && <RowActions config={config} extra={rowActions} label={translate('crud.list.actions')} />}
        </DatagridConfigurable>
      )}
    </List>
  );
};
