import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from './database';

/**
 * Migration 0028: the analysis' summaries (docs/analysis.md, "Speed"), kept by SQL triggers so that every
 * write path keeps them (services, sweepers, the REST generic writes, retention, a set-based seed): per
 * chamber and UTC day (`stats_chamber_days`) or week (`stats_chamber_weeks`), and for the fleet per UTC
 * day or hour (`stats_fleet`, one row per measure). Each trigger takes the old row's contribution off and
 * adds the new row's, so a summary always equals its rows. Written out here, not derived from the domain,
 * so that the migration never changes.
 *
 * A contribution is an upsert of one summary row from one row of a source table; `R.` in its expressions
 * is that row (NEW or OLD in a trigger, the table's row in the backfill).
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface Contribution {
  target: 'stats_chamber_days' | 'stats_chamber_weeks' | 'stats_fleet';
  keys: Record<string, string>;
  /** Summed columns. */
  adds: Record<string, string>;
  /** stats_fleet's peak (a max: never decremented, see recomputedPeak). */
  peak?: string;
  when: string;
}

const KEYS = { stats_chamber_days: ['device_id', 'day'], stats_chamber_weeks: ['device_id', 'week'], stats_fleet: ['grain', 'start', 'measure'] } as const;

/**
 * A chamber's measures by the UTC day of `time`, and the same by its week of seven UTC days (week =
 * floor(day / 7), from the epoch's Thursday): a year's utilisation reads 52 weeks and the odd days per
 * chamber rather than 365 days.
 */
const chamber = (time: string, adds: Record<string, string>, when: string): Contribution[] => [
  { target: 'stats_chamber_days', keys: { device_id: 'R.device_id', day: `R.${time} / ${DAY}` }, adds, when },
  { target: 'stats_chamber_weeks', keys: { device_id: 'R.device_id', week: `R.${time} / ${7 * DAY}` }, adds, when },
];

/**
 * A finished session summarised: it ended no earlier than it started and by the end of the UTC day after
 * its start day. Every other session (running, lost, longer, odd) is read from the rows through the partial
 * index orders_unsummarised_sessions, whose condition is this one's negation, written the same way.
 */
const SUMMARISED = (row: string) => `${row}finished_at >= ${row}used_at and ${row}finished_at <= (${row}used_at / ${DAY} + 2) * ${DAY}`;
export const UNSUMMARISED_SESSION = `used_at is not null and (finished_at is null or finished_at < used_at or finished_at > (used_at / ${DAY} + 2) * ${DAY})`;

const fleet = (grain: 'day' | 'hour', time: string, measure: string, when: string, adds: Record<string, string> = { n: '1' }, peak?: string): Contribution => ({
  target: 'stats_fleet',
  keys: { grain: `'${grain}'`, start: `R.${time} / ${grain === 'day' ? DAY : HOUR}`, measure },
  adds,
  ...(peak === undefined ? {} : { peak }),
  when: `R.${time} is not null and ${when}`,
});

const sessionMs = `case when ${SUMMARISED('R.')} then R.finished_at - R.used_at else 0 end`;
const failed = `R.status in ('refused', 'timeout')`;
const wait = 'R.acked_at - R.raised_at';

const ORDERS: Contribution[] = [
  ...chamber('used_at', { sessions: '1', session_ms: sessionMs }, 'R.used_at is not null'),
  ...chamber('set_t', { bookings: '1', expired: 'case when R.is_pass = 1 then 1 else 0 end' }, 'R.set_t is not null'),
  fleet('day', 'set_t', `'bookings.total'`, '1 = 1'),
  fleet('day', 'set_t', `'bookings.used'`, 'R.is_used = 1'),
  fleet('day', 'set_t', `'bookings.expired'`, 'R.is_pass = 1'),
  fleet('day', 'set_t', `'bookings.cancelled'`, 'R.cancelled_at is not null'),
  fleet('day', 'set_t', `'bookings.open'`, 'R.is_used = 0 and R.is_pass = 0 and R.cancelled_at is null'),
  fleet('hour', 'used_at', `'sessions'`, '1 = 1', { n: '1', total: sessionMs }),
  fleet('hour', 'set_t', `'bookings'`, '1 = 1'),
  fleet('hour', 'set_t', `'bookings.expired'`, 'R.is_pass = 1'),
];

const COMMANDS: Contribution[] = [
  ...chamber('issued_at', { commands: '1', commands_failed: `case when ${failed} then 1 else 0 end` }, '1 = 1'),
  fleet('day', 'issued_at', `'commands.' || R.type || '.' || R.status`, '1 = 1'),
  fleet('hour', 'issued_at', `'commands'`, '1 = 1'),
  fleet('hour', 'issued_at', `'commands.failed'`, failed),
];

const ACKED_MEASURE = (row: string) => `'alarms.' || ${row}kind || '.' || ${row}priority || '.acked'`;
const ALARMS: Contribution[] = [
  ...chamber('raised_at', { alarms: '1' }, '1 = 1'),
  fleet('day', 'raised_at', `'alarms.' || R.kind || '.' || R.priority`, '1 = 1'),
  fleet('day', 'raised_at', ACKED_MEASURE('R.'), 'R.acked_at is not null', { n: '1', total: wait }, wait),
  fleet('hour', 'raised_at', `'alarms'`, '1 = 1'),
];

/** The bins' edges of src/domain/stats.ts DISTRIBUTIONS as they were when this migration was written. */
const BIN_EDGES = {
  pressure: ['rcp', [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0]],
  oxygen: ['rcpi02', [19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]],
  temperature: ['rct', [16, 18, 20, 22, 24, 26, 28, 30, 32]],
} as const;

/** The bin of an hour's mean, compared as sum >= edge × n, exactly as server/stats/readings.ts counts the rows. */
const binOf = (column: string, edges: readonly number[]) => `(${edges.map((edge) => `case when R.${column}_sum >= ${edge} * R.${column}_n then 1 else 0 end`).join(' + ')})`;
const ROLLUPS: Contribution[] = Object.entries(BIN_EDGES).map(([name, [column, edges]]) =>
  fleet('day', 'start', `'bins.${name}.' || ${binOf(column, edges)}`, `R.bucket_ms = ${HOUR} and R.${column}_n > 0`),
);

const SOURCES = { orders: ORDERS, device_commands: COMMANDS, alarms: ALARMS, reading_rollups: ROLLUPS } as const;
type Source = keyof typeof SOURCES;
/** The rows a source's trigger runs for at all: the minute rollups (most of the flusher's writes) skip it. */
const ROWS: Partial<Record<Source, string>> = { reading_rollups: `R.bucket_ms = ${HOUR}` };
const OPERATIONS = ['insert', 'update', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];
const rowsWhen = (source: Source, operation: Operation): string | undefined => {
  const rows = ROWS[source];
  if (rows === undefined) return undefined;
  return { insert: [on(rows, 'new.')], update: [on(rows, 'old.'), on(rows, 'new.')], delete: [on(rows, 'old.')] }[operation].join(' or ');
};

const columnsOf = (c: Contribution) => [...Object.keys(c.keys), ...Object.keys(c.adds), ...(c.peak === undefined ? [] : ['peak'])];
const onConflict = (c: Contribution) => {
  const sums = Object.keys(c.adds).map((column) => `${column} = ${c.target}.${column} + excluded.${column}`);
  const peak = `peak = case when excluded.peak is null then ${c.target}.peak when ${c.target}.peak is null or excluded.peak > ${c.target}.peak then excluded.peak else ${c.target}.peak end`;
  return `on conflict (${KEYS[c.target].join(', ')}) do update set ${[...sums, ...(c.peak === undefined ? [] : [peak])].join(', ')}`;
};
const on = (expression: string, row: string) => expression.replaceAll('R.', row);

/** Whether an update changes the contribution at all (most updates of a rollup keep its bins). */
const changed = (c: Contribution, kind: DatabaseKind) => {
  const differs = kind === 'sqlite' ? 'is not' : 'is distinct from';
  return [`(${c.when})`, ...Object.values(c.keys), ...Object.values(c.adds), ...(c.peak === undefined ? [] : [c.peak])]
    .map((expression) => `(${on(expression, 'old.')}) ${differs} (${on(expression, 'new.')})`)
    .join(' or ');
};

/** One upsert adding (sign 1) or taking off (sign -1) `row`'s contribution. */
const upsert = (c: Contribution, row: 'new.' | 'old.', sign: 1 | -1, extra: string) => {
  const values = [
    ...Object.values(c.keys).map((expression) => on(expression, row)),
    ...Object.values(c.adds).map((expression) => `${sign} * (${on(expression, row)})`),
    ...(c.peak === undefined ? [] : [sign === 1 ? on(c.peak, row) : 'null']),
  ];
  return `insert into ${c.target} (${columnsOf(c).join(', ')}) select ${values.join(', ')} where ${on(c.when, row)}${extra} ${onConflict(c)}`;
};

/** A max cannot be taken off: when an acknowledged alarm goes or changes, its day's peak is read again from the rows (one day's index range). */
const recomputedPeak = `update stats_fleet set peak = (select max(a.acked_at - a.raised_at) from alarms a where a.raised_at >= (old.raised_at / ${DAY}) * ${DAY}
  and a.raised_at < (old.raised_at / ${DAY} + 1) * ${DAY} and a.kind = old.kind and a.priority = old.priority)
  where grain = 'day' and start = old.raised_at / ${DAY} and measure = ${ACKED_MEASURE('old.')} and old.acked_at is not null`;

const statements = (source: Source, operation: Operation, kind: DatabaseKind): string[] => {
  const contributions = SOURCES[source];
  const guard = (c: Contribution) => (operation === 'update' ? ` and (${changed(c, kind)})` : '');
  const taken = operation === 'insert' ? [] : contributions.map((c) => upsert(c, 'old.', -1, guard(c)));
  const added = operation === 'delete' ? [] : contributions.map((c) => upsert(c, 'new.', 1, guard(c)));
  return [...taken, ...added, ...(source === 'alarms' && operation !== 'insert' ? [recomputedPeak] : [])];
};

/** The statements of one trigger, each ended. */
const body = (statementsOf: readonly string[]) => statementsOf.map((statement) => `${statement};`).join('\n');

/** SQLite's triggers: on update one per contribution, run only when it changes (a rollup's hour mostly keeps its bins). */
const createSqliteTriggers = async (db: Kysely<unknown>, source: Source) => {
  const trigger = async (name: string, operation: Operation, conditions: (string | undefined)[], statementsOf: readonly string[]) => {
    const when = conditions.filter((condition) => condition !== undefined).map((condition) => `(${condition})`).join(' and ');
    await sql.raw(`create trigger ${name} after ${operation} on ${source} for each row${when === '' ? '' : ` when ${when}`} begin\n${body(statementsOf)}\nend`).execute(db);
  };
  await trigger(`${source}_stats_insert`, 'insert', [rowsWhen(source, 'insert')], statements(source, 'insert', 'sqlite'));
  await trigger(`${source}_stats_delete`, 'delete', [rowsWhen(source, 'delete')], statements(source, 'delete', 'sqlite'));
  for (const [i, c] of SOURCES[source].entries()) {
    const peak = c.peak === undefined ? [] : [recomputedPeak];
    await trigger(`${source}_stats_update_${i}`, 'update', [rowsWhen(source, 'update'), changed(c, 'sqlite')], [upsert(c, 'old.', -1, ''), upsert(c, 'new.', 1, ''), ...peak]);
  }
};

/** PostgreSQL's: one function per source, its statements guarded as SQLite's triggers are. */
const createPostgresTriggers = async (db: Kysely<unknown>, source: Source) => {
  const block = (operation: Operation) => `if tg_op = '${operation.toUpperCase()}' then\n${body(statements(source, operation, 'postgres'))}\nend if;`;
  await sql.raw(`create function ${source}_stats() returns trigger language plpgsql as $$ begin
${block('insert')}
${block('update')}
${block('delete')}
return null; end $$`).execute(db);
  for (const operation of OPERATIONS) {
    const when = rowsWhen(source, operation);
    await sql.raw(`create trigger ${source}_stats_${operation} after ${operation} on ${source} for each row${when === undefined ? '' : ` when (${when})`} execute function ${source}_stats()`).execute(db);
  }
};

/** The triggers' names on SQLite, for the way down. */
const sqliteTriggers = (source: Source) => [`${source}_stats_insert`, `${source}_stats_delete`, ...SOURCES[source].map((_, i) => `${source}_stats_update_${i}`)];

/** The summaries of the rows already stored: each contribution grouped by its key, added as the triggers would. */
const backfill = async (db: Kysely<unknown>) => {
  for (const [source, contributions] of Object.entries(SOURCES)) {
    for (const c of contributions) {
      const keys = Object.values(c.keys).map((expression) => on(expression, 't.'));
      // A constant key ('day', a fixed measure) is no grouping (PostgreSQL refuses a constant in group by).
      const grouped = keys.filter((expression) => !/^'[^']*'$/.test(expression));
      const values = [...keys, ...Object.values(c.adds).map((expression) => `sum(${on(expression, 't.')})`), ...(c.peak === undefined ? [] : [`max(${on(c.peak, 't.')})`])];
      await sql
        .raw(`insert into ${c.target} (${columnsOf(c).join(', ')}) select * from (select ${values.join(', ')} from ${source} t where ${on(c.when, 't.')} group by ${grouped.join(', ')}) as c where 1 = 1 ${onConflict(c)}`)
        .execute(db);
    }
  }
};

export const statsSummariesMigration = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<unknown>) {
    // Another instance's writes wait until the summaries and their triggers exist (the migration is one
    // transaction on PostgreSQL): a row written between the backfill and the triggers would be missed.
    // SQLite migrates before the server takes writes.
    if (kind === 'postgres') await sql.raw(`lock table ${Object.keys(SOURCES).join(', ')} in share mode`).execute(db);
    const count = (table: ReturnType<typeof db.schema.createTable>, column: string) => table.addColumn(column, 'bigint', (col) => col.notNull().defaultTo(0));
    for (const [table, key] of [['stats_chamber_days', 'day'], ['stats_chamber_weeks', 'week']] as const) {
      let chambers = db.schema.createTable(table).addColumn('device_id', 'varchar(64)', (col) => col.notNull()).addColumn(key, 'integer', (col) => col.notNull());
      for (const column of ['sessions', 'session_ms', 'bookings', 'expired', 'commands', 'commands_failed', 'alarms']) chambers = count(chambers, column);
      chambers = chambers.addPrimaryKeyConstraint(`${table}_pk`, ['device_id', key]);
      await (kind === 'sqlite' ? chambers.modifyEnd(sql`without rowid`) : chambers).execute();
    }
    // Keyed by measure before start: a call reads one measure over a range of days or hours in one pass.
    let fleetTable = db.schema
      .createTable('stats_fleet')
      .addColumn('grain', 'varchar(4)', (col) => col.notNull())
      .addColumn('start', 'integer', (col) => col.notNull())
      .addColumn('measure', 'varchar(64)', (col) => col.notNull());
    fleetTable = count(count(fleetTable, 'n'), 'total').addColumn('peak', 'bigint').addPrimaryKeyConstraint('stats_fleet_pk', ['grain', 'measure', 'start']);
    await (kind === 'sqlite' ? fleetTable.modifyEnd(sql`without rowid`) : fleetTable).execute();
    // The ends of a range read from the rows: sessions not summarised, and the hour rollups by start.
    await sql.raw(`create index orders_unsummarised_sessions on orders (used_at, device_id, finished_at, order_num) where ${UNSUMMARISED_SESSION}`).execute(db);
    await sql.raw(`create index reading_rollups_hour_start on reading_rollups (start) where bucket_ms = ${HOUR}`).execute(db);
    await backfill(db);
    for (const source of Object.keys(SOURCES) as Source[]) await (kind === 'sqlite' ? createSqliteTriggers(db, source) : createPostgresTriggers(db, source));
  },
  async down(db: Kysely<unknown>) {
    for (const source of Object.keys(SOURCES) as Source[]) {
      if (kind === 'sqlite') for (const trigger of sqliteTriggers(source)) await sql.raw(`drop trigger ${trigger}`).execute(db);
      else {
        for (const operation of OPERATIONS) await sql.raw(`drop trigger ${source}_stats_${operation} on ${source}`).execute(db);
        await sql.raw(`drop function ${source}_stats()`).execute(db);
      }
    }
    await db.schema.dropIndex('reading_rollups_hour_start').execute();
    await db.schema.dropIndex('orders_unsummarised_sessions').execute();
    await db.schema.dropTable('stats_fleet').execute();
    await db.schema.dropTable('stats_chamber_weeks').execute();
    await db.schema.dropTable('stats_chamber_days').execute();
  },
});
