import { z } from 'zod';
import { PASSWORD_MAX } from './auth';

/**
 * The password rule of the old console's hint: at least 6 characters, no spaces, upper and lower case
 * letters and digits. The server enforces it wherever a password is chosen (bootstrap, password
 * changes, new accounts); the console checks it in forms before sending.
 */
export const PASSWORD_MIN = 6;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'whitespace' | 'noLower' | 'noUpper' | 'noDigit';

/** The first rule the password breaks, or null when it is acceptable. */
export const passwordProblem = (password: string): PasswordProblem | null => {
  if (password.length < PASSWORD_MIN) return 'tooShort';
  if (password.length > PASSWORD_MAX) return 'tooLong';
  if (/\s/u.test(password)) return 'whitespace';
  if (!/\p{Ll}/u.test(password)) return 'noLower';
  if (!/\p{Lu}/u.test(password)) return 'noUpper';
  if (!/\p{Nd}/u.test(password)) return 'noDigit';
  return null;
};

export const isAcceptablePassword = (password: string): boolean => passwordProblem(password) === null;

/** `messageKey: 'password'` names the rule's message: the console's crud.validation.password, the server's validation.weakPassword. */
export const newPasswordSchema = z.string().refine(isAcceptablePassword, {
  message: 'at least 6 characters, no spaces, upper and lower case letters and digits',
  params: { messageKey: 'password' },
});
