import type { z } from 'zod';
import {
  basicInfoSchema,
  certificateBodySchema,
  certificateExpired,
  PROFILE_MAX_WORDS,
  type BasicInfo,
  type CertificateBody,
} from '../../domain/userSettings';

/** react-admin's `{ message, args }` (args are required for it to be read as one). */
export interface FieldMessage {
  message: string;
  args: Record<string, number>;
}

type Values<T> = Partial<Record<keyof T, string>>;

const REQUIRED: FieldMessage = { message: 'ra.validation.required', args: {} };

/**
 * A form's errors from the shared schema the server validates with, one per field (its first issue), as
 * catalogue keys: empty → required, too long → the limit, a refused format → the field's own message.
 */
const errorsOf = (issues: readonly z.core.$ZodIssue[], formats: Readonly<Record<string, FieldMessage>>): Record<string, FieldMessage> => {
  const errors: Record<string, FieldMessage> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (field === '' || field in errors) continue;
    if (issue.code === 'too_small' || issue.code === 'invalid_type') errors[field] = REQUIRED;
    else if (issue.code === 'too_big') errors[field] = { message: 'ra.validation.maxLength', args: { max: Number(issue.maximum) } };
    else errors[field] = formats[field] ?? REQUIRED;
  }
  return errors;
};

const BASIC_FORMATS: Readonly<Record<string, FieldMessage>> = {
  email: { message: 'ra.validation.email', args: {} },
  phone: { message: 'app.userSetting.basic.invalidPhone', args: {} },
  profile: { message: 'app.userSetting.basic.profileTooLong', args: { max: PROFILE_MAX_WORDS } },
};

/** The basic-info form's errors: email, nickname, country/region and area required; the profile at most 200 words (profileWords). */
export const basicInfoErrors = (values: Values<BasicInfo>): Record<string, FieldMessage> => {
  const parsed = basicInfoSchema.safeParse({ ...values });
  return parsed.success ? {} : errorsOf(parsed.error.issues, BASIC_FORMATS);
};

/** The certificate form's errors: every field required, the expiry a real day not passed at `now`. */
export const certificateErrors = (values: Values<CertificateBody>, now: number): Record<string, FieldMessage> => {
  const parsed = certificateBodySchema.safeParse({ number: '', issuer: '', expiresOn: '', ...values });
  if (!parsed.success) {
    const empty = (values.expiresOn ?? '').trim() === '';
    return errorsOf(parsed.error.issues, { expiresOn: empty ? REQUIRED : { message: 'app.userSetting.certification.invalidDay', args: {} } });
  }
  return certificateExpired(parsed.data.expiresOn, now) ? { expiresOn: { message: 'app.userSetting.certification.expired', args: {} } } : {};
};
