import { useMemo, useState } from 'react';
import { Create, DeleteButton, Edit, SaveButton, SimpleForm, Toolbar, useRedirect, type RaRecord } from 'react-admin';
import { entriesIn, serves } from '../model';
import { writeSchema } from '../schema';
import type { FormView, ResourceConfig, ResourceUi } from '../types';
import { formValidator } from '../validation';
import { inputElement } from './inputs';
import { useLabels } from './labels';

/** Save, and delete only where the resource's server can delete (the button itself asks canAccess). */
export const FormToolbar = ({ config, view }: { config: ResourceConfig; view: FormView }) => (
  <Toolbar sx={{ justifyContent: 'space-between' }}>
    <SaveButton />
    {view === 'edit' && serves(config, 'delete') && <DeleteButton mutationMode="pessimistic" />}
  </Toolbar>
);

/**
 * The form of one view, validated with the resource's schema; messages come from our catalogues. The
 * browser's own checks (min, max, step) are off, or they would block the submit with their messages.
 */
const ResourceForm = ({ config, view }: { config: ResourceConfig; view: FormView }) => {
  const labels = useLabels(config);
  const validate = useMemo(() => formValidator(writeSchema(config, view)), [config, view]);
  const fields = entriesIn(config, view);
  const defaults = Object.fromEntries(
    fields.flatMap(([source, field]) => ('defaultValue' in field && field.defaultValue !== undefined ? [[source, field.defaultValue]] : [])),
  );
  return (
    <SimpleForm noValidate validate={validate} defaultValues={defaults} toolbar={<FormToolbar config={config} view={view} />}>
      {fields.map(([source, field]) => inputElement(config, source, field, labels))}
    </SimpleForm>
  );
};

/** Pessimistic: the server validates too, and its refusal must be seen before anything looks saved. */
export const ResourceEdit = ({ config }: { config: ResourceConfig }) => (
  <Edit mutationMode="pessimistic" redirect="show">
    <ResourceForm config={config} view="edit" />
  </Edit>
);

interface ResourceCreateProps {
  config: ResourceConfig;
  /** Shown once the record is saved (ResourceUi.created); without it the record's page opens at once. */
  created?: ResourceUi['created'];
}

export const ResourceCreate = ({ config, created: Created }: ResourceCreateProps) => {
  const [saved, setSaved] = useState<RaRecord>();
  const redirect = useRedirect();
  if (Created === undefined) {
    return (
      <Create redirect="show">
        <ResourceForm config={config} view="create" />
      </Create>
    );
  }
  return (
    <>
      <Create redirect={false} mutationOptions={{ onSuccess: (record: RaRecord) => setSaved(record) }}>
        <ResourceForm config={config} view="create" />
      </Create>
      {saved !== undefined && <Created record={saved} done={() => redirect('show', config.name, saved.id)} />}
    </>
  );
};
