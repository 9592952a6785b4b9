import type { z } from 'zod';

/**
 * zod's issues as our own message keys (`crud.validation.*`, in both catalogues), with their arguments,
 * in the `{ message, args }` shape react-admin translates. zod's English texts are never shown.
 */
export interface TranslatableMessage {
  message: string;
  args: Record<string, string | number>;
}

const key = (name: string, args: Record<string, string | number> = {}): TranslatableMessage => ({
  message: `crud.validation.${name}`,
  args,
});

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** The message for one issue; `value` is the value the issue is about (a blank one is always "required"). */
const issueMessage = (issue: z.core.$ZodIssue, value: unknown): TranslatableMessage => {
  if (isBlank(value) && issue.code !== 'unrecognized_keys') return key('required');
  switch (issue.code) {
    case 'invalid_type':
      return key(issue.expected === 'int' ? 'integer' : 'invalid');
    case 'too_small':
      return key(issue.origin === 'string' ? 'tooShort' : 'tooSmall', { min: Number(issue.minimum) });
    case 'too_big':
      return key(issue.origin === 'string' ? 'tooLong' : 'tooBig', { max: Number(issue.maximum) });
    case 'invalid_value':
      return key('oneOf', { values: issue.values.map(String).join(', ') });
    case 'invalid_format':
      return key('pattern');
    case 'custom': {
      const custom: unknown = issue.params?.messageKey;
      return key(typeof custom === 'string' ? custom : 'invalid');
    }
    default:
      return key('invalid');
  }
};

export type FormErrors = Record<string, TranslatableMessage>;

/**
 * A react-admin form `validate` function from a schema: the first message of each field. Values the
 * form holds but does not show (the record's other fields) are not the form's business, so unknown
 * keys are not reported.
 */
export const formValidator =
  (schema: z.ZodObject) =>
  (values: Record<string, unknown>): FormErrors => {
    const result = schema.strip().safeParse(values);
    if (result.success) return {};
    const errors: FormErrors = {};
    for (const issue of result.error.issues) {
      const source = String(issue.path[0] ?? '');
      errors[source] ??= issueMessage(issue, values[source]);
    }
    return errors;
  };
