import type { LoginResult } from '../../src/domain/auth';
import { CODES } from '../../src/domain/envelope';
import type { AppContext } from '../context';
import { isSet } from '../db/schema';
import { AppError } from '../http/envelope';
import { asLevel } from '../accounts/levels';
import { findAccount } from '../accounts/service';
import { recordAudit } from '../audit/trail';
import { addressKey, attemptFailed, attemptPassed, attemptSignedIn, reserveAttempt, type SignInAttempt } from './throttle';
import { issueToken, pruneSessions } from './tokens';

export interface SignInInput {
  account: string;
  password: string;
  /** The client's address, for throttling and the audit trail. */
  address: string;
  /** The client's User-Agent header, kept with the session (docs/user-settings.md). */
  agent: string;
}

const verifyAccount = async (ctx: AppContext, input: SignInInput) => {
  const row = await findAccount(ctx, input.account);
  return { row, matches: await ctx.passwords.verify(input.password, row?.password_hash, addressKey(input.address)) };
};

/** Runs the password check of an attempt; one that could not be checked (busy, store away) is forgotten, not counted. */
export const checked = async <T>(ctx: Pick<AppContext, 'db'>, attempt: SignInAttempt, check: () => Promise<T>): Promise<T> => {
  try {
    return await check();
  } catch (error) {
    await attemptPassed(ctx, attempt).catch(() => undefined);
    throw error;
  }
};

/**
 * Signs in. Throttled (./throttle: too many failures of the pair, the address, or the name from an
 * address it has not signed in from) → 42900 before any password check, and nothing is recorded; else
 * the attempt is recorded first and counts as a failure until the password proved right. An unknown account, a wrong password and a
 * disabled account all do the same scrypt work, count as a failure, are audited as
 * `auth.signInRefused` (no actor id, the name as typed; the entry never says which of the three it
 * was) and answer `{ State: false }`. A success issues a token and is audited as `auth.signIn`, in
 * the same transaction.
 */
export const signIn = async (ctx: AppContext, input: SignInInput): Promise<LoginResult> => {
  const attempt = await reserveAttempt(ctx, input.account, input.address);
  if (attempt === undefined) throw new AppError(CODES.tooManyAttempts, 'auth.tooManyFailures');
  const { row, matches } = await checked(ctx, attempt, () => verifyAccount(ctx, input));
  if (row === undefined || !matches || isSet(row.disabled)) {
    await ctx.db.transaction().execute(async (trx) => {
      await attemptFailed({ db: trx, now: ctx.now });
      await recordAudit(
        trx,
        { id: null, account: input.account, address: input.address },
        { action: 'auth.signInRefused', targetType: 'account', targetId: input.account },
        ctx.now(),
      );
    });
    return { State: false };
  }
  if (ctx.passwords.needsRehash(row.password_hash)) {
    // Stored with older parameters: upgrade it now that the password is known.
    const passwordHash = await ctx.passwords.hash(input.password, addressKey(input.address));
    await ctx.db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', row.id).execute();
  }
  await pruneSessions(ctx);
  const mustChangeCode = isSet(row.must_change_code);
  const { token, expiresAt } = await ctx.db.transaction().execute(async (trx) => {
    await attemptSignedIn({ db: trx, now: ctx.now }, attempt);
    const issued = await issueToken({ ...ctx, db: trx }, row.id, { address: input.address, agent: input.agent });
    await recordAudit(
      trx,
      { id: row.id, account: row.account, address: input.address },
      { action: 'auth.signIn', targetType: 'account', targetId: row.account, after: { mustChangeCode } },
      ctx.now(),
    );
    return issued;
  });
  return {
    State: true,
    Account: row.account,
    Level: asLevel(row.level),
    token,
    expiresAt: new Date(expiresAt).toISOString(),
    mustChangeCode,
  };
};
