import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/accounts/demo';
import { entryHash, GENESIS_HASH, verifyChain, type ChainReport } from '../../server/audit/chain';
import { recordAudit, SYSTEM_ACTOR } from '../../server/audit/trail';
import { createMigrator, migrateToLatest } from '../../server/db/migrations';
import { DEMO, login, tokenFor } from './http';
import { STORE_KINDS, useStore, type TestStore } from './stores';

/**
 * The audit trail's hash chain (docs/audit.md, "Tamper evidence") on both stores: entries written by the
 * server chain up; a row edited, removed or forged in the store is named by GET /api/v1/audit/verify and
 * by `npm run audit:verify`; two apps on one database appending at once keep one chain; the migration
 * chains the entries written before it.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** `npm run audit:verify` against this store, as an operator runs it: its exit code and output. */
const auditVerify = async (store: TestStore): Promise<{ code: number; out: string }> => {
  const target = store.config().database;
  const env = { PATH: process.env.PATH ?? '', DATA_DIR: store.dir, ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}) };
  try {
    const { stdout } = await run('node', ['--import', 'tsx', 'scripts/audit-verify.ts'], { cwd: ROOT, env });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
};

const verifyOver = async (app: FastifyInstance, token: string): Promise<ChainReport> => {
  const response = await app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers: { authorization: `Bearer ${token}` } });
  expect(response.statusCode).toBe(200);
  return response.json<ChainReport>();
};

const entryIds = async (store: TestStore): Promise<number[]> =>
  (await store.database.db.selectFrom('audit_log').select('id').orderBy('id').execute()).map((row) => Number(row.id));

describe.each(STORE_KINDS)('the audit chain (%s)', (kind) => {
  const store = useStore(kind);
  let app: FastifyInstance;
  let admin: string;

  beforeEach(async () => {
    await store.wipe();
    await seedDemo(store.context());
    app = await store.app();
    // Entries the server writes itself: sign-ins, refused sign-ins (an unknown name included).
    admin = await tokenFor(app, DEMO.admin.Account, DEMO.admin.Code);
    await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    await login(app, DEMO.first.Account, 'Wrong2026');
    await login(app, 'nobody', 'Wrong2026');
    await tokenFor(app, DEMO.second.Account, DEMO.second.Code);
  });

  it('chains every entry the server writes, and answers the head to the super administrator', async () => {
    const rows = await store.database.db.selectFrom('audit_log').select(['id', 'prev_hash', 'hash']).orderBy('id').execute();
    expect(rows.length).toBe(5);
    expect(rows[0]?.prev_hash).toBe(GENESIS_HASH);
    rows.slice(1).forEach((row, index) => expect(row.prev_hash).toBe(rows[index]?.hash));
    const last = rows.at(-1);
    expect(await verifyOver(app, admin)).toEqual({ ok: true, entries: 5, head: { id: Number(last?.id), hash: last?.hash } });
    expect(await auditVerify(store)).toMatchObject({ code: 0, out: expect.stringContaining(`audit trail intact: 5 entries`) });
  });

  it('is the super administrator\'s alone', async () => {
    const first = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    const response = await app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers: { authorization: `Bearer ${first}` } });
    expect(response.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/v1/audit/verify' })).statusCode).toBe(401);
  });

  it('names an entry whose content was edited in the store', async () => {
    const ids = await entryIds(store);
    const edited = ids[2] ?? 0;
    await store.database.db.updateTable('audit_log').set({ address: '198.51.100.7' }).where('id', '=', edited).execute();
    const report = await verifyOver(app, admin);
    expect(report).toEqual({ ok: false, entries: 2, broken: { id: edited, reason: 'content' } });
    const script = await auditVerify(store);
    expect(script.code).toBe(1);
    expect(script.out).toContain(`audit trail BROKEN at entry ${edited}: its content does not match its hash`);
  });

  it('names the entry after one removed, and one whose hash was forged to match its edit', async () => {
    const ids = await entryIds(store);
    await store.database.db.deleteFrom('audit_log').where('id', '=', ids[1] ?? 0).execute();
    expect(await verifyOver(app, admin)).toEqual({ ok: false, entries: 1, broken: { id: ids[2], reason: 'link' } });
    expect((await auditVerify(store)).out).toContain(`BROKEN at entry ${ids[2]}: it does not follow the entry before it`);

    // A forger who recomputes the edited entry's own hash breaks the link of the entry after it instead.
    await store.wipe();
    await seedDemo(store.context());
    for (const action of ['auth.signIn', 'auth.signOut', 'auth.signIn'] as const) {
      await recordAudit(store.database.db, SYSTEM_ACTOR, { action, targetType: 'account', targetId: 'admin' }, 1_767_600_000_000);
    }
    const [, two, three] = await entryIds(store);
    const { db } = store.database;
    const row = await db.selectFrom('audit_log').selectAll().where('id', '=', two ?? 0).executeTakeFirstOrThrow();
    const forged = { ...row, action: 'auth.signIn' };
    await db.updateTable('audit_log').set({ action: forged.action, hash: entryHash(row.prev_hash ?? '', forged) }).where('id', '=', two ?? 0).execute();
    expect(await verifyChain(db)).toEqual({ ok: false, entries: 2, broken: { id: three, reason: 'link' } });
  });

  it('keeps one chain while several transactions, and on PostgreSQL two apps on the same database, append at once', async () => {
    // Two SQLite connections in one thread cannot wait for each other (better-sqlite3 blocks the thread while
    // it waits for the lock), so on SQLite the appends share the app's one connection, as in a server process.
    const other = kind === 'postgres' ? await store.app() : app;
    const append = (target: FastifyInstance, n: number) =>
      target.ctx.db.transaction().execute(async (trx) => {
        // Two entries in one transaction, as a change that records two.
        await recordAudit(trx, SYSTEM_ACTOR, { action: 'order.expired', targetType: 'order', targetId: `A${n}` }, 1_767_600_000_000 + n);
        await recordAudit(trx, SYSTEM_ACTOR, { action: 'order.finished', targetType: 'order', targetId: `B${n}` }, 1_767_600_000_000 + n);
      });
    const rounds = Array.from({ length: 25 }, (_, n) => n);
    await Promise.all([
      ...rounds.map((n) => append(app, n)),
      ...rounds.map((n) => append(other, 100 + n)),
      // Outside a transaction: recordAudit opens its own.
      ...rounds.map((n) => recordAudit(other.ctx.db, SYSTEM_ACTOR, { action: 'auth.signOut', targetType: 'account', targetId: `C${n}` }, n)),
    ]);
    expect(await verifyChain(store.database.db)).toMatchObject({ ok: true, entries: 5 + 25 * 5 });
    // No two entries follow the same one (a fork).
    const links = await store.database.db.selectFrom('audit_log').select('prev_hash').execute();
    expect(new Set(links.map((row) => row.prev_hash)).size).toBe(links.length);
  });

  it('chains the entries written before the chain existed when it migrates', async () => {
    const { db } = store.database;
    const migrator = createMigrator(store.database);
    const down = await migrator.migrateTo('0018_pressure_high_rated_max');
    expect(down.error).toBeUndefined();
    const legacy = await sql<{ id: number }>`select id from audit_log order by id`.execute(db);
    expect(legacy.rows.length).toBe(5);
    await migrateToLatest(store.database);
    const report = await verifyChain(db);
    expect(report).toMatchObject({ ok: true, entries: 5 });
    // And the chain goes on from there.
    await login(app, 'nobody', 'Wrong2026');
    expect(await verifyChain(db)).toMatchObject({ ok: true, entries: 6 });
  });
});
