import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Common and breached passwords: the list @zxcvbn-ts/language-common ships (about 49,000 passwords
 * gathered from breaches, lower case), read from the installed package, never fetched at run time. A
 * password is refused when it matches one case-insensitively: `Password1234` is `password1234`. The server
 * and the mocks import this module; the console's screens do not, so its bundle does not carry the list.
 */
const COMMON = new Set(dictionary['passwords-common']);

export const isCommonPassword = (password: string): boolean => COMMON.has(password.normalize('NFC').toLowerCase());
