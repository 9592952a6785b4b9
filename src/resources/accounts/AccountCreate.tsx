import { useMemo } from 'react';
import { Create, Loading, PasswordInput, SelectInput, SimpleForm, usePermissions } from 'react-admin';
import { DEFAULT_LEVEL, roleToLevel, type Level, type Role } from '../../domain/roles';
import { choicesOf, useLabels } from '../generate/labels';
import { inputElement } from '../generate/inputs';
import { writeSchema } from '../schema';
import type { EnumFieldConfig } from '../types';
import { formValidator, type FormErrors } from '../validation';
import { accountsConfig } from './config';
import { creatableLevels, mayCreateAt } from './levels';

const { Account, DeviceIds, Level: levelField } = accountsConfig.fields;
const schemaErrors = formValidator(writeSchema(accountsConfig, 'create'));

/** The configuration's checks (account, the password rule, ...) and the level rule for this creator. */
const validatorFor = (own: Level) => (values: Record<string, unknown>): FormErrors => {
  const errors = schemaErrors(values);
  if (!errors.Level && !mayCreateAt(own, values.Level)) errors.Level = { message: 'app.accounts.levelNotAllowed', args: {} };
  return errors;
};

/** `DeviceIds` is optional on the wire: an empty choice is left out rather than sent as null. */
const withoutEmptyDevices = ({ DeviceIds: ids, ...rest }: Record<string, unknown>) =>
  Array.isArray(ids) && ids.length > 0 ? { ...rest, DeviceIds: ids } : rest;

/**
 * The account create form (`add_Admin`): the generated one's fields, with the password rule's hint under
 * the initial password and only the levels the signed-in account may give (strictly below its own). A
 * 40000 naming a field shows under that field (the data provider turns it into a form error).
 */
export const AccountCreate = () => {
  const labels = useLabels(accountsConfig);
  const { permissions: role, isPending } = usePermissions<Role>();
  const own = role ? roleToLevel(role) : undefined;
  const levels = useMemo(() => (own === undefined ? [] : creatableLevels(own)), [own]);
  const validate = useMemo(() => (own === undefined ? undefined : validatorFor(own)), [own]);
  if (isPending || own === undefined || !validate) return <Loading />;
  const field: EnumFieldConfig = { ...levelField, choices: levels };
  const defaultLevel = levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : levels.at(-1);
  return (
    <Create redirect="show" transform={withoutEmptyDevices}>
      <SimpleForm noValidate validate={validate} defaultValues={{ Level: defaultLevel }}>
        {inputElement(accountsConfig, 'Account', Account, labels)}
        <PasswordInput source="Code" label={labels.field('Code')} helperText="app.password.hint" autoComplete="new-password" />
        <SelectInput source="Level" label={labels.field('Level')} choices={choicesOf(accountsConfig, 'Level', field)} isRequired />
        {inputElement(accountsConfig, 'DeviceIds', DeviceIds, labels)}
      </SimpleForm>
    </Create>
  );
};
