import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { AppContext } from '../context';

/**
 * Sign-in throttling, kept in the database so it survives restarts and is shared by every server
 * process on one store (docs/server-auth.md, "Sign-in and throttling"). Failures of the last hour are
 * counted per (address, account) pair, per address and per account name (as typed, known or not); at a
 * limit, sign-in answers 42900 before any password check.
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

/** A pair that signed in successfully within this long is a known address of the account. */
const KNOWN_ADDRESS_MS = 30 * 24 * 3_600_000;

/** Advisory lock namespaces (PostgreSQL): one per key kind, so an account and an address never share a lock. */
const LOCK_ACCOUNT = 0x5157_0001;
const LOCK_ADDRESS = 0x5157_0002;

interface Counts {
  pair: number;
  byAccount: number;
  byAddress: number;
  known: number;
}

/**
 * Failures in the window (attempts still being checked count as failures) for the pair and for each key, and
 * whether the pair signed in successfully lately. One statement, inside the reserving transaction.
 */
const countsOf = async (db: AppContext['db'], account: string, address: string, since: number, knownSince: number): Promise<Counts> => {
  const row = await db
    .selectFrom('sign_in_attempts')
    .select((eb) => {
      const failed = eb.and([eb('succeeded', '=', 0), eb('at', '>', since)]);
      const one = (condition: ReturnType<typeof eb.and>) => eb.fn.sum<number | string | null>(eb.case().when(condition).then(1).else(0).end());
      return [
        one(eb.and([failed, eb('account', '=', account), eb('address', '=', address)])).as('pair'),
        one(eb.and([failed, eb('account', '=', account)])).as('byAccount'),
        one(eb.and([failed, eb('address', '=', address)])).as('byAddress'),
        one(eb.and([eb('succeeded', '=', 1), eb('at', '>', knownSince), eb('account', '=', account), eb('address', '=', address)])).as('known'),
      ];
    })
    .where((eb) => eb.or([eb('account', '=', account), eb('address', '=', address)]))
    .executeTakeFirst();
  return {
    pair: Number(row?.pair ?? 0),
    byAccount: Number(row?.byAccount ?? 0),
    byAddress: Number(row?.byAddress ?? 0),
    known: Number(row?.known ?? 0),
  };
};

/**
 * Whether these counts refuse another attempt: the pair at its limit; the address at its limit (one machine
 * spraying many accounts); or the account at its limit (guesses from many addresses) unless the pair has signed
 * in lately: the owner's usual addresses still get in while strangers guess.
 */
const refuses = (config: AppContext['config'], counts: Counts): boolean =>
  counts.pair >= config.loginFailuresPerPairPerHour ||
  counts.byAddress >= config.loginFailuresPerAddressPerHour ||
  (counts.known === 0 && counts.byAccount >= config.loginFailuresPerAccountPerHour);

/** An attempt that passed the throttle: its row counts as a failure until it is settled. */
export interface SignInAttempt {
  readonly id: number;
  readonly account: string;
  readonly address: string;
}

/**
 * Checks the limits and, when they allow it, records the attempt in the same transaction, before any
 * password is checked: parallel tries cannot outrun a limit, since each one in flight already counts.
 * The transaction is serialised per key: SQLite's `begin immediate` holds the write lock (for every
 * process on the file), PostgreSQL's advisory locks on the account and the address (for every instance on
 * the database; always the account first, so two attempts never wait on each other in a circle).
 * Undefined when throttled. Attempts older than the window are pruned here.
 */
export const reserveAttempt = async (ctx: Pick<AppContext, 'db' | 'now' | 'config' | 'kind'>, account: string, ip: string): Promise<SignInAttempt | undefined> => {
  const address = addressKey(ip);
  return ctx.db.transaction().execute(async (trx) => {
    if (ctx.kind === 'postgres') {
      await sql`select pg_advisory_xact_lock(${LOCK_ACCOUNT}, hashtext(${account}))`.execute(trx);
      await sql`select pg_advisory_xact_lock(${LOCK_ADDRESS}, hashtext(${address}))`.execute(trx);
    }
    const now = ctx.now();
    const counts = await countsOf(trx, account, address, now - THROTTLE_WINDOW_MS, now - KNOWN_ADDRESS_MS);
    if (refuses(ctx.config, counts)) return undefined;
    const { id } = await trx.insertInto('sign_in_attempts').values({ account, address, at: now }).returning('id').executeTakeFirstOrThrow();
    return { id, account, address };
  });
};

/**
 * A wrong password: the attempt stays as a failure. Failures older than the window and successes older than
 * the known-address period are deleted. `ctx.db` may be a transaction (the refusal's audit entry's).
 */
export const attemptFailed = async (ctx: Pick<AppContext, 'db' | 'now'>): Promise<void> => {
  const now = ctx.now();
  await ctx.db
    .deleteFrom('sign_in_attempts')
    .where((eb) =>
      eb.or([
        eb.and([eb('succeeded', '=', 0), eb('at', '<=', now - THROTTLE_WINDOW_MS)]),
        eb('at', '<=', now - KNOWN_ADDRESS_MS),
      ]),
    )
    .execute();
};

/** A right password at sign-in: the attempt becomes the pair's latest success, which makes the address known. */
export const attemptSignedIn = async (ctx: Pick<AppContext, 'db' | 'now'>, attempt: SignInAttempt): Promise<void> => {
  await ctx.db
    .deleteFrom('sign_in_attempts')
    .where('succeeded', '=', 1)
    .where('account', '=', attempt.account)
    .where('address', '=', attempt.address)
    .execute();
  await ctx.db.updateTable('sign_in_attempts').set({ succeeded: 1, at: ctx.now() }).where('id', '=', attempt.id).execute();
};

/** A right password elsewhere (a password change): the attempt is forgotten. */
export const attemptPassed = async (ctx: Pick<AppContext, 'db'>, attempt: SignInAttempt): Promise<void> => {
  await ctx.db.deleteFrom('sign_in_attempts').where('id', '=', attempt.id).execute();
};
