import { Migrator, sql, type CreateTableBuilder, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { chainExistingEntries } from '../audit/chain';
import type { Database, DatabaseKind } from './database';
import type { DB } from './schema';
import { statsSummariesMigration } from './statsSummaries';

/**
 * Numbered migrations, in code (no filesystem globbing). Kysely runs them in name order, so names
 * start with a zero-padded number. Never edit a migration that has shipped: add the next one.
 * 0002–0004 add devices and their assignment to accounts, orders and state records; the
 * values in their check constraints are written out here, not imported, so a migration never changes.
 * 0005 adds the audit trail; 0006 and 0007 what telemetry and commands keep; 0008 the
 * device list's sort indexes; 0009 the message box; 0012 the readings' rollups (docs/ingest.md, "Rollups");
 * 0013 the device types, seeded with five named ones; 0014 the safety alarms; 0016 the orders' indexes by
 * booking time and session start; 0017 the alarms' messages; 0018 the high pressure alarm follows each
 * type's rated maximum; 0019 chains the audit entries (server/audit/chain.ts); 0020 keeps removed devices
 * with history; 0021 replaces the sign-in failures by attempts counted per (address, account) pair; 0022 the
 * settings requests of parameter approval; 0023 the user settings: where sessions started, basic
 * information and operators' certificates; 0024 the analysis' covering indexes (docs/analysis.md,
 * "Speed"); 0025 the notification channels, subscriptions, quiet hours,
 * outbox and escalations (docs/notifications.md); 0026 the template forms' submissions; 0027 the certificate an
 * approver's todo is about; 0028 the analysis' summaries per chamber and day and week and for the fleet per day
 * and hour, kept by triggers (server/db/statsSummaries.ts); 0029 PostgreSQL's statistics of the rollups'
 * chambers and widths together.
 */

/** An auto-increment integer primary key `id`, spelled as each store wants it. */
const addId =
  (kind: DatabaseKind) =>
  <T extends string>(table: CreateTableBuilder<T>) =>
    kind === 'sqlite'
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity());

/**
 * A 64-bit row id for tables that grow without bound (state records: one a second per chamber in use).
 * SQLite's `integer primary key` is the 64-bit rowid (no AUTOINCREMENT bookkeeping on every insert).
 */
const addBigId =
  (kind: DatabaseKind) =>
  <T extends string>(table: CreateTableBuilder<T>) =>
    kind === 'sqlite'
      ? table.addColumn('id', 'integer', (col) => col.primaryKey())
      : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity());

/** The readings of `reading_rollups` (0012), as its columns are named: what 0030 sums into days too. */
const ROLLUP_READINGS = ['rcp', 'sp', 'rrd', 'rcpi02', 'rgpi02', 'rct', 'rcrh', 'rap', 'hm_hr', 'hm_sp02', 'hm_bp_sys', 'hm_bp_dia'] as const;

const migrationsFor = (kind: DatabaseKind): Record<string, Migration> => {
  const withId = addId(kind);
  const withBigId = addBigId(kind);
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
    '0002_devices_account_devices': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('devices')
          .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
          .addColumn('name', 'varchar(64)', (col) => col.notNull())
          .addColumn('type', 'integer', (col) => col.notNull())
          .addColumn('permission', 'varchar(8)', (col) => col.notNull().defaultTo('Close'))
          .addColumn('location', 'varchar(128)', (col) => col.notNull().defaultTo(''))
          .addColumn('state', 'varchar(8)', (col) => col.notNull().defaultTo('Stop'))
          .addColumn('order_num', 'varchar(64)')
          .addColumn('erd', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('online', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('last_seen_at', 'bigint')
          .addColumn('secret_hash', 'varchar(255)')
          .addColumn('created_at', 'bigint', (col) => col.notNull())
          .addColumn('updated_at', 'bigint', (col) => col.notNull())
          .addCheckConstraint('devices_type_range', sql`type between 1 and 5`)
          .addCheckConstraint('devices_permission_values', sql`permission in ('Open', 'Close')`)
          .addCheckConstraint('devices_state_values', sql`state in ('Work', 'Stop', 'Repair')`)
          .execute();

        await db.schema
          .createTable('account_devices')
          .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('device_id', 'varchar(64)', (col) => col.notNull().references('devices.id').onDelete('cascade'))
          .addColumn('created_at', 'bigint', (col) => col.notNull())
          .addPrimaryKeyConstraint('account_devices_pk', ['account_id', 'device_id'])
          .execute();
        await db.schema.createIndex('account_devices_device_id').on('account_devices').column('device_id').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('account_devices').execute();
        await db.schema.dropTable('devices').execute();
      },
    },
    '0003_orders': {
      async up(db: Kysely<unknown>) {
        // History is kept: a device with orders cannot be deleted until they are dealt with.
        await withId(db.schema.createTable('orders'))
          .addColumn('order_num', 'varchar(64)', (col) => col.notNull().unique())
          .addColumn('device_id', 'varchar(64)', (col) => col.notNull().references('devices.id'))
          .addColumn('time', 'bigint', (col) => col.notNull())
          .addColumn('set_t', 'bigint')
          .addColumn('oc', 'varchar(32)')
          .addColumn('open_id', 'varchar(64)')
          .addColumn('is_used', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('is_pass', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('finished_at', 'bigint')
          .execute();
        await db.schema.createIndex('orders_device_id_time').on('orders').columns(['device_id', 'time']).execute();
        await db.schema.createIndex('orders_time').on('orders').columns(['time', 'id']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('orders').execute();
      },
    },
    '0004_state_records': {
      async up(db: Kysely<unknown>) {
        const reading = 'double precision' as const;
        await withBigId(db.schema.createTable('state_records'))
          .addColumn('device_id', 'varchar(64)', (col) => col.notNull().references('devices.id'))
          .addColumn('time', 'bigint', (col) => col.notNull())
          .addColumn('l', 'integer')
          .addColumn('sp', reading)
          .addColumn('st', reading)
          .addColumn('ss', 'varchar(1)')
          .addColumn('sl', 'integer')
          .addColumn('sa', 'integer')
          .addColumn('rcp', reading)
          .addColumn('rrd', reading)
          .addColumn('rcpi02', reading)
          .addColumn('rgpi02', reading)
          .addColumn('rct', reading)
          .addColumn('rcrh', reading)
          .addColumn('hm_hr', reading)
          .addColumn('hm_sp02', reading)
          .addColumn('hm_bp', 'varchar(16)')
          .execute();
        // A reading is its device and Time (stored once); the same index lists a device's readings by time.
        await db.schema
          .createIndex('state_records_device_id_time')
          .on('state_records')
          .columns(['device_id', 'time'])
          .unique()
          .execute();
        // Every device's readings by time (the super administrator's unfiltered list).
        await db.schema.createIndex('state_records_time').on('state_records').columns(['time', 'device_id']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('state_records').execute();
      },
    },
    '0005_audit_log': {
      async up(db: Kysely<unknown>) {
        // No foreign keys: an entry outlives the account or device it names.
        await withBigId(db.schema.createTable('audit_log'))
          .addColumn('at', 'bigint', (col) => col.notNull())
          .addColumn('actor_id', 'integer')
          .addColumn('actor_account', 'varchar(64)', (col) => col.notNull())
          .addColumn('action', 'varchar(64)', (col) => col.notNull())
          .addColumn('target_type', 'varchar(32)', (col) => col.notNull())
          .addColumn('target_id', 'varchar(128)', (col) => col.notNull())
          .addColumn('device_id', 'varchar(64)')
          .addColumn('address', 'varchar(64)', (col) => col.notNull())
          .addColumn('before', 'text')
          .addColumn('after', 'text')
          .execute();
        await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
        await db.schema.createIndex('audit_log_actor_id_at').on('audit_log').columns(['actor_id', 'at']).execute();
        await db.schema.createIndex('audit_log_device_id_at').on('audit_log').columns(['device_id', 'at']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('audit_log').execute();
      },
    },
    '0006_device_telemetry': {
      async up(db: Kysely<unknown>) {
        // What ingestion keeps per device: the newest reading as its telemetry JSON, and the running session.
        await db.schema.alterTable('devices').addColumn('latest', 'text').execute();
        await db.schema.alterTable('devices').addColumn('session_oc', 'varchar(32)').execute();
        await db.schema.alterTable('devices').addColumn('session_started_at', 'bigint').execute();
      },
      async down(db: Kysely<unknown>) {
        for (const column of ['latest', 'session_oc', 'session_started_at']) await db.schema.alterTable('devices').dropColumn(column).execute();
      },
    },
    '0007_device_commands': {
      async up(db: Kysely<unknown>) {
        // Every command sent to a device and what became of it; no foreign keys, like the audit trail.
        await db.schema
          .createTable('device_commands')
          .addColumn('cmd_id', 'varchar(64)', (col) => col.primaryKey())
          .addColumn('device_id', 'varchar(64)', (col) => col.notNull())
          .addColumn('type', 'varchar(16)', (col) => col.notNull())
          .addColumn('payload', 'text', (col) => col.notNull())
          .addColumn('status', 'varchar(16)', (col) => col.notNull())
          .addColumn('error', 'varchar(255)')
          .addColumn('issued_by', 'integer')
          .addColumn('issued_at', 'bigint', (col) => col.notNull())
          .addColumn('answered_at', 'bigint')
          .execute();
        await db.schema.createIndex('device_commands_device_id_issued_at').on('device_commands').columns(['device_id', 'issued_at']).execute();
        await db.schema.createIndex('device_commands_status_issued_at').on('device_commands').columns(['status', 'issued_at']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('device_commands').execute();
      },
    },
    '0008_devices_sort_indexes': {
      async up(db: Kysely<unknown>) {
        // The device list's sorts by name and UpdateTime read these in order instead of sorting (server/devices/list.ts).
        // Telemetry writes neither column, so ingestion never updates them.
        await db.schema.createIndex('devices_name_id').on('devices').columns(['name', 'id']).execute();
        await db.schema.createIndex('devices_updated_at_id').on('devices').columns(['updated_at', 'id']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('devices_updated_at_id').execute();
        await db.schema.dropIndex('devices_name_id').execute();
      },
    },
    '0009_messages': {
      async up(db: Kysely<unknown>) {
        // Each account's message box (docs/messages.md): what made a message and its parameters, rendered in the
        // reader's language when listed. No foreign key, like the audit trail.
        await withBigId(db.schema.createTable('messages'))
          .addColumn('account_id', 'integer', (col) => col.notNull())
          .addColumn('type', 'varchar(16)', (col) => col.notNull())
          .addColumn('kind', 'varchar(32)', (col) => col.notNull())
          .addColumn('params', 'text', (col) => col.notNull())
          .addColumn('created_at', 'bigint', (col) => col.notNull())
          .addColumn('read_at', 'bigint')
          .execute();
        // The box's pages (newest first, per type) and its unread counts.
        await db.schema.createIndex('messages_account_id_type_created_at').on('messages').columns(['account_id', 'type', 'created_at', 'id']).execute();
        await db.schema.createIndex('messages_account_id_created_at').on('messages').columns(['account_id', 'created_at', 'id']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('messages').execute();
      },
    },
    '0010_state_records_rap': {
      async up(db: Kysely<unknown>) {
        // Atmospheric pressure (kPa), which telemetry carried before it had a column.
        await db.schema.alterTable('state_records').addColumn('rap', 'double precision').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('state_records').dropColumn('rap').execute();
      },
    },
    '0011_devices_in_session': {
      async up(db: Kysely<unknown>) {
        // The device list's "in session" filter (0/1, like the other flags): kept by the store from session_oc,
        // so ingestion's session events write nothing more. SQLite adds only virtual generated columns.
        const inSession = sql`case when session_oc is null then 0 else 1 end`;
        await db.schema
          .alterTable('devices')
          .addColumn('in_session', 'integer', (col) => (kind === 'sqlite' ? col.generatedAlwaysAs(inSession) : col.generatedAlwaysAs(inSession).stored()))
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('devices').dropColumn('in_session').execute();
      },
    },
    '0013_device_types': {
      async up(db: Kysely<unknown>) {
        // Types 1 to 5 are fixed (a device's Type is 1–5); an admin edits their name and rated maximum (docs/device-types.md).
        await db.schema
          .createTable('device_types')
          .addColumn('id', 'integer', (col) => col.primaryKey())
          .addColumn('name', 'varchar(32)', (col) => col.notNull())
          .addColumn('rated_max_ata', 'double precision', (col) => col.notNull().defaultTo(2.0))
          .addColumn('updated_at', 'bigint', (col) => col.notNull())
          .addCheckConstraint('device_types_id_range', sql`id between 1 and 5`)
          .addCheckConstraint('device_types_rated_max_ata_range', sql`rated_max_ata between 1.0 and 3.0`)
          .execute();
        const at = Date.now();
        const defaults: [number, string, number][] = [
          [1, '单人软体舱', 1.3],
          [2, '单人硬体舱', 1.5],
          [3, '双人舱', 1.5],
          [4, '多人舱', 1.5],
          [5, '医用加压舱', 2.0],
        ];
        await (db as Kysely<{ device_types: { id: number; name: string; rated_max_ata: number; updated_at: number } }>)
          .insertInto('device_types')
          .values(defaults.map(([id, name, rated_max_ata]) => ({ id, name, rated_max_ata, updated_at: at })))
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('device_types').execute();
      },
    },
    '0012_reading_rollups': {
      async up(db: Kysely<unknown>) {
        // Per device, per minute (bucket_ms 60000) and per hour (3600000): min, max, sum and count of each numeric
        // reading of the readings stored in that bucket, recomputed from the raw rows (server/telemetry/rollups.ts).
        let table = db.schema
          .createTable('reading_rollups')
          .addColumn('device_id', 'varchar(64)', (col) => col.notNull().references('devices.id').onDelete('cascade'))
          .addColumn('bucket_ms', 'integer', (col) => col.notNull())
          .addColumn('start', 'bigint', (col) => col.notNull());
        for (const reading of ROLLUP_READINGS) {
          table = table
            .addColumn(`${reading}_min`, 'double precision')
            .addColumn(`${reading}_max`, 'double precision')
            .addColumn(`${reading}_sum`, 'double precision', (col) => col.notNull().defaultTo(0))
            .addColumn(`${reading}_n`, 'integer', (col) => col.notNull().defaultTo(0));
        }
        // A device's buckets of one width by time: the history's range reads and the upsert's conflict target.
        // On SQLite the rows are stored in that order (without rowid), so a range is read in one pass.
        table = table.addPrimaryKeyConstraint('reading_rollups_pk', ['device_id', 'bucket_ms', 'start']);
        await (kind === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('reading_rollups').execute();
      },
    },
    '0014_alarms': {
      async up(db: Kysely<unknown>) {
        // The safety alarms (docs/alarms.md): the rules of each device type, seeded with the product's defaults
        // written out here (a migration never changes), the alarms and every transition of each.
        await withId(db.schema.createTable('alarm_rules'))
          .addColumn('device_type', 'integer', (col) => col.notNull())
          .addColumn('kind', 'varchar(32)', (col) => col.notNull())
          .addColumn('priority', 'varchar(8)', (col) => col.notNull())
          .addColumn('above', 'double precision')
          .addColumn('below', 'double precision')
          .addColumn('high_above', 'double precision')
          .addColumn('high_below', 'double precision')
          .addColumn('at_limit', 'integer', (col) => col.notNull())
          .addColumn('on_delay_s', 'integer', (col) => col.notNull())
          .addColumn('off_delay_s', 'integer', (col) => col.notNull())
          .addColumn('deadband', 'double precision', (col) => col.notNull())
          .addColumn('enabled', 'integer', (col) => col.notNull())
          .addColumn('updated_at', 'bigint', (col) => col.notNull())
          .addUniqueConstraint('alarm_rules_device_type_kind', ['device_type', 'kind'])
          .execute();
        type Seed = [kind: string, priority: string, above: number | null, below: number | null, highAbove: number | null, highBelow: number | null, atLimit: number, on: number, off: number, deadband: number];
        const defaults: Seed[] = [
          ['o2-high', 'medium', 23.0, null, 23.5, null, 1, 3, 10, 0.2],
          // above: ATA over the set point; high: the rated maximum pressure of a type (2.0 ATA by default).
          ['pressure-high', 'medium', 0.1, null, 2.0, null, 0, 3, 10, 0.02],
          ['pressure-rate', 'medium', 0.1, null, null, null, 0, 10, 30, 0],
          ['temperature', 'medium', 26, 18, 30, null, 0, 30, 60, 0.5],
          ['humidity', 'low', 85, 50, null, null, 0, 60, 60, 2],
          ['spo2-low', 'medium', null, 94, null, 90, 0, 10, 10, 1],
          ['heart-rate', 'medium', 120, 50, 140, 40, 0, 10, 10, 3],
          ['blood-pressure', 'medium', 160, null, 180, null, 1, 0, 0, 0],
          ['offline', 'medium', null, null, null, null, 0, 0, 0, 0],
          ['erd', 'medium', null, null, null, null, 0, 0, 0, 0],
        ];
        const at = Date.now();
        await (db as Kysely<{ alarm_rules: Record<string, unknown> }>)
          .insertInto('alarm_rules')
          .values(
            [1, 2, 3, 4, 5].flatMap((type) =>
              defaults.map(([kind, priority, above, below, high_above, high_below, at_limit, on_delay_s, off_delay_s, deadband]) => ({
                device_type: type,
                kind,
                priority,
                above,
                below,
                high_above,
                high_below,
                at_limit,
                on_delay_s,
                off_delay_s,
                deadband,
                enabled: 1,
                updated_at: at,
              })),
            ),
          )
          .execute();
        // No foreign keys, like the audit trail: an alarm outlives the device it names.
        await withBigId(db.schema.createTable('alarms'))
          .addColumn('device_id', 'varchar(64)', (col) => col.notNull())
          .addColumn('kind', 'varchar(32)', (col) => col.notNull())
          .addColumn('priority', 'varchar(8)', (col) => col.notNull())
          .addColumn('state', 'varchar(16)', (col) => col.notNull())
          // 1 while the rule's condition stands: where a shelved or suppressed alarm goes when it comes back.
          .addColumn('condition', 'integer', (col) => col.notNull())
          .addColumn('value', 'double precision')
          .addColumn('threshold', 'double precision')
          .addColumn('raised_at', 'bigint', (col) => col.notNull())
          .addColumn('acked_at', 'bigint')
          .addColumn('acked_by', 'varchar(64)')
          .addColumn('closed_at', 'bigint')
          .addColumn('shelved_until', 'bigint')
          .addColumn('comment', 'varchar(500)')
          .execute();
        // One open alarm per device and rule, whatever races: on both stores, a partial unique index.
        await db.schema
          .createIndex('alarms_one_open')
          .on('alarms')
          .columns(['device_id', 'kind'])
          .unique()
          .where(sql.ref('state'), '<>', 'closed')
          .execute();
        await db.schema.createIndex('alarms_raised_at').on('alarms').columns(['raised_at', 'id']).execute();
        await db.schema.createIndex('alarms_device_id_raised_at').on('alarms').columns(['device_id', 'raised_at']).execute();
        await db.schema.createIndex('alarms_state_shelved_until').on('alarms').columns(['state', 'shelved_until']).execute();
        await withBigId(db.schema.createTable('alarm_transitions'))
          .addColumn('alarm_id', 'bigint', (col) => col.notNull())
          .addColumn('at', 'bigint', (col) => col.notNull())
          .addColumn('from_state', 'varchar(16)')
          .addColumn('to_state', 'varchar(16)', (col) => col.notNull())
          .addColumn('actor_account', 'varchar(64)', (col) => col.notNull())
          .addColumn('comment', 'varchar(500)')
          .execute();
        await db.schema.createIndex('alarm_transitions_alarm_id').on('alarm_transitions').columns(['alarm_id', 'id']).execute();
      },
      async down(db: Kysely<unknown>) {
        for (const table of ['alarm_transitions', 'alarms', 'alarm_rules']) await db.schema.dropTable(table).execute();
      },
    },
    '0015_orders_used_cancelled': {
      async up(db: Kysely<unknown>) {
        // When a booking's session started (its report's start) and when it was cancelled (a cancelled booking
        // is neither used nor expired: IsPass keeps meaning "not used in time").
        await db.schema.alterTable('orders').addColumn('used_at', 'bigint').execute();
        await db.schema.alterTable('orders').addColumn('cancelled_at', 'bigint').execute();
        // Bookings used before: their start is the time of their order.used audit entry.
        await sql`update orders set used_at = (select min(a.at) from audit_log a where a.action = 'order.used' and a.target_id = orders.order_num) where is_used = 1`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').dropColumn('cancelled_at').execute();
        await db.schema.alterTable('orders').dropColumn('used_at').execute();
      },
    },
    '0016_orders_set_t_used_at': {
      async up(db: Kysely<unknown>) {
        // The expiry sweeper's open bookings by booking time (server/orders/expiry.ts): only the open ones, so
        // a sweep that finds none reads none of the bookings used long ago. Its predicate is isOpenBooking's
        // (server/orders/booking.ts): a query repeating it may use the index on both stores.
        await db.schema
          .createIndex('orders_open_set_t')
          .on('orders')
          .columns(['set_t', 'id'])
          .where((eb) => eb.and([eb(sql.ref('is_used'), '=', 0), eb(sql.ref('is_pass'), '=', 0), eb(sql.ref('finished_at'), 'is', null), eb(sql.ref('cancelled_at'), 'is', null)]))
          .execute();
        // The day's bookings and the sessions started in it (the workplace's figures, the order list's filters).
        await db.schema.createIndex('orders_set_t').on('orders').columns(['set_t', 'id']).execute();
        await db.schema.createIndex('orders_used_at').on('orders').columns(['used_at', 'id']).execute();
      },
      async down(db: Kysely<unknown>) {
        for (const index of ['orders_used_at', 'orders_set_t', 'orders_open_set_t']) await db.schema.dropIndex(index).execute();
      },
    },
    '0017_messages_alarm_id': {
      async up(db: Kysely<unknown>) {
        // The alarm a message is about (docs/messages.md): its todos are found by it and read once it is acknowledged.
        await db.schema.alterTable('messages').addColumn('alarm_id', 'bigint').execute();
        await db.schema.createIndex('messages_alarm_id').on('messages').column('alarm_id').execute();
        // Who sees a device: the super administrators (found by level) and the accounts it is assigned to.
        await db.schema.createIndex('accounts_level').on('accounts').column('level').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('accounts_level').execute();
        await db.schema.dropIndex('messages_alarm_id').execute();
        await db.schema.alterTable('messages').dropColumn('alarm_id').execute();
      },
    },
    '0018_pressure_high_rated_max': {
      async up(db: Kysely<unknown>) {
        // A pressure-high rule without a high limit of its own takes its type's rated maximum (docs/alarms.md,
        // "Rules"): the seeded 2.0 ATA was the stand-in for it, so the rules still at 2.0 lose it.
        await sql`update alarm_rules set high_above = null where kind = 'pressure-high' and high_above = 2.0`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await sql`update alarm_rules set high_above = 2.0 where kind = 'pressure-high' and high_above is null`.execute(db);
      },
    },
    '0019_audit_chain': {
      async up(db: Kysely<unknown>) {
        // Tamper evidence (docs/audit.md): each entry's hash and its predecessor's; the entries already written
        // are chained in id order, the order every later append keeps.
        await db.schema.alterTable('audit_log').addColumn('prev_hash', 'varchar(64)').execute();
        await db.schema.alterTable('audit_log').addColumn('hash', 'varchar(64)').execute();
        await chainExistingEntries(db as Kysely<DB>);
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('audit_log').dropColumn('hash').execute();
        await db.schema.alterTable('audit_log').dropColumn('prev_hash').execute();
      },
    },
    '0020_devices_removed_at': {
      async up(db: Kysely<unknown>) {
        // A removed device with history keeps its row, so its orders and readings keep their device
        // (docs/server-devices.md, "Removing a device"); it leaves every list and can never connect again.
        await db.schema.alterTable('devices').addColumn('removed_at', 'bigint').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('devices').dropColumn('removed_at').execute();
      },
    },
    '0021_sign_in_attempts': {
      async up(db: Kysely<unknown>) {
        // One row per attempt with both keys, so the (address, account) pair is counted as well as each key;
        // the row exists from before the password is checked (server/auth/throttle.ts).
        await withId(db.schema.createTable('sign_in_attempts'))
          .addColumn('account', 'varchar(255)', (col) => col.notNull())
          .addColumn('address', 'varchar(64)', (col) => col.notNull())
          .addColumn('at', 'bigint', (col) => col.notNull())
          .addColumn('succeeded', 'integer', (col) => col.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('sign_in_attempts_account_at').on('sign_in_attempts').columns(['account', 'at']).execute();
        await db.schema.createIndex('sign_in_attempts_address_at').on('sign_in_attempts').columns(['address', 'at']).execute();
        await db.schema.createIndex('sign_in_attempts_at').on('sign_in_attempts').column('at').execute();
        await db.schema.dropTable('login_failures').execute();
      },
      async down(db: Kysely<unknown>) {
        await withId(db.schema.createTable('login_failures'))
          .addColumn('kind', 'varchar(16)', (col) => col.notNull())
          .addColumn('key', 'varchar(255)', (col) => col.notNull())
          .addColumn('at', 'bigint', (col) => col.notNull())
          .execute();
        await db.schema.createIndex('login_failures_kind_key_at').on('login_failures').columns(['kind', 'key', 'at']).execute();
        await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
        await db.schema.dropTable('sign_in_attempts').execute();
      },
    },
    '0022_setting_requests': {
      async up(db: Kysely<unknown>) {
        // Parameter approval (docs/approval.md): a request, its decision and the decider's signature in one row;
        // the signature's hash binds it to the settings it signed.
        await withId(db.schema.createTable('setting_requests'))
          .addColumn('device_id', 'varchar(32)', (col) => col.notNull())
          .addColumn('requested_by', 'integer', (col) => col.notNull())
          .addColumn('requester_account', 'varchar(64)', (col) => col.notNull())
          .addColumn('requested_at', 'bigint', (col) => col.notNull())
          .addColumn('settings', 'text', (col) => col.notNull())
          .addColumn('before', 'text', (col) => col.notNull())
          .addColumn('settings_hash', 'varchar(64)', (col) => col.notNull())
          .addColumn('status', 'varchar(16)', (col) => col.notNull())
          .addColumn('decided_by', 'integer')
          .addColumn('decider_account', 'varchar(64)')
          .addColumn('decided_at', 'bigint')
          .addColumn('meaning', 'varchar(16)')
          .addColumn('signed_hash', 'varchar(64)')
          .addColumn('cmd_id', 'varchar(64)')
          .execute();
        await db.schema.createIndex('setting_requests_device').on('setting_requests').column('device_id').execute();
        await db.schema.createIndex('setting_requests_requested_by').on('setting_requests').column('requested_by').execute();
        // A waiting request's todos are found by it when it is decided or cancelled (docs/messages.md).
        await db.schema.alterTable('messages').addColumn('setting_request_id', 'integer').execute();
        await db.schema.createIndex('messages_setting_request').on('messages').column('setting_request_id').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('messages_setting_request').execute();
        await db.schema.alterTable('messages').dropColumn('setting_request_id').execute();
        await db.schema.dropTable('setting_requests').execute();
      },
    },
    '0023_user_settings': {
      async up(db: Kysely<unknown>) {
        // Where a session started, so its owner can tell its sign-ins apart (docs/user-settings.md, "Security").
        await db.schema.alterTable('sessions').addColumn('address', 'varchar(64)', (col) => col.notNull().defaultTo('')).execute();
        await db.schema.alterTable('sessions').addColumn('agent', 'varchar(255)', (col) => col.notNull().defaultTo('')).execute();
        // An account's basic information: one row once it saved it.
        await db.schema
          .createTable('account_profiles')
          .addColumn('account_id', 'integer', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
          .addColumn('email', 'varchar(254)', (col) => col.notNull())
          .addColumn('nickname', 'varchar(32)', (col) => col.notNull())
          .addColumn('country_region', 'varchar(64)', (col) => col.notNull())
          .addColumn('area', 'varchar(64)', (col) => col.notNull())
          .addColumn('address', 'varchar(200)', (col) => col.notNull())
          .addColumn('phone', 'varchar(32)', (col) => col.notNull())
          .addColumn('profile', 'text', (col) => col.notNull())
          .addColumn('updated_at', 'bigint', (col) => col.notNull())
          .execute();
        // Operators' certificates, each submission a row; the approver is kept by name, as the audit trail keeps it.
        await withId(db.schema.createTable('certificates'))
          .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('number', 'varchar(64)', (col) => col.notNull())
          .addColumn('issuer', 'varchar(128)', (col) => col.notNull())
          .addColumn('expires_on', 'varchar(10)', (col) => col.notNull())
          .addColumn('status', 'varchar(16)', (col) => col.notNull())
          .addColumn('submitted_at', 'bigint', (col) => col.notNull())
          .addColumn('decided_by', 'varchar(64)')
          .addColumn('decided_at', 'bigint')
          .addCheckConstraint('certificates_status', sql`status in ('auditing', 'pass', 'rejected')`)
          .execute();
        await db.schema.createIndex('certificates_account_id').on('certificates').columns(['account_id', 'id']).execute();
        await db.schema.createIndex('certificates_status').on('certificates').column('status').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('certificates').execute();
        await db.schema.dropTable('account_profiles').execute();
        await db.schema.alterTable('sessions').dropColumn('agent').execute();
        await db.schema.alterTable('sessions').dropColumn('address').execute();
      },
    },
    '0024_stats_indexes': {
      async up(db: Kysely<unknown>) {
        // The analysis aggregates over a range (server/stats/, docs/analysis.md "Speed"): each grouped read finds
        // every column it needs in one index ordered by its time column, so a year of a fleet is one range
        // scan of the index instead of a table lookup per row.
        await db.schema.createIndex('orders_used_at_sessions').on('orders').columns(['used_at', 'device_id', 'finished_at', 'order_num']).execute();
        await db.schema.createIndex('orders_set_t_states').on('orders').columns(['set_t', 'is_used', 'is_pass', 'cancelled_at', 'device_id']).execute();
        await db.schema.createIndex('device_commands_issued_at_outcome').on('device_commands').columns(['issued_at', 'type', 'status', 'device_id']).execute();
        await db.schema.createIndex('alarms_raised_at_outcome').on('alarms').columns(['raised_at', 'kind', 'priority', 'acked_at', 'device_id']).execute();
      },
      async down(db: Kysely<unknown>) {
        for (const index of ['alarms_raised_at_outcome', 'device_commands_issued_at_outcome', 'orders_set_t_states', 'orders_used_at_sessions']) {
          await db.schema.dropIndex(index).execute();
        }
      },
    },
    '0025_notifications': {
      async up(db: Kysely<unknown>) {
        // docs/notifications.md. A channel's secrets live in *_value; `url` and `secret` hold only their masks.
        await withId(db.schema.createTable('notification_channels'))
          .addColumn('name', 'varchar(64)', (col) => col.notNull())
          .addColumn('type', 'varchar(16)', (col) => col.notNull())
          .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
          .addColumn('host', 'varchar(255)')
          .addColumn('port', 'integer')
          .addColumn('tls', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('username', 'varchar(255)')
          .addColumn('sender', 'varchar(255)')
          .addColumn('url', 'varchar(1024)')
          .addColumn('url_value', 'varchar(1024)')
          .addColumn('secret', 'varchar(255)')
          .addColumn('secret_value', 'varchar(255)')
          .execute();
        // Which priorities reach an account on which channel, and where (an e-mail channel's address).
        await db.schema
          .createTable('notification_subscriptions')
          .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('channel_id', 'integer', (col) => col.notNull().references('notification_channels.id').onDelete('cascade'))
          .addColumn('priorities', 'varchar(32)', (col) => col.notNull())
          .addColumn('address', 'varchar(255)')
          .addPrimaryKeyConstraint('notification_subscriptions_pk', ['account_id', 'channel_id'])
          .execute();
        await db.schema
          .createTable('notification_quiet_hours')
          .addColumn('account_id', 'integer', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
          .addColumn('from_minute', 'integer', (col) => col.notNull())
          .addColumn('to_minute', 'integer', (col) => col.notNull())
          .addColumn('utc_offset', 'integer', (col) => col.notNull())
          .execute();
        await withBigId(db.schema.createTable('notification_outbox'))
          .addColumn('alarm_id', 'integer')
          .addColumn('channel_id', 'integer', (col) => col.notNull())
          .addColumn('account_id', 'integer')
          .addColumn('event', 'varchar(16)', (col) => col.notNull())
          .addColumn('step', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('recipient', 'varchar(255)', (col) => col.notNull())
          .addColumn('payload', 'text', (col) => col.notNull())
          .addColumn('status', 'varchar(16)', (col) => col.notNull())
          .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (col) => col.notNull())
          .addColumn('next_at', 'bigint', (col) => col.notNull())
          .addColumn('claimed_until', 'bigint')
          .addColumn('answer', 'varchar(512)')
          .addColumn('done_at', 'bigint')
          .execute();
        // One notification per alarm, event, step, channel and recipient, whatever instances write it.
        await db.schema
          .createIndex('notification_outbox_once')
          .on('notification_outbox')
          .columns(['alarm_id', 'event', 'step', 'channel_id', 'recipient'])
          .unique()
          .execute();
        await db.schema.createIndex('notification_outbox_due').on('notification_outbox').columns(['status', 'next_at']).execute();
        await db.schema
          .createTable('alarm_escalations')
          .addColumn('alarm_id', 'integer', (col) => col.primaryKey())
          .addColumn('step', 'integer', (col) => col.notNull())
          .addColumn('due_at', 'bigint', (col) => col.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const table of ['alarm_escalations', 'notification_outbox', 'notification_quiet_hours', 'notification_subscriptions', 'notification_channels']) {
          await db.schema.dropTable(table).execute();
        }
      },
    },
    '0026_channel_forms': {
      async up(db: Kysely<unknown>) {
        // The template's step and group forms as submitted (docs/console.md, "Template forms"): the body as
        // JSON, the step form's activity name apart, unique, since an activity is created once.
        await withId(db.schema.createTable('channel_forms'))
          .addColumn('form', 'varchar(8)', (col) => col.notNull())
          .addColumn('activity_name', 'varchar(20)', (col) => col.unique())
          .addColumn('body', 'text', (col) => col.notNull())
          .addColumn('account_id', 'integer', (col) => col.references('accounts.id').onDelete('set null'))
          .addColumn('submitted_at', 'bigint', (col) => col.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('channel_forms').execute();
      },
    },
    '0027_messages_certificate_id': {
      async up(db: Kysely<unknown>) {
        // The certificate an approver's todo is about (docs/user-settings.md): found by it when the certificate is
        // decided (the todo done) or replaced by a new submission (the todo replaced).
        await db.schema.alterTable('messages').addColumn('certificate_id', 'integer').execute();
        await db.schema.createIndex('messages_certificate').on('messages').column('certificate_id').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('messages_certificate').execute();
        await db.schema.alterTable('messages').dropColumn('certificate_id').execute();
      },
    },
    '0028_stats_summaries': statsSummariesMigration(kind),
    '0029_rollups_statistics': {
      // PostgreSQL estimates a chamber's rollups of one width as its share of all rollups times that width's
      // share, as if independent: a chamber with years of minute rollups among a fleet of hour rollups only
      // gets its hours estimated 40 times too many, and a seq scan of the table (docs/performance.md, "Time
      // series on PostgreSQL"). Their combined frequencies correct it. SQLite reads the key's range anyway.
      async up(db: Kysely<unknown>) {
        if (kind !== 'postgres') return;
        await sql`create statistics if not exists reading_rollups_device_width (mcv) on device_id, bucket_ms from reading_rollups`.execute(db);
        await sql`analyze reading_rollups`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (kind === 'postgres') await sql`drop statistics if exists reading_rollups_device_width`.execute(db);
      },
    },
    '0030_day_rollups': {
      // Per device and day (bucket_ms 86400000): the sums of its hours, as the flusher keeps them from now on
      // (server/telemetry/rollups.ts), so a range of years reads a row a day. The analysis' summaries count
      // hour rollups only: their triggers skip these rows.
      async up(db: Kysely<unknown>) {
        const columns = ROLLUP_READINGS.flatMap((reading) => ['min', 'max', 'sum', 'n'].map((part) => `${reading}_${part}`));
        const sums = ROLLUP_READINGS.map((reading) => `min(${reading}_min), max(${reading}_max), sum(${reading}_sum), sum(${reading}_n)`);
        await sql
          .raw(
            `insert into reading_rollups (device_id, bucket_ms, start, ${columns.join(', ')})
            select device_id, 86400000, start - start % 86400000, ${sums.join(', ')} from reading_rollups
            where bucket_ms = 3600000 group by device_id, start - start % 86400000`,
          )
          .execute(db);
      },
      async down(db: Kysely<unknown>) {
        await sql`delete from reading_rollups where bucket_ms = 86400000`.execute(db);
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
