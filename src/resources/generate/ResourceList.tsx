import { useMemo, type ComponentType } from 'react';
import {
  CanAccess,
  CreateButton,
  DatagridConfigurable,
  DeleteButton,
  EditButton,
  ExportButton,
  FilterButton,
  List,
  SelectColumnsButton,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { fieldEntries, idFields, serves, shows } from '../model';
import { DEFAULT_PAGE } from '../query';
import type { ResourceConfig } from '../types';
import { csvExporter } from './exporter';
import { fieldElement } from './fields';
import { filterElements } from './filters';
import { useLabels } from './labels';
import { StableDatagridBody } from './StableDatagridBody';

const ListActions = ({ config }: { config: ResourceConfig }) => (
  <TopToolbar>
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

/** The resource's own row buttons, then edit and delete; each asks canAccess itself and hides when the role may not. */
const RowActions = ({ config, extra: Extra }: RowActionsProps) => (
  <>
    {Extra && <Extra />}
    {serves(config, 'edit') && <EditButton />}
    {serves(config, 'delete') && <DeleteButton mutationMode="pessimistic" />}
  </>
);

/**
 * The generated list: filters, sortable columns, paging, a column chooser offering the list and show
 * fields (show-only ones hidden at first), and CSV export of the current filter and sort.
 */
export const ResourceList = ({ config, rowActions }: { config: ResourceConfig; rowActions?: ComponentType }) => {
  const translate = useTranslate();
  const labels = useLabels(config);
  // Stable across renders, so react-admin's filter form and export keep their state.
  const filters = useMemo(() => filterElements(config, labels, translate), [config, labels, translate]);
  const exporter = useMemo(() => csvExporter(config), [config]);
  const ids = idFields(config);
  const columns = fieldEntries(config).filter(([, field]) => shows(field, 'list') || shows(field, 'show'));
  const hasRowActions = Boolean(rowActions) || serves(config, 'edit') || serves(config, 'delete');
  return (
    <List
      filters={filters}
      actions={<ListActions config={config} />}
      sort={config.defaultSort}
      perPage={DEFAULT_PAGE.pageSize}
      exporter={exporter}
    >
      <DatagridConfigurable
        body={StableDatagridBody}
        rowClick="show"
        omit={columns.filter(([, field]) => !shows(field, 'list')).map(([source]) => source)}
        bulkActionButtons={serves(config, 'delete') ? undefined : false}
      >
        {columns.map(([source, field]) => fieldElement(config, source, field, labels, ids.includes(source) || shows(field, 'sort')))}
        {hasRowActions && <RowActions config={config} extra={rowActions} label={translate('crud.list.actions')} />}
      </DatagridConfigurable>
    </List>
  );
};
