import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../server/accounts/service';
import { createDatabase } from '../../server/db/database';
import { createMigrator, MIGRATION_NAMES, migrateToLatest } from '../../server/db/migrations';
import { STORE_KINDS, useStore } from './stores';

describe.each(STORE_KINDS)('database (%s)', (kind) => {
  const store = useStore(kind);

  it('migrations are idempotent: a second and third run change nothing', async () => {
    const database = createDatabase(store.config());
    try {
      // useStore already migrated this store once.
      for (let run = 0; run < 2; run += 1) {
        const result = await migrateToLatest(database);
        expect(result.results).toEqual([]);
      }
      const migrations = await createMigrator(database).getMigrations();
      expect(migrations.map((migration) => migration.name)).toEqual(MIGRATION_NAMES);
      expect(migrations.every((migration) => migration.executedAt instanceof Date)).toBe(true);
    } finally {
      await database.db.destroy();
    }
  });

  it('apps on an already migrated store migrate to nothing, concurrently too', async () => {
    const [a, b] = await Promise.all([store.app({ migrate: false }), store.app({ migrate: false })]);
    const results = await Promise.all([migrateToLatest(a.ctx), migrateToLatest(b.ctx)]);
    expect(results.map((result) => result.results)).toEqual([[], []]);
  });

  it('reads times and counts back as numbers (int8 parsed on PostgreSQL)', async () => {
    const ctx = store.context(undefined, () => 1_767_600_000_123);
    const row = await createAccount(ctx, { account: `t${Date.now()}`, password: 'Time2026x', level: 0, subId: null });
    const read = await ctx.db.selectFrom('accounts').select(['created_at', 'updated_at']).where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(read).toEqual({ created_at: 1_767_600_000_123, updated_at: 1_767_600_000_123 });
    const count = await ctx.db.selectFrom('accounts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(typeof count.n).toBe('number');
  });

  it('enforces the upper-administrator foreign key', async () => {
    const ctx = store.context();
    await expect(
      ctx.db
        .insertInto('accounts')
        .values({ account: 'dangling', password_hash: 'x', level: 3, sub_id: 987_654, must_change_code: 0, disabled: 0, avatar: '', created_at: 1, updated_at: 1 })
        .execute(),
    ).rejects.toThrow();
  });

  if (kind === 'sqlite') {
    it('sets the SQLite pragmas on the connection: WAL, synchronous, foreign keys, busy timeout', async () => {
      const app = await store.app();
      const pragma = async (name: string) => {
        const result = await sql<Record<string, unknown>>`${sql.raw(`PRAGMA ${name}`)}`.execute(app.ctx.db);
        return Object.values(result.rows[0] ?? {})[0];
      };
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(1); // NORMAL
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
      // Checkpoints far apart (docs/ingest.md, "Checkpoints"), on every connection alike.
      expect(await pragma('wal_autocheckpoint')).toBe(20_000);

      const full = await store.app({ env: { SQLITE_SYNCHRONOUS: 'full' } });
      const result = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(full.ctx.db);
      expect(result.rows[0]?.synchronous).toBe(2); // FULL
    });
  }
});

describe('PostgreSQL connections', () => {
  const store = useStore('postgres');
  const setting = async (database: ReturnType<typeof createDatabase>, name: 'jit' | 'statement_timeout') =>
    (await sql<{ value: string }>`select current_setting(${name}) as value`.execute(database.db)).rows[0]?.value;

  it('run without JIT compiling, and keep the options given in DATABASE_URL', async () => {
    const config = store.config();
    if (config.database.kind !== 'postgres') throw new Error('a PostgreSQL store');
    const plain = createDatabase(config);
    const url = new URL(config.database.url);
    url.searchParams.set('options', '-c statement_timeout=4321');
    const withOptions = createDatabase({ ...config, database: { kind: 'postgres', url: url.toString() } });
    try {
      expect(await setting(plain, 'jit')).toBe('off');
      expect(await setting(withOptions, 'jit')).toBe('off');
      expect(await setting(withOptions, 'statement_timeout')).toBe('4321ms');
    } finally {
      await plain.db.destroy();
      await withOptions.db.destroy();
    }
  });
});
