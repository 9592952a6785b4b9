import { isIP } from 'node:net';
import type { AppContext } from '../context';
import type { LoginFailureKind } from '../db/schema';

/**
 * Sign-in throttling, kept in the database so it survives restarts and is shared by every server
 * process on one PostgreSQL. Failures are counted per account name (as typed, known or not) and per
 * client address over the last hour; at the limit, sign-in answers 42900 before any password check.
 */

const THROTTLE_WINDOW_MS = 3_600_000;

/**
 * The key for a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 network, since a
 * single client usually holds a whole /64.
 */
export const addressKey = (ip: string): string => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
};

const countSince = async (ctx: Pick<AppContext, 'db'>, kind: LoginFailureKind, key: string, since: number): Promise<number> => {
  const row = await ctx.db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('at', '>', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
};

/** True when the account name or the address has reached its limit of failures in the last hour. */
export const isThrottled = async (ctx: AppContext, account: string, address: string): Promise<boolean> => {
  const since = ctx.now() - THROTTLE_WINDOW_MS;
  const [byAccount, byAddress] = await Promise.all([
    countSince(ctx, 'account', account, since),
    countSince(ctx, 'address', addressKey(address), since),
  ]);
  return (
    byAccount >= ctx.config.loginFailuresPerAccountPerHour || byAddress >= ctx.config.loginFailuresPerAddressPerHour
  );
};

/**
 * Records a failed sign-in (or a wrong current password at a password change) under both keys, and
 * drops failures older than the window. `ctx.db` may be a transaction.
 */
export const recordFailure = async (ctx: Pick<AppContext, 'db' | 'now'>, account: string, address: string): Promise<void> => {
  const at = ctx.now();
  await ctx.db
    .insertInto('login_failures')
    .values([
      { kind: 'account', key: account, at },
      { kind: 'address', key: addressKey(address), at },
    ])
    .execute();
  await ctx.db.deleteFrom('login_failures').where('at', '<=', at - THROTTLE_WINDOW_MS).execute();
};
