import type { ReactNode } from 'react';
import { DeleteButton, EditButton, Show, SimpleShowLayout, TopToolbar } from 'react-admin';
import { entriesIn, serves } from '../model';
import type { ResourceConfig } from '../types';
import { fieldElement } from './fields';
import { useLabels } from './labels';

const ShowActions = ({ config, extra }: { config: ResourceConfig; extra?: ReactNode }) => (
  <TopToolbar>
    {extra}
    {serves(config, 'edit') && <EditButton />}
    {serves(config, 'delete') && <DeleteButton mutationMode="pessimistic" />}
  </TopToolbar>
);

interface ResourceShowProps {
  config: ResourceConfig;
  /** The resource's own buttons, first in the toolbar (an alarm's acknowledge, shelve, ...). */
  actions?: ReactNode;
  /** What the page shows below the fields (an alarm's history of transitions). */
  children?: ReactNode;
}

/** The generated show page: every show field, with edit and delete where served and allowed. */
export const ResourceShow = ({ config, actions, children }: ResourceShowProps) => {
  const labels = useLabels(config);
  return (
    <Show actions={<ShowActions config={config} extra={actions} />}>
      <SimpleShowLayout>
        {entriesIn(config, 'show').map(([source, field]) => fieldElement(config, source, field, labels, false))}
      </SimpleShowLayout>
      {children}
    </Show>
  );
};
