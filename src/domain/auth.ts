import { z } from 'zod';
import { ACCOUNT_MAX } from './account';
import { type Level, type Role } from './roles';

/** The longest password taken: long enough for any real one, short enough to refuse abuse. */
export const PASSWORD_MAX = 128;

export const loginBodySchema = z.strictObject({
  Account: z.string().trim().min(1).max(ACCOUNT_MAX),
  Code: z.string().min(1).max(PASSWORD_MAX),
});

/** `State: false` is a wrong account or password; the other fields come only with `State: true`. */
export type LoginResult =
  | { State: false }
  | { State: true; Account: string; Level: Level; token: string; expiresAt: string; mustChangeCode: boolean };

/** The signed-in account as `POST {API_PREFIX}/api/user/info` answers it. */
export interface CurrentUser {
  Account: string;
  SubId: number | null;
  SubAdmin: string | null;
  Level: Level;
  role: Role;
  avatar: string;
  /** The shortest password the server accepts now (PASSWORD_MIN_LENGTH): the password hint and forms name it. */
  passwordMinLength: number;
}
