import { sql, type Kysely, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../server/accounts/service';
import { createDatabase } from '../../server/db/database';
import { createMigrator, MIGRATION_NAMES, migrateToLatest } from '../../server/db/migrations';
import type { DB } from '../../server/db/schema';
import { transact } from '../../server/db/transact';
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

  describe('a transaction chosen as a deadlock\'s victim', () => {
    /**
     * Two transactions taking the rows 1 and 2 in opposite orders, each waiting until the other holds its
     * first row (on its first attempt only): PostgreSQL must break that cycle by aborting one of them.
     */
    const crossing = async <T>(run: (db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<string>) => Promise<T>) => {
      const db = store.database.db;
      await sql`create table crossing_rows (id integer primary key, n integer not null)`.execute(db);
      await sql`insert into crossing_rows values (1, 0), (2, 0)`.execute(db);
      let attempts = 0;
      let arrived = 0;
      let bothHold: () => void = () => undefined;
      const holding = new Promise<void>((resolve) => (bothHold = resolve));
      const taking = (first: number, second: number) => async (trx: Transaction<DB>) => {
        attempts += 1;
        await sql`update crossing_rows set n = n + 1 where id = ${first}`.execute(trx);
        if ((arrived += 1) === 2) bothHold();
        await holding;
        await sql`update crossing_rows set n = n + 1 where id = ${second}`.execute(trx);
        return `${first} then ${second}`;
      };
      try {
        const outcomes = await Promise.allSettled([run(db, taking(1, 2)), run(db, taking(2, 1))]);
        const rows = await sql<{ n: number }>`select n from crossing_rows order by id`.execute(db);
        return { outcomes, attempts, counts: rows.rows.map((row) => Number(row.n)) };
      } finally {
        await sql`drop table crossing_rows`.execute(db);
      }
    };

    it('fails one of the two when run once, so the race is real', async () => {
      const { outcomes, counts } = await crossing((db, work) => db.transaction().execute(work));
      const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ reason: { code: '40P01' } });
      expect(counts).toEqual([1, 1]);
    });

    it('is run again by transact: both finish, each change counted once', async () => {
      const { outcomes, attempts, counts } = await crossing(transact);
      expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.reason))).toEqual(['1 then 2', '2 then 1']);
      expect(attempts).toBe(3);
      expect(counts).toEqual([2, 2]);
    });

    it('is not run again for an error that is not a lost race', async () => {
      let attempts = 0;
      const refused = transact(store.database.db, async (trx) => {
        attempts += 1;
        await sql`select 1 / 0`.execute(trx);
      });
      await expect(refused).rejects.toMatchObject({ code: '22012' });
      expect(attempts).toBe(1);
    });
  });
});
