import type { AppContext } from '../context';
import { idleMs } from '../auth/tokens';
import { isSet } from '../db/schema';

/**
 * Of these sessions (sha256 of their tokens), the ones that may still hold a live stream: the guard's rule
 * (server/auth/tokens.ts resolveToken, server/auth/guard.ts) read without touching `last_used_at`, so an
 * open stream does not by itself keep a session from going idle (docs/live.md, "Limits"). One query for
 * every open stream of the process.
 */
export const openSessions = async (ctx: AppContext, tokenHashes: readonly string[]): Promise<Set<string>> => {
  if (tokenHashes.length === 0) return new Set();
  const rows = await ctx.db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .select([
      'sessions.token_hash',
      'sessions.last_used_at',
      'sessions.expires_at',
      'sessions.revoked_at',
      'accounts.disabled',
      'accounts.must_change_code',
    ])
    .where('sessions.token_hash', 'in', [...tokenHashes])
    .execute();
  const now = ctx.now();
  const open = rows.filter(
    (row) =>
      row.revoked_at === null &&
      now < row.expires_at &&
      now - row.last_used_at < idleMs(ctx) &&
      !isSet(row.disabled) &&
      !isSet(row.must_change_code),
  );
  return new Set(open.map((row) => row.token_hash));
};
