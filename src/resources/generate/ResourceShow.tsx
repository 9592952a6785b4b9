import { DeleteButton, EditButton, Show, SimpleShowLayout, TopToolbar } from 'react-admin';
import { entriesIn, serves } from '../model';
import type { ResourceConfig } from '../types';
import { fieldElement } from './fields';
import { useLabels } from './labels';

const ShowActions = ({ config }: { config: ResourceConfig }) => (
  <TopToolbar>
    {serves(config, 'edit') && <EditButton />}
    {serves(config, 'delete') && <DeleteButton mutationMode="pessimistic" />}
  </TopToolbar>
);

/** The generated show page: every show field, with edit and delete where served and allowed. */
export const ResourceShow = ({ config }: { config: ResourceConfig }) => {
  const labels = useLabels(config);
  return (
    <Show actions={<ShowActions config={config} />}>
      <SimpleShowLayout>
        {entriesIn(config, 'show').map(([source, field]) => fieldElement(config, source, field, labels, false))}
      </SimpleShowLayout>
    </Show>
  );
};
