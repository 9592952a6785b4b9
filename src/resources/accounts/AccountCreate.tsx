import { useMemo } from 'react';
import { Create, Loading, PasswordInput, SelectInput, SimpleForm, usePermissions, useTranslate } from 'react-admin';
import { passwordProblem } from '../../domain/password';
import { DEFAULT_LEVEL, roleToLevel, type Level, type Role } from '../../domain/roles';
import { choicesOf, useLabels } from '../generate/labels';
import { inputElement } from '../generate/inputs';
import { writeSchema } from '../schema';
import type { EnumFieldConfig } from '../types';
import { formValidator, type FormErrors } from '../validation';
import { accountsConfig } from './config';
import { creatableLevels, mayCreateAt } from './levels';
import { usePasswordMinLength } from './usePasswordMinLength';

const { Account, DeviceIds, Level: levelField } = accountsConfig.fields;
const schemaErrors = formValidator(writeSchema(accountsConfig, 'create'));

/**
 * The configuration's checks (account, the password rule's shape, ...), the length in force and the level
 * rule for this creator. The password's message names the length; the common list is the server's to check.
 */
const validatorFor = (own: Level, minLength: number) => (values: Record<string, unknown>): FormErrors => {
  const errors = schemaErrors(values);
  const code = values.Code;
  if (typeof code === 'string' && code !== '' && passwordProblem(code, { minLength }) !== null) {
    errors.Code = { message: 'crud.validation.password', args: { min: minLength } };
  }
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
  const minLength = usePasswordMinLength();
  const translate = useTranslate();
  const validate = useMemo(() => (own === undefined ? undefined : validatorFor(own, minLength)), [own, minLength]);
  if (isPending || own === undefined || !validate) return <Loading />;
  const field: EnumFieldConfig = { ...levelField, choices: levels };
  const defaultLevel = levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : levels.at(-1);
  return (
    <Create redirect="show" transform={withoutEmptyDevices}>
      <SimpleForm noValidate validate={validate} defaultValues={{ Level: defaultLevel }}>
        {inputElement(accountsConfig, 'Account', Account, labels)}
        <PasswordInput source="Code" label={labels.field('Code')} helperText={translate('app.password.hint', { min: minLength })} autoComplete="new-password" />
        <SelectInput source="Level" label={labels.field('Level')} choices={choicesOf(accountsConfig, 'Level', field)} isRequired />
        {inputElement(accountsConfig, 'DeviceIds', DeviceIds, labels)}
      </SimpleForm>
    </Create>
  );
};
