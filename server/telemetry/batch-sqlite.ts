import type { Kysely } from 'kysely';
import { parameter, reusable, runReusable, type ReusableQuery } from '../db/database';
import { flag, type DB, type NewStateRecordRow } from '../db/schema';
import type { Telemetry } from '../../src/domain/mqtt/payloads';
import { READING_COLUMNS, type BatchStatements, type StoredRow, type TouchRow } from './batch-rows';
import { forwardLastSeen } from './presence';

const COLUMNS = 2 + READING_COLUMNS.length;

/**
 * Rows per insert statement, largest first: a batch is cut into these, so only four statement shapes
 * exist (a shape per row count would fill SQLite's statement cache). 512 rows × 18 columns = 9,216
 * parameters, below SQLite's limit (32,766 in better-sqlite3's build) and PostgreSQL's (65,535).
 */
const INSERT_CHUNK_ROWS = [512, 64, 8, 1] as const;

/** One reading's values in column order (slot indices of `insertStatement`). */
const pushRow = (values: unknown[], deviceId: string, reading: Telemetry): void => {
  values.push(deviceId, reading.Time);
  for (const [, wire] of READING_COLUMNS) values.push(reading[wire] ?? null);
};

/**
 * SQLite's statements, built and compiled once (server/db/database.ts, `reusable`): building the devices
 * update with Kysely costs about as much as running it, and this runs once per device per batch.
 */
export const sqliteStatements = (db: Kysely<DB>): BatchStatements => {
  const returned = ['id', 'online', 'last_seen_at', 'latest'] as const;
  // Values of the device updates, in this order.
  const id = parameter<string>(0);
  const online = parameter<number>(1);
  const seen = parameter<number>(2);
  const time = parameter<number>(3);
  const latest = parameter<string>(4);
  /** Telemetry: online, last seen, and latest unless a later reading is stored already. */
  const touchWithReading: ReusableQuery<TouchRow> = reusable(
    db
      .updateTable('devices')
      .set((eb) => ({
        online,
        last_seen_at: forwardLastSeen(eb, seen),
        latest: eb
          .case()
          .when(
            eb.not(
              eb.exists(
                eb.selectFrom('state_records').select(eb.lit(1).as('newer')).where('device_id', '=', id).where('time', '>', time),
              ),
            ),
          )
          .then(latest)
          .else(eb.ref('latest'))
          .end(),
      }))
      .where('id', '=', id)
      .returning(returned)
      .compile(),
  );
  /** An `online` status (and perhaps a later `offline`) without telemetry. */
  const touchSeen: ReusableQuery<TouchRow> = reusable(
    db
      .updateTable('devices')
      .set((eb) => ({ online, last_seen_at: forwardLastSeen(eb, seen) }))
      .where('id', '=', id)
      .returning(returned)
      .compile(),
  );
  /** Only `offline`. */
  const touchOffline: ReusableQuery<TouchRow> = reusable(db.updateTable('devices').set({ online }).where('id', '=', id).returning(returned).compile());

  const inserts = new Map<number, ReusableQuery<StoredRow>>();
  const insertStatement = (rows: number): ReusableQuery<StoredRow> => {
    let statement = inserts.get(rows);
    if (statement === undefined) {
      const values = Array.from({ length: rows }, (_, row) => {
        const base = row * COLUMNS;
        const record: Record<string, unknown> = { device_id: parameter(base), time: parameter(base + 1) };
        READING_COLUMNS.forEach(([column], index) => (record[column] = parameter(base + 2 + index)));
        return record as unknown as NewStateRecordRow;
      });
      statement = reusable(
        db
          .insertInto('state_records')
          .values(values)
          .onConflict((conflict) => conflict.columns(['device_id', 'time']).doNothing())
          .returning(['device_id', 'time'])
          .compile(),
      );
      inserts.set(rows, statement);
    }
    return statement;
  };

  return {
    touch: async (trx, touches) => {
      const rows: TouchRow[] = [];
      for (const touch of touches) {
        const touched =
          touch.latest !== undefined
            ? await runReusable(trx, touchWithReading, [touch.deviceId, flag(touch.online), touch.lastSeen, touch.latest.time, touch.latest.json])
            : touch.lastSeen !== undefined
              ? await runReusable(trx, touchSeen, [touch.deviceId, flag(touch.online), touch.lastSeen])
              : await runReusable(trx, touchOffline, [touch.deviceId, flag(touch.online)]);
        if (touched.rows[0] !== undefined) rows.push(touched.rows[0]);
      }
      return rows;
    },
    insert: async (trx, rows) => {
      const values: unknown[] = [];
      for (const row of rows) pushRow(values, row.deviceId, row.reading);
      const stored: StoredRow[] = [];
      for (let offset = 0; offset < rows.length; ) {
        const count = INSERT_CHUNK_ROWS.find((size) => size <= rows.length - offset) ?? 1;
        const result = await runReusable(trx, insertStatement(count), values.slice(offset * COLUMNS, (offset + count) * COLUMNS));
        stored.push(...result.rows);
        offset += count;
      }
      return stored;
    },
  };
};

