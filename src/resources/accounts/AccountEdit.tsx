import { Edit, Loading, SimpleForm, usePermissions, useRecordContext } from 'react-admin';
import { LEVELS, roleToLevel, type Level, type Role } from '../../domain/roles';
import { FormToolbar } from '../generate/ResourceForm';
import { useLabels } from '../generate/labels';
import { inputElement } from '../generate/inputs';
import { entriesIn } from '../model';
import { writeSchema } from '../schema';
import { formValidator } from '../validation';
import { accountsConfig } from './config';
import { creatableLevels } from './levels';

const validate = formValidator(writeSchema(accountsConfig, 'edit'));

/**
 * The generated edit form's fields (Level, SubAdmin, Disabled), with Level offering only the levels the editor
 * may give, strictly below its own, and the one the account has. The server checks the rest of the hierarchy
 * (src/domain/accountRules.ts) and names the field it refuses, which then shows under that field.
 */
const AccountEditForm = ({ own }: { own: Level }) => {
  const labels = useLabels(accountsConfig);
  const record = useRecordContext();
  const current: unknown = record?.Level;
  const choices = LEVELS.filter((level) => level === current || creatableLevels(own).includes(level));
  return (
    <SimpleForm noValidate validate={validate} toolbar={<FormToolbar config={accountsConfig} view="edit" />}>
      {entriesIn(accountsConfig, 'edit').map(([source, field]) =>
        inputElement(accountsConfig, source, source === 'Level' && field.kind === 'enum' ? { ...field, choices } : field, labels),
      )}
    </SimpleForm>
  );
};

/** `update_Admin` from the console: pessimistic, so a refusal is seen before anything looks saved. */
export const AccountEdit = () => {
  const { permissions: role, isPending } = usePermissions<Role>();
  const own = role ? roleToLevel(role) : undefined;
  if (isPending || own === undefined) return <Loading />;
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <AccountEditForm own={own} />
    </Edit>
  );
};
