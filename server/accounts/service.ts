import type { Kysely } from 'kysely';
import { ACCOUNT_MAX } from '../../src/domain/account';
import type { CurrentUser } from '../../src/domain/auth';
import { CODES } from '../../src/domain/envelope';
import { passwordProblem, type PasswordRule } from '../../src/domain/password';
import { DEFAULT_LEVEL, levelToRole, type Level } from '../../src/domain/roles';
import { isCommonPassword } from '../../src/domain/commonPasswords';
import { revokeAllTokens } from '../auth/tokens';
import type { AppContext } from '../context';
import { flag, type AccountRow, type DB } from '../db/schema';
import { AppError, badInput } from '../http/envelope';
import { asLevel } from './levels';

/** Account rules, without HTTP: the routes (and ./commands) call these. */

export const accountNotFound = (): AppError => new AppError(CODES.notFound, 'account.notFound');

export const findAccount = (ctx: Pick<AppContext, 'db'>, account: string): Promise<AccountRow | undefined> =>
  ctx.db.selectFrom('accounts').selectAll().where('account', '=', account).executeTakeFirst();

export const findAccountById = (ctx: Pick<AppContext, 'db'>, id: number): Promise<AccountRow | undefined> =>
  ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();

export const countAccounts = async (ctx: AppContext): Promise<number> => {
  const row = await ctx.db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
};

/** The password rule in force: the configured length and the common-password list. */
const passwordRule = (ctx: Pick<AppContext, 'config'>): PasswordRule => ({
  minLength: ctx.config.passwordMinLength,
  isCommon: isCommonPassword,
});

/**
 * Throws 40000 naming `field` (and the length in force) when a password a person chose breaks the
 * password rule. Seeded passwords (bootstrap, demo accounts) are not chosen here: ADMIN_PASSWORD is
 * checked when the configuration loads, the demo ones are documented as demo-only.
 */
export const assertAcceptablePassword = (ctx: Pick<AppContext, 'config'>, password: string, field = 'Code'): void => {
  const problem = passwordProblem(password, passwordRule(ctx));
  if (problem === 'common') throw badInput('validation.commonPassword', { field });
  if (problem !== null) throw badInput('validation.weakPassword', { field, min: ctx.config.passwordMinLength });
};

export interface NewAccount {
  account: string;
  password: string;
  level?: Level;
  /** The upper-level administrator; null only for the super administrator at the root. */
  subId: number | null;
  mustChangeCode?: boolean;
  avatar?: string;
}

/** A new account whose password is already hashed, ready to be inserted inside a transaction. */
export interface PreparedAccount {
  account: string;
  passwordHash: string;
  level: Level;
  subId: number | null;
  mustChangeCode: boolean;
  avatar: string;
}

/**
 * The part of creating an account that needs no database: the name (trimmed, 1–64 characters) is
 * checked, and the password is hashed (its rule is the caller's: assertAcceptablePassword). Hashing takes a scrypt slot (~0.3 s at
 * the default cost), so it happens before any transaction opens.
 */
export const prepareAccount = async (ctx: Pick<AppContext, 'passwords'>, input: NewAccount): Promise<PreparedAccount> => {
  const account = input.account.trim();
  if (account.length === 0) throw badInput('validation.accountEmpty', { field: 'Account' });
  if (account.length > ACCOUNT_MAX) throw badInput('validation.tooLong', { field: 'Account', max: ACCOUNT_MAX });
  return {
    account,
    passwordHash: await ctx.passwords.hash(input.password),
    level: input.level ?? DEFAULT_LEVEL,
    subId: input.subId,
    mustChangeCode: input.mustChangeCode ?? false,
    avatar: input.avatar ?? '',
  };
};

/**
 * Inserts a prepared account with `db`, which may be a transaction. Integrity rules (who may create
 * whom is the caller's business): a Level 0 account has no upper administrator; any other has one, at
 * a strictly lower Level number; the name is free (the unique index decides, so two concurrent
 * creations cannot both succeed, and a conflict does not abort a PostgreSQL transaction).
 */
export const insertAccount = async (db: Kysely<DB>, now: number, input: PreparedAccount): Promise<AccountRow> => {
  const { account, level } = input;
  if (level === 0 && input.subId !== null) throw badInput('validation.invalid', { field: 'SubId' });
  if (level !== 0) {
    const upper =
      input.subId === null
        ? undefined
        : await db.selectFrom('accounts').select('level').where('id', '=', input.subId).executeTakeFirst();
    if (upper === undefined || asLevel(upper.level) >= level) throw badInput('validation.invalid', { field: 'SubId' });
  }
  const row = await db
    .insertInto('accounts')
    .values({
      account,
      password_hash: input.passwordHash,
      level,
      sub_id: input.subId,
      must_change_code: flag(input.mustChangeCode),
      disabled: 0,
      avatar: input.avatar,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('account').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) throw badInput('account.exists', { account });
  return row;
};

/**
 * Creates an account (bootstrap, demo accounts; `add_Admin` composes prepareAccount and insertAccount
 * itself, to add devices and its audit entry in the same transaction).
 */
export const createAccount = async (ctx: AppContext, input: NewAccount): Promise<AccountRow> => {
  const prepared = await prepareAccount(ctx, input);
  return ctx.db.transaction().execute((trx) => insertAccount(trx, ctx.now(), prepared));
};

export interface StorePasswordOptions {
  /** Set when an administrator resets it: the owner must choose a new one at the next sign-in. */
  mustChangeCode?: boolean;
  /** The sha256 of a token that stays valid (the session that changed its own password). */
  keepTokenHash?: string;
}

/**
 * Stores a hashed password with `db` (a transaction, usually) and revokes the account's tokens but
 * the one kept; answers how many tokens were revoked. 40400 when there is no such account.
 */
export const storePassword = async (
  db: Kysely<DB>,
  now: number,
  accountId: number,
  passwordHash: string,
  options: StorePasswordOptions = {},
): Promise<number> => {
  const result = await db
    .updateTable('accounts')
    .set({ password_hash: passwordHash, must_change_code: flag(options.mustChangeCode ?? false), updated_at: now })
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw accountNotFound();
  return revokeAllTokens({ db, now: () => now }, accountId, { except: options.keepTokenHash });
};

/** The signed-in account as `POST {prefix}/api/user/info` answers it. */
export const currentUser = async (ctx: AppContext, accountId: number): Promise<CurrentUser> => {
  const row = await ctx.db
    .selectFrom('accounts as a')
    .leftJoin('accounts as upper', 'upper.id', 'a.sub_id')
    .select(['a.account', 'a.level', 'a.sub_id', 'a.avatar', 'upper.account as upper_account'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  if (row === undefined) throw accountNotFound();
  const level = asLevel(row.level);
  return {
    Account: row.account,
    SubId: row.sub_id,
    SubAdmin: row.upper_account,
    Level: level,
    role: levelToRole(level),
    avatar: row.avatar,
    passwordMinLength: ctx.config.passwordMinLength,
  };
};
