import { z } from 'zod';
import { PASSWORD_MAX } from './auth';

/**
 * The password rule (ASVS 4.0.3 V2.1) for a password a person chooses: at least the length in force
 * (PASSWORD_MIN_LENGTH, 12 by default; the server tells the console in the user info), at most
 * PASSWORD_MAX, and the old console's hint: no spaces, upper and lower case letters and digits. The
 * server also refuses a password found in a list of common and breached passwords (src/domain/commonPasswords.ts, kept out of the console's bundle: only the server and the mocks import it);
 * the console leaves that list to the server, so its bundle does not carry it.
 */
export const DEFAULT_PASSWORD_MIN_LENGTH = 12;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'whitespace' | 'noLower' | 'noUpper' | 'noDigit' | 'common';

export interface PasswordRule {
  minLength: number;
  /** True for a common or breached password; left out where the list is not at hand (the console). */
  isCommon?: (password: string) => boolean;
}

/** The first rule the password breaks, or null when it is acceptable. */
export const passwordProblem = (password: string, rule: PasswordRule): PasswordProblem | null => {
  if ([...password].length < rule.minLength) return 'tooShort';
  if (password.length > PASSWORD_MAX) return 'tooLong';
  if (/\s/u.test(password)) return 'whitespace';
  if (!/\p{Ll}/u.test(password)) return 'noLower';
  if (!/\p{Lu}/u.test(password)) return 'noUpper';
  if (!/\p{Nd}/u.test(password)) return 'noDigit';
  if (rule.isCommon?.(password) === true) return 'common';
  return null;
};

/**
 * A new password on the wire: a string of at most PASSWORD_MAX. The rule itself depends on the
 * configuration (the length in force, the common list), so the server's services check it
 * (server/accounts/service.ts, assertAcceptablePassword) and answer 40000 naming the field and the length.
 */
export const newPasswordSchema = z.string().max(PASSWORD_MAX);
