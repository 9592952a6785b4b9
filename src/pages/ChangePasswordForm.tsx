import { useState } from 'react';
import { Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Form, PasswordInput, SaveButton, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { PASSWORD_MAX } from '../domain/auth';
import { passwordProblem } from '../domain/password';
import { usePasswordMinLength } from '../resources/accounts/usePasswordMinLength';
import { badInputField, type ConsoleDataProvider } from '../providers/dataProvider';
import type { SelfResetBody } from '../resources/accounts/calls';

interface Values {
  OldCode?: string;
  NewCode?: string;
  Confirm?: string;
}

/** react-admin's `{ message, args }` (args are required for it to be read as one). */
interface Message {
  message: string;
  args: Record<string, number>;
}

/**
 * What is wrong with the form, as catalogue keys: the current password again, then the password rule
 * (src/domain/password.ts) at the length the server says is in force. The common-password list is the server's: its refusal shows on NewCode.
 */
const passwordChangeValidator = (minLength: number) => {
  const message = (key: string): Message => ({ message: key, args: { min: minLength, max: PASSWORD_MAX } });
  return ({ OldCode = '', NewCode = '', Confirm = '' }: Values): Record<string, Message> => {
    const errors: Record<string, Message> = {};
    if (OldCode === '') errors.OldCode = message('ra.validation.required');
    const problem = NewCode === '' ? null : passwordProblem(NewCode, { minLength });
    if (NewCode === '') errors.NewCode = message('ra.validation.required');
    // The current password again is named as such, even when it is a seeded one shorter than the rule.
    else if (NewCode.normalize('NFC') === OldCode.normalize('NFC')) errors.NewCode = message('app.password.same');
    else if (problem) errors.NewCode = message(`app.password.problems.${problem}`);
    if (Confirm === '') errors.Confirm = message('ra.validation.required');
    else if (Confirm !== NewCode) errors.Confirm = message('app.password.mismatch');
    return errors;
  };
};

/**
 * "Change password" (`code/self_reset_Code`): current password, new password (the rule's hint above the
 * fields, enforced before sending, each broken part named under the field) and its confirmation. A wrong current password (40000 naming OldCode) shows
 * on that field; the HTTP client also shows the server's own message. Empty again after a success.
 */
export const ChangePasswordForm = ({ onChanged }: { onChanged?: () => void }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const minLength = usePasswordMinLength();
  // A new form (empty fields) after each success.
  const [generation, setGeneration] = useState(0);
  const change = useMutation({ mutationFn: (body: SelfResetBody) => dataProvider.changeOwnPassword(body) });

  const submit = async (values: Values) => {
    try {
      await change.mutateAsync({ OldCode: values.OldCode ?? '', NewCode: values.NewCode ?? '' });
    } catch (error) {
      const field = badInputField(error, ['OldCode', 'NewCode']);
      if (field === 'OldCode') return { OldCode: 'app.password.wrongOld' };
      return field === 'NewCode' && error instanceof Error ? { NewCode: error.message } : undefined;
    }
    notify('app.password.changed', { type: 'success' });
    setGeneration((value) => value + 1);
    onChanged?.();
    return undefined;
  };

  return (
    <Form key={generation} onSubmit={submit} validate={passwordChangeValidator(minLength)} noValidate>
      <Stack sx={{ maxWidth: 420 }}>
        {/* The rule stays in view while a field names the part of it a password breaks. */}
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} id="password-rule">
          {translate('app.password.hint', { min: minLength })}
        </Typography>
        <PasswordInput source="OldCode" label="app.password.old" autoComplete="current-password" fullWidth />
        <PasswordInput
          source="NewCode"
          label="app.password.new"
          autoComplete="new-password"
          inputProps={{ 'aria-describedby': 'password-rule' }}
          fullWidth
        />
        <PasswordInput source="Confirm" label="app.password.confirm" autoComplete="new-password" fullWidth />
        <div>
          <SaveButton label="app.password.submit" />
        </div>
      </Stack>
    </Form>
  );
};
