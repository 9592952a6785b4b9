import { Migrator, sql, type CreateTableBuilder, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database, DatabaseKind } from './database';

/**
 * Numbered migrations, in code (no filesystem globbing). Kysely runs them in name order, so names
 * start with a zero-padded number. Never edit a migration that has shipped: add the next one.
 * Later issues add devices, orders, state records and the audit log as 0002_…, 0003_…
 */

/** An auto-increment integer primary key `id`, spelled as each store wants it. */
const addId =
  (kind: DatabaseKind) =>
  <T extends string>(table: CreateTableBuilder<T>) =>
    kind === 'sqlite'
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity());

const migrationsFor = (kind: DatabaseKind): Record<string, Migration> => {
  const withId = addId(kind);
  return {
    '0001_accounts_sessions_login_failures': {
      async up(db: Kysely<unknown>) {
        await withId(db.schema.createTable('accounts'))
          .addColumn('account', 'varchar(64)', (col) => col.notNull().unique())
          .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
          .addColumn('level', 'integer', (col) => col.notNull().defaultTo(3))
          .addColumn('sub_id', 'integer', (col) => col.references('accounts.id').onDelete('restrict'))
          .addColumn('must_change_code', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('disabled', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('avatar', 'varchar(1024)', (col) => col.notNull().defaultTo(''))
          .addColumn('created_at', 'bigint', (col) => col.notNull())
          .addColumn('updated_at', 'bigint', (col) => col.notNull())
          .addCheckConstraint('accounts_level_range', sql`level between 0 and 3`)
          .execute();
        await db.schema.createIndex('accounts_sub_id').on('accounts').column('sub_id').execute();

        await db.schema
          .createTable('sessions')
          .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
          .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('created_at', 'bigint', (col) => col.notNull())
          .addColumn('last_used_at', 'bigint', (col) => col.notNull())
          .addColumn('expires_at', 'bigint', (col) => col.notNull())
          .addColumn('revoked_at', 'bigint')
          .execute();
        await db.schema.createIndex('sessions_account_id').on('sessions').column('account_id').execute();
        await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

        await withId(db.schema.createTable('login_failures'))
          .addColumn('kind', 'varchar(16)', (col) => col.notNull())
          .addColumn('key', 'varchar(255)', (col) => col.notNull())
          .addColumn('at', 'bigint', (col) => col.notNull())
          .execute();
        await db.schema
          .createIndex('login_failures_kind_key_at')
          .on('login_failures')
          .columns(['kind', 'key', 'at'])
          .execute();
        await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('login_failures').execute();
        await db.schema.dropTable('sessions').execute();
        await db.schema.dropTable('accounts').execute();
      },
    },
  };
};

/** The migration names, in order. */
export const MIGRATION_NAMES = Object.keys(migrationsFor('sqlite')).sort();

export const createMigrator = (database: Database): Migrator =>
  new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrationsFor(database.kind) },
  });

/** Brings the schema to the latest migration; safe to run on every start and concurrently. */
export const migrateToLatest = async (database: Database): Promise<MigrationResultSet> => {
  const result = await createMigrator(database).migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((item) => item.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: result.error });
  }
  return result;
};
