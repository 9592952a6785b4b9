import { CompiledQuery, type Kysely } from 'kysely';
import { flag, type DB } from '../db/schema';
import { READING_COLUMNS, type BatchStatements, type StoredRow, type TouchRow } from './batch-rows';

/**
 * PostgreSQL's batch: two statements whatever the batch's size, each taking its values as one array a
 * column (`unnest`), so each has one shape and is planned alike every time. A statement per device, as
 * on SQLite, made a batch of 50 devices 51 round trips: measured on a seeded store (2,000 devices, 50
 * a batch), the backends' CPU 300–320 → 90–105 µs a reading, the server's 180–200 → 55–65 µs
 * (docs/performance.md, "The ingest path on PostgreSQL").
 */

/** The type of each reading column's array. */
const ARRAY_TYPES: Record<(typeof READING_COLUMNS)[number][0], string> = {
  l: 'integer[]',
  sp: 'float8[]',
  st: 'float8[]',
  ss: 'text[]',
  sl: 'integer[]',
  sa: 'integer[]',
  rcp: 'float8[]',
  rrd: 'float8[]',
  rcpi02: 'float8[]',
  rgpi02: 'float8[]',
  rct: 'float8[]',
  rcrh: 'float8[]',
  rap: 'float8[]',
  hm_hr: 'float8[]',
  hm_sp02: 'float8[]',
  hm_bp: 'text[]',
};

/**
 * Each device's row: online, last seen moved forward (when the device was heard), and its newest reading
 * unless a later one is stored already. The rows are locked first, in Id order, so two instances writing
 * batches that share devices cannot deadlock (an UPDATE … FROM locks in its join's order).
 *
 * "A later one" is asked of the row's own `latest` as well as of the readings: a batch that waited for
 * another instance's lock on the row sees that instance's new `latest` (PostgreSQL re-reads a locked row
 * once it is free) but not the readings it inserted (the statement's snapshot was taken before the
 * wait), so without the first test it would put an older reading back.
 */
const TOUCH = `with touch as (
  select * from unnest($1::text[], $2::integer[], $3::bigint[], $4::bigint[], $5::text[]) as t(id, online, seen, time, latest)
), locked as (
  select d.id from devices d join touch on touch.id = d.id order by d.id for update of d
)
update devices d set
  online = touch.online,
  last_seen_at = case when touch.seen is not null and (d.last_seen_at is null or d.last_seen_at < touch.seen) then touch.seen else d.last_seen_at end,
  latest = case
    when touch.latest is not null
      and (d.latest is null or (d.latest::json->>'Time')::bigint < touch.time)
      and not exists (select 1 from state_records s where s.device_id = touch.id and s.time > touch.time) then touch.latest
    else d.latest end
from touch join locked on locked.id = touch.id
where d.id = touch.id
returning d.id, d.online, d.last_seen_at, d.latest`;

/** The readings, a reading already stored (a QoS 1 redelivery) left as it is. */
const INSERT = `insert into state_records (device_id, time, ${READING_COLUMNS.map(([column]) => column).join(', ')})
select * from unnest($1::text[], $2::bigint[], ${READING_COLUMNS.map(([column], index) => `$${index + 3}::${ARRAY_TYPES[column]}`).join(', ')})
on conflict (device_id, time) do nothing
returning device_id, time`;

const run = async <R>(trx: Kysely<DB>, text: string, parameters: unknown[]): Promise<R[]> =>
  (await trx.executeQuery(CompiledQuery.raw(text, parameters) as CompiledQuery<R>)).rows;

export const postgresStatements = (): BatchStatements => ({
  touch: (trx, touches) =>
    run<TouchRow>(trx, TOUCH, [
      touches.map((touch) => touch.deviceId),
      touches.map((touch) => flag(touch.online)),
      touches.map((touch) => touch.lastSeen ?? null),
      touches.map((touch) => touch.latest?.time ?? null),
      touches.map((touch) => touch.latest?.json ?? null),
    ]),
  insert: async (trx, rows) =>
    rows.length === 0
      ? []
      : run<StoredRow>(trx, INSERT, [
          rows.map((row) => row.deviceId),
          rows.map((row) => row.reading.Time),
          ...READING_COLUMNS.map(([, wire]) => rows.map((row) => row.reading[wire] ?? null)),
        ]),
});
