import { ACCOUNT_MAX, type CurrentUser } from '../../src/domain/auth';
import { CODES } from '../../src/domain/envelope';
import { passwordProblem } from '../../src/domain/password';
import { DEFAULT_LEVEL, levelToRole, type Level } from '../../src/domain/roles';
import { revokeAllTokens } from '../auth/tokens';
import type { AppContext } from '../context';
import { flag, type AccountRow } from '../db/schema';
import { AppError, badInput } from '../http/envelope';
import { asLevel } from './levels';

/** Account rules, without HTTP: the routes of later issues call these. */

const accountNotFound = (): AppError => new AppError(CODES.notFound, 'account.notFound');

export const findAccount = (ctx: AppContext, account: string): Promise<AccountRow | undefined> =>
  ctx.db.selectFrom('accounts').selectAll().where('account', '=', account).executeTakeFirst();

export const findAccountById = (ctx: AppContext, id: number): Promise<AccountRow | undefined> =>
  ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();

export const countAccounts = async (ctx: AppContext): Promise<number> => {
  const row = await ctx.db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
};

/** Throws 40000 naming `field` when the password breaks the password rule. */
export const assertAcceptablePassword = (password: string, field = 'Code'): void => {
  if (passwordProblem(password) !== null) throw badInput('validation.weakPassword', { field });
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

/**
 * Creates an account. Integrity rules (who may create whom is the routes' business): the password
 * meets the rule; the name is 1–64 characters and free; a Level 0 account has no upper administrator;
 * any other has one, at a strictly lower Level number.
 */
export const createAccount = async (ctx: AppContext, input: NewAccount): Promise<AccountRow> => {
  const account = input.account.trim();
  const level = input.level ?? DEFAULT_LEVEL;
  if (account.length === 0) throw badInput('validation.accountEmpty', { field: 'Account' });
  if (account.length > ACCOUNT_MAX) throw badInput('validation.tooLong', { field: 'Account', max: ACCOUNT_MAX });
  assertAcceptablePassword(input.password);
  if (level === 0 && input.subId !== null) throw badInput('validation.invalid', { field: 'SubId' });
  if (level !== 0) {
    const upper = input.subId === null ? undefined : await findAccountById(ctx, input.subId);
    if (upper === undefined || asLevel(upper.level) >= level) throw badInput('validation.invalid', { field: 'SubId' });
  }
  if ((await findAccount(ctx, account)) !== undefined) throw badInput('account.exists', { account });

  const passwordHash = await ctx.passwords.hash(input.password);
  const now = ctx.now();
  try {
    return await ctx.db
      .insertInto('accounts')
      .values({
        account,
        password_hash: passwordHash,
        level,
        sub_id: input.subId,
        must_change_code: flag(input.mustChangeCode ?? false),
        disabled: 0,
        avatar: input.avatar ?? '',
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    // Created meanwhile by someone else (the unique index decides).
    if ((await findAccount(ctx, account)) !== undefined) throw badInput('account.exists', { account });
    throw error;
  }
};

export interface ChangePasswordOptions {
  /** Set when an administrator resets it: the owner must choose a new one at the next sign-in. */
  mustChangeCode?: boolean;
}

/** Sets a new password and revokes every token of the account. */
export const changePassword = async (
  ctx: AppContext,
  accountId: number,
  newPassword: string,
  options: ChangePasswordOptions = {},
): Promise<void> => {
  assertAcceptablePassword(newPassword, 'NewCode');
  if ((await findAccountById(ctx, accountId)) === undefined) throw accountNotFound();
  const passwordHash = await ctx.passwords.hash(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set({ password_hash: passwordHash, must_change_code: flag(options.mustChangeCode ?? false), updated_at: ctx.now() })
      .where('id', '=', accountId)
      .execute();
    await revokeAllTokens({ db: trx, now: ctx.now }, accountId);
  });
};

/**
 * Disables (or enables) an account and revokes every token of it. A disabled account cannot sign in;
 * sign-in answers it exactly like a wrong password. The super administrator (Level 0) cannot be
 * disabled, so the system always keeps one way in.
 */
export const setDisabled = async (ctx: AppContext, accountId: number, disabled: boolean): Promise<void> => {
  const row = await findAccountById(ctx, accountId);
  if (row === undefined) throw accountNotFound();
  if (disabled && asLevel(row.level) === 0) throw new AppError(CODES.forbidden, 'forbidden');
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set({ disabled: flag(disabled), updated_at: ctx.now() })
      .where('id', '=', accountId)
      .execute();
    await revokeAllTokens({ db: trx, now: ctx.now }, accountId);
  });
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
  };
};
