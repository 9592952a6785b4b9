import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types, portable between SQLite and PostgreSQL: times are epoch milliseconds in integer
 * (SQLite) / bigint (PostgreSQL, parsed to number) columns, flags are integers 0 or 1 on both.
 */

export interface AccountsTable {
  id: Generated<number>;
  account: string;
  password_hash: string;
  /** 0 super administrator … 3 ordinary user. */
  level: number;
  /** The upper-level administrator; null only for a super administrator at the root. */
  sub_id: number | null;
  must_change_code: number;
  disabled: number;
  avatar: string;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  /** sha256 of the bearer token, hex; the token itself is never stored. */
  token_hash: string;
  account_id: number;
  created_at: number;
  last_used_at: number;
  /** Absolute expiry: created_at + TOKEN_MAX_HOURS. */
  expires_at: number;
  revoked_at: number | null;
}

export type LoginFailureKind = 'account' | 'address';

export interface LoginFailuresTable {
  id: Generated<number>;
  kind: LoginFailureKind;
  /** The account name as typed (trimmed), or the client address. */
  key: string;
  at: number;
}

export interface DB {
  accounts: AccountsTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type NewAccountRow = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type SessionRow = Selectable<SessionsTable>;

/** The flag columns hold 0 or 1 on both stores. */
export const flag = (value: boolean): number => (value ? 1 : 0);
export const isSet = (value: number | boolean | null | undefined): boolean => Number(value ?? 0) !== 0;
