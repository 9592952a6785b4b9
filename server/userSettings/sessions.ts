import type { OpenSession } from '../../src/domain/userSettings';
import { recordAudit, type AuditActor } from '../audit/trail';
import { announceSessionsEnded, idleMs } from '../auth/tokens';
import type { AppContext, SignedInAccount } from '../context';
import { notFound } from '../http/envelope';

/**
 * The caller's open sessions (docs/user-settings.md, "Security"). A session is named by the first 16 hex
 * digits of its token's stored hash: enough to tell an account's sessions apart, and not the hash itself,
 * which would find the session in the store.
 */
const SESSION_NAME_LENGTH = 16;
const nameOf = (tokenHash: string): string => tokenHash.slice(0, SESSION_NAME_LENGTH);
const iso = (ms: number): string => new Date(ms).toISOString();

/** The caller's live sessions (not revoked, expired or idle), the latest used first. */
const liveSessions = (ctx: Pick<AppContext, 'db' | 'now' | 'config'>, accountId: number) => {
  const now = ctx.now();
  return ctx.db
    .selectFrom('sessions')
    .select(['token_hash', 'created_at', 'last_used_at', 'address', 'agent'])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_used_at', '>', now - idleMs(ctx))
    .orderBy('last_used_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
};

export const openSessions = async (ctx: AppContext, me: SignedInAccount): Promise<OpenSession[]> =>
  (await liveSessions(ctx, me.id)).map((row) => ({
    session: nameOf(row.token_hash),
    startedAt: iso(row.created_at),
    address: row.address,
    agent: row.agent,
    lastUsedAt: iso(row.last_used_at),
    current: row.token_hash === me.tokenHash,
  }));

/**
 * `/api/user/sessions/revoke`: ends one of the caller's live sessions (40400 for any other name, another
 * account's included), audited in the same transaction; its live streams end once that committed, as when an
 * account is disabled. Revoking the caller's own session signs it out.
 */
export const revokeSession = async (ctx: AppContext, me: SignedInAccount, actor: AuditActor, session: string): Promise<void> => {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const row = (await liveSessions({ ...ctx, db: trx }, me.id)).find((candidate) => nameOf(candidate.token_hash) === session);
    if (row === undefined) throw notFound();
    await trx.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', row.token_hash).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'auth.revokeSession',
        targetType: 'account',
        targetId: me.account,
        before: { session, startedAt: iso(row.created_at), address: row.address, current: row.token_hash === me.tokenHash },
      },
      now,
    );
  });
  announceSessionsEnded(ctx, me.id);
};
