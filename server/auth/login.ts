import type { LoginResult } from '../../src/domain/auth';
import { CODES } from '../../src/domain/envelope';
import type { AppContext } from '../context';
import { isSet } from '../db/schema';
import { AppError } from '../http/envelope';
import { asLevel } from '../accounts/levels';
import { findAccount } from '../accounts/service';
import { isThrottled, recordFailure } from './throttle';
import { issueToken, pruneSessions } from './tokens';

export interface SignInInput {
  account: string;
  password: string;
  /** The client's address, for throttling. */
  address: string;
}

/**
 * Signs in. Throttled (too many failures for the name or the address in the last hour) → 42900
 * before any password check. An unknown account, a wrong password and a disabled account all do the
 * same scrypt work, count as a failure and answer `{ State: false }`.
 */
export const signIn = async (ctx: AppContext, input: SignInInput): Promise<LoginResult> => {
  if (await isThrottled(ctx, input.account, input.address)) {
    throw new AppError(CODES.tooManyAttempts, 'auth.tooManyFailures');
  }
  const row = await findAccount(ctx, input.account);
  const matches = await ctx.passwords.verify(input.password, row?.password_hash);
  if (row === undefined || !matches || isSet(row.disabled)) {
    await recordFailure(ctx, input.account, input.address);
    return { State: false };
  }
  if (ctx.passwords.needsRehash(row.password_hash)) {
    // Stored with older parameters: upgrade it now that the password is known.
    const passwordHash = await ctx.passwords.hash(input.password);
    await ctx.db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', row.id).execute();
  }
  await pruneSessions(ctx);
  const { token, expiresAt } = await issueToken(ctx, row.id);
  return {
    State: true,
    Account: row.account,
    Level: asLevel(row.level),
    token,
    expiresAt: new Date(expiresAt).toISOString(),
    mustChangeCode: isSet(row.must_change_code),
  };
};
