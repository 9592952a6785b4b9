import { createHash, randomBytes } from 'node:crypto';
import { levelToRole } from '../../src/domain/roles';
import { SESSION_AGENT_MAX } from '../../src/domain/userSettings';
import type { AppContext, SignedInAccount } from '../context';
import { compiledOnce, parameter } from '../db/database';
import { isSet } from '../db/schema';
import { asLevel } from '../accounts/levels';

/**
 * Bearer tokens: 32 random bytes, base64url (43 characters). Only their sha256 is stored. A token is
 * valid while it is not revoked, now < expires_at (issued + TOKEN_MAX_HOURS) and it was used within
 * the last TOKEN_IDLE_MINUTES; last_used_at is written at most once a minute.
 */

const TOKEN_BYTES = 32;
/** last_used_at is refreshed only when older than this, to spare writes. */
const TOUCH_INTERVAL_MS = 60_000;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newToken = (): string => randomBytes(TOKEN_BYTES).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The token of an `Authorization: Bearer <token>` header, if it has that form. */
export const bearerToken = (header: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const token = match?.[1];
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
};

export const idleMs = (ctx: Pick<AppContext, 'config'>): number => ctx.config.tokenIdleMinutes * 60_000;
const lifetimeMs = (ctx: Pick<AppContext, 'config'>): number => ctx.config.tokenMaxHours * 3_600_000;

export interface IssuedToken {
  token: string;
  /** Absolute expiry, epoch ms; idleness may end the token earlier. */
  expiresAt: number;
}

/** Where a sign-in came from: the client's address and its User-Agent header (absent: empty). */
export interface SessionOrigin {
  address: string;
  agent: string;
}

/** Issues a token; `ctx.db` may be a transaction (sign-in writes its audit entry with it). */
export const issueToken = async (ctx: Pick<AppContext, 'db' | 'now' | 'config'>, accountId: number, origin: SessionOrigin): Promise<IssuedToken> => {
  const now = ctx.now();
  const token = newToken();
  const expiresAt = now + lifetimeMs(ctx);
  await ctx.db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      account_id: accountId,
      created_at: now,
      last_used_at: now,
      expires_at: expiresAt,
      address: origin.address.slice(0, 64),
      agent: Array.from(origin.agent).slice(0, SESSION_AGENT_MAX).join(''),
    })
    .execute();
  return { token, expiresAt };
};

/**
 * The session of a token hash with its account: read on every request, so compiled once per store
 * (server/db/database.ts, compiledOnce) rather than built anew; still one statement, against the store.
 */
const sessionOf = compiledOnce((db) =>
  db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .select([
      'sessions.last_used_at',
      'sessions.expires_at',
      'sessions.revoked_at',
      'accounts.id',
      'accounts.account',
      'accounts.level',
      'accounts.sub_id',
      'accounts.disabled',
      'accounts.must_change_code',
    ])
    .where('sessions.token_hash', '=', parameter<string>(0)),
);

/** The signed-in account of a token, or undefined when the token is unknown, revoked, expired or idle. */
export const resolveToken = async (ctx: AppContext, token: string): Promise<SignedInAccount | undefined> => {
  const tokenHash = hashToken(token);
  const [row] = (await sessionOf(ctx.db, [tokenHash])).rows;
  if (row === undefined) return undefined;
  const now = ctx.now();
  const live =
    row.revoked_at === null && now < row.expires_at && now - row.last_used_at < idleMs(ctx) && !isSet(row.disabled);
  if (!live) return undefined;
  if (now - row.last_used_at >= TOUCH_INTERVAL_MS) {
    await ctx.db.updateTable('sessions').set({ last_used_at: now }).where('token_hash', '=', tokenHash).execute();
  }
  const level = asLevel(row.level);
  return {
    id: row.id,
    account: row.account,
    level,
    role: levelToRole(level),
    subId: row.sub_id,
    mustChangeCode: isSet(row.must_change_code),
    tokenHash,
  };
};

export const revokeTokenHash = async (ctx: Pick<AppContext, 'db' | 'now'>, tokenHash: string): Promise<void> => {
  await ctx.db
    .updateTable('sessions')
    .set({ revoked_at: ctx.now() })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
};

export interface RevokeOptions {
  /** The sha256 of a token to keep (the session that changed its own password). */
  except?: string;
}

/**
 * Revokes every live token of the account (password changed, account disabled), but `except`;
 * answers how many were revoked.
 */
export const revokeAllTokens = async (
  ctx: Pick<AppContext, 'db' | 'now'>,
  accountId: number,
  options: RevokeOptions = {},
): Promise<number> => {
  const query = ctx.db
    .updateTable('sessions')
    .set({ revoked_at: ctx.now() })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null);
  const result = await (options.except === undefined ? query : query.where('token_hash', '<>', options.except)).executeTakeFirst();
  return Number(result.numUpdatedRows);
};

/**
 * Tells every server process that sessions of the account ended (after the transaction that ended them
 * committed), so that its live streams on those sessions end at once (server/live/hub.ts).
 */
export const announceSessionsEnded = (ctx: Pick<AppContext, 'live'>, accountId: number): void =>
  ctx.live.publish({ type: 'sessions', data: { account: accountId } });

/** Dead sessions are kept this long (for troubleshooting), then deleted. */
const SESSION_RETENTION_MS = 24 * 3_600_000;

/** Deletes sessions that have been dead (revoked, expired or idle) for longer than the retention. */
export const pruneSessions = async (ctx: AppContext): Promise<void> => {
  const before = ctx.now() - SESSION_RETENTION_MS;
  await ctx.db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('revoked_at', '<=', before),
        eb('expires_at', '<=', before),
        eb('last_used_at', '<=', before - idleMs(ctx)),
      ]),
    )
    .execute();
};
