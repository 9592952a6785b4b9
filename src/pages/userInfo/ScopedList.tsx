import type { ReactNode } from 'react';
import { Datagrid, ListBase, Pagination } from 'react-admin';
import { fieldEntries } from '../../resources/model';
import { DEFAULT_PAGE } from '../../resources/query';
import type { ResourceConfig } from '../../resources/types';
import { fieldElement } from '../../resources/generate/fields';
import { useLabels } from '../../resources/generate/labels';

interface ScopedListProps {
  config: ResourceConfig;
  /** The resource's fields to show, in this order, as the generated list shows them. */
  sources: readonly string[];
  filter?: Record<string, unknown>;
  /** Columns of this page's own after the generated ones. */
  children?: ReactNode;
}

/**
 * One tab's list: the resource's list call as the server scopes it to the signed-in account, a few of
 * its generated columns, each row opening the record's page. Its paging and sort live in the tab only,
 * neither in the address (two lists share the page) nor in the resource's own list settings.
 */
export const ScopedList = ({ config, sources, filter, children }: ScopedListProps) => {
  const labels = useLabels(config);
  const fields = fieldEntries(config).filter(([source]) => sources.includes(source));
  fields.sort(([a], [b]) => sources.indexOf(a) - sources.indexOf(b));
  return (
    <ListBase
      resource={config.name}
      filter={filter}
      sort={config.defaultSort}
      perPage={DEFAULT_PAGE.pageSize}
      disableSyncWithLocation
      storeKey={false}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        {fields.map(([source, field]) => fieldElement(config, source, field, labels, false))}
        {children}
      </Datagrid>
      <Pagination />
    </ListBase>
  );
};
