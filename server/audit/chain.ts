import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type Insertable, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

/**
 * The audit trail as a hash chain (docs/audit.md, "Tamper evidence"): each entry stores the hash of the
 * entry before it (`prev_hash`) and its own `hash`, sha256 over that previous hash and the entry's
 * content. Editing an entry breaks its own hash; removing or reordering entries breaks the next entry's
 * link; `verifyChain` walks the entries in id order and names the first that does not hold.
 *
 * One chain for every writer: an append reads the head (the entry with the highest id) and inserts after
 * it, inside the transaction of the change it records, and two transactions must never read the same head.
 * SQLite transactions here begin immediate (server/db/database.ts), so they already hold the write lock;
 * on PostgreSQL the append first takes a transaction-level advisory lock (released at commit), so every
 * instance sharing the database appends one after another, and ids are handed out in chain order.
 */

/** The `prev_hash` of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The advisory lock key of the chain's head on PostgreSQL: any constant unique in this database ("audit" in ASCII). */
const CHAIN_LOCK_KEY = 0x6175646974;

/** An audit entry's content: what its hash covers (everything but `id` and the hashes). */
export type AuditContent = Omit<Insertable<DB['audit_log']>, 'id' | 'prev_hash' | 'hash'>;

/** sha256 (hex) of the previous entry's hash and this content, as a JSON array in a fixed order. */
export const entryHash = (prevHash: string, entry: AuditContent): string =>
  createHash('sha256')
    .update(prevHash)
    .update(
      JSON.stringify([
        Number(entry.at),
        entry.actor_id ?? null,
        entry.actor_account,
        entry.action,
        entry.target_type,
        entry.target_id,
        entry.device_id ?? null,
        entry.address,
        entry.before ?? null,
        entry.after ?? null,
      ]),
    )
    .digest('hex');

/** Transactions that hold the chain's lock already (PostgreSQL): a second append in one skips taking it. */
const holdingLock = new WeakSet<Kysely<DB>>();

const lockChain = async (trx: Kysely<DB>): Promise<void> => {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter) || holdingLock.has(trx)) return;
  await sql`select pg_advisory_xact_lock(${sql.lit(CHAIN_LOCK_KEY)})`.execute(trx);
  holdingLock.add(trx);
};

/**
 * Text as the store gives it back: a lone surrogate (a name cut in the middle of an emoji) is written as
 * U+FFFD by either driver, so the hash must cover that, not the string the caller had.
 */
const asStored = (entry: AuditContent): AuditContent =>
  Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, typeof value === 'string' ? Buffer.from(value, 'utf8').toString('utf8') : value])) as AuditContent;

const append = async (trx: Kysely<DB>, written: AuditContent): Promise<void> => {
  const entry = asStored(written);
  await lockChain(trx);
  const head = await trx.selectFrom('audit_log').select('hash').orderBy('id', 'desc').limit(1).executeTakeFirst();
  const prevHash = head?.hash ?? GENESIS_HASH;
  await trx
    .insertInto('audit_log')
    .values({ ...entry, prev_hash: prevHash, hash: entryHash(prevHash, entry) })
    .execute();
};

/**
 * Appends an entry at the head of the chain: in `db`'s transaction when it is one (the change's own),
 * else in a transaction of its own. The only way an entry is written.
 */
export const appendAuditEntry = (db: Kysely<DB>, entry: AuditContent): Promise<void> =>
  db.isTransaction ? append(db, entry) : db.transaction().execute((trx) => append(trx, entry));

/** What a check of the chain found. */
export type ChainReport =
  | { ok: true; entries: number; head: { id: number; hash: string } | null }
  | {
      ok: false;
      /** Entries checked before the broken one. */
      entries: number;
      /** The first entry that does not hold, and why: `link` (the entry before it was removed, inserted or changed) or `content` (this entry was changed). */
      broken: { id: number; reason: 'link' | 'content' };
    };

const PAGE = 1000;

/**
 * Walks the whole chain in id order, a page at a time (it may be long), and answers the first entry whose
 * link or hash does not hold. Entries appended while it walks are checked too, when it reaches them.
 */
export const verifyChain = async (db: Kysely<DB>): Promise<ChainReport> => {
  let prev = { id: 0, hash: GENESIS_HASH };
  let entries = 0;
  for (;;) {
    const rows = await db.selectFrom('audit_log').selectAll().where('id', '>', prev.id).orderBy('id').limit(PAGE).execute();
    for (const row of rows) {
      const id = Number(row.id);
      if (row.prev_hash !== prev.hash) return { ok: false, entries, broken: { id, reason: 'link' } };
      if (row.hash !== entryHash(row.prev_hash, row)) return { ok: false, entries, broken: { id, reason: 'content' } };
      prev = { id, hash: row.hash };
      entries += 1;
    }
    if (rows.length < PAGE) return { ok: true, entries, head: entries === 0 ? null : prev };
  }
};

/**
 * Chains the entries written before the chain existed (migration 0019), oldest first, under the same lock
 * as an append. Used once; afterwards every entry is chained as it is written.
 */
export const chainExistingEntries = (db: Kysely<DB>): Promise<void> => {
  const chain = async (trx: Kysely<DB>): Promise<void> => {
    await lockChain(trx);
    let prev = { id: 0, hash: GENESIS_HASH };
    for (;;) {
      const rows = await trx.selectFrom('audit_log').selectAll().where('id', '>', prev.id).orderBy('id').limit(PAGE).execute();
      for (const row of rows) {
        const hash = entryHash(prev.hash, row);
        await trx.updateTable('audit_log').set({ prev_hash: prev.hash, hash }).where('id', '=', row.id).execute();
        prev = { id: Number(row.id), hash };
      }
      if (rows.length < PAGE) return;
    }
  };
  // PostgreSQL runs migrations in a transaction; SQLite does not, and one transaction makes the updates one write.
  return db.isTransaction ? chain(db) : db.transaction().execute(chain);
};
