import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema';

/**
 * bench:history's PostgreSQL layouts of the time series (docs/performance.md, "Time series on PostgreSQL"),
 * applied to a freshly migrated database before the seed, so the seed pays each layout's write cost:
 *   - plain: the schema as migrated (the readings' (device_id, time) and (time, device_id) btrees, the
 *     rollups' (device_id, bucket_ms, start) primary key);
 *   - brin: plain plus a BRIN index on the readings' time and one on the rollups' start;
 *   - partman: the readings and the rollups as tables partitioned by month of their time, the partitions
 *     created and kept by pg_partman (its `run_maintenance` makes the coming months').
 */
const PG_LAYOUTS = ['plain', 'brin', 'partman'] as const;
export type PgLayout = (typeof PG_LAYOUTS)[number];

export const pgLayoutSetting = (): PgLayout => {
  const value = process.env.BENCH_PG_LAYOUT ?? 'plain';
  const layout = PG_LAYOUTS.find((name) => name === value);
  if (layout === undefined) throw new Error(`BENCH_PG_LAYOUT must be one of ${PG_LAYOUTS.join(', ')} (got "${value}")`);
  return layout;
};

const addBrin = async (db: Kysely<DB>): Promise<void> => {
  await sql`create index state_records_time_brin on state_records using brin (time)`.execute(db);
  await sql`create index reading_rollups_start_brin on reading_rollups using brin (start)`.execute(db);
};

/** The month `ms` lies in, as pg_partman's first partition. */
const monthOf = (ms: number): string => `${new Date(ms).toISOString().slice(0, 7)}-01`;

/**
 * `table` rebuilt, empty, as a table partitioned by month of `column` (epoch milliseconds), with the same
 * columns, defaults, indexes, foreign keys and triggers. A partitioned table's unique indexes must hold the
 * partition key, so the readings' `id` key becomes (id, time); its identity becomes a plain sequence
 * (PostgreSQL 15 has no identity on a partitioned table).
 */
const partitionByMonth = async (db: Kysely<DB>, table: 'state_records' | 'reading_rollups', column: string, since: number): Promise<void> => {
  const old = `${table}_unpartitioned`;
  await sql`alter table ${sql.table(table)} rename to ${sql.table(old)}`.execute(db);
  const { rows: triggers } = await sql<{ definition: string }>`select pg_get_triggerdef(oid) as definition from pg_trigger
    where tgrelid = ${old}::regclass and not tgisinternal`.execute(db);
  const { rows: indexes } = await sql<{ definition: string }>`select pg_get_indexdef(indexrelid) as definition from pg_index
    where indrelid = ${old}::regclass and not indisprimary`.execute(db);
  const { rows: foreignKeys } = await sql<{ definition: string }>`select pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = ${old}::regclass and contype = 'f'`.execute(db);
  if (table === 'state_records') {
    await sql`create sequence state_records_id`.execute(db);
    await sql`create table state_records (like state_records_unpartitioned including defaults, primary key (id, time)) partition by range (time)`.execute(db);
    await sql`alter table state_records alter column id set default nextval('state_records_id')`.execute(db);
  } else {
    await sql`create table reading_rollups (like reading_rollups_unpartitioned including defaults including constraints, primary key (device_id, bucket_ms, start))
      partition by range (start)`.execute(db);
  }
  await sql`drop table ${sql.table(old)}`.execute(db);
  const onOld = new RegExp(`\\b${old}\\b`, 'g');
  for (const { definition } of [...indexes, ...triggers]) await sql.raw(definition.replace(onOld, table)).execute(db);
  for (const { definition } of foreignKeys) await sql.raw(`alter table ${table} add ${definition}`).execute(db);
  await sql`select partman.create_parent(p_parent_table => ${`public.${table}`}, p_control => ${column}, p_type => 'native', p_interval => 'monthly',
    p_epoch => 'milliseconds', p_premake => 4, p_start_partition => ${monthOf(since)})`.execute(db);
};

/** The layout applied to an empty, migrated database; `since` is the seed's oldest time. */
export const applyPgLayout = async (db: Kysely<DB>, layout: PgLayout, since: number): Promise<void> => {
  if (layout === 'brin') await addBrin(db);
  if (layout !== 'partman') return;
  await sql`create schema if not exists partman`.execute(db);
  await sql`create extension if not exists pg_partman schema partman`.execute(db);
  await partitionByMonth(db, 'state_records', 'time', since);
  await partitionByMonth(db, 'reading_rollups', 'start', since);
};

/** Bytes of `table` with its indexes and TOAST, its partitions' included. */
export const pgTableBytes = async (db: Kysely<DB>, table: string): Promise<number> => {
  // pg_partition_tree lists nothing for a table that is not partitioned.
  const { rows } = await sql<{ bytes: string | null }>`select coalesce(sum(pg_total_relation_size(relid)), pg_total_relation_size(${table}::regclass)) as bytes
    from pg_partition_tree(${table}::regclass)`.execute(db);
  return Number(rows[0]?.bytes ?? 0);
};
