import type { Kysely } from 'kysely';
import type { DevicePatch } from '../../src/domain/live';
import type { Status, Telemetry } from '../../src/domain/mqtt/payloads';
import { parameter, reusable, runReusable, type ReusableQuery } from '../db/database';
import { flag, type DB, type NewStateRecordRow } from '../db/schema';
import type { InboundMessage } from '../mqtt/transport';
import { forwardLastSeen, presencePatch } from './presence';
import type { RollupTouches } from './rollups';

/**
 * One batch of telemetry and status messages, written in one transaction (docs/ingest.md, "Batches"):
 *
 *   1. per device, in Id order (so concurrent server instances lock rows in the same order): one UPDATE
 *      of its row (online, last_seen_at forward, latest when the batch holds a newer reading), which
 *      also says whether the device is registered and takes its row lock on PostgreSQL;
 *   2. the readings of the registered devices, in multi-row inserts `ON CONFLICT (device_id, time) DO
 *      NOTHING RETURNING device_id, time`: a reading already stored (a QoS 1 redelivery) is not stored twice;
 *   3. the readings the inserts returned as new, which the safety alarms evaluate after the commit
 *      (server/alarms/engine.ts), are told to the rollups then (rollups.ts): their next flush recomputes
 *      their minutes and hours.
 *
 * Messages of one device are applied in arrival order: the last of its telemetry or statuses decides
 * whether it is online. Nothing is settled or published here: the caller does that after the commit.
 */

export type BatchEntry =
  | { kind: 'telemetry'; deviceId: string; message: InboundMessage; receivedAt: number; reading: Telemetry }
  | { kind: 'status'; deviceId: string; message: InboundMessage; receivedAt: number; status: Status }
  /** Refused at parsing (already counted and logged); kept here only to be settled in its device's order. */
  | { kind: 'drop'; deviceId: string; message: InboundMessage };

export interface BatchResult {
  /** Devices not in the devices table: their messages are dropped. */
  unknown: ReadonlySet<string>;
  /** Readings inserted. */
  stored: number;
  /** Telemetry of registered devices not inserted: that device and Time were stored already. */
  duplicates: number;
  /** Status messages of registered devices applied. */
  statuses: number;
  /** One per registered device of the batch: Online, LastSeen, and Reading when the batch moved it forward. */
  patches: DevicePatch[];
  /** The readings inserted (not those stored already), with their device's Id; each device's in Time order. */
  readings: StoredReading[];
}

type StoredReading = Telemetry & { Id: string };

/** By device, then Time: how the alarm engine takes a batch's readings. */
const deviceThenTime = (a: StoredReading, b: StoredReading): number => (a.Id === b.Id ? a.Time - b.Time : a.Id < b.Id ? -1 : 1);

/** state_records columns ↔ telemetry wire names. */
const READING_COLUMNS = [
  ['l', 'L'],
  ['sp', 'SP'],
  ['st', 'ST'],
  ['ss', 'SS'],
  ['sl', 'SL'],
  ['sa', 'SA'],
  ['rcp', 'RCP'],
  ['rrd', 'RRD'],
  ['rcpi02', 'RCPi02'],
  ['rgpi02', 'RGPi02'],
  ['rct', 'RCT'],
  ['rcrh', 'RCRH'],
  ['rap', 'RAP'],
  ['hm_hr', 'HmHR'],
  ['hm_sp02', 'HmSP02'],
  ['hm_bp', 'HmBP'],
] as const satisfies readonly (readonly [keyof NewStateRecordRow, keyof Telemetry])[];

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

/** What one device's messages in the batch come to. */
interface DevicePlan {
  online: boolean;
  /** The latest arrival among its telemetry and `online` statuses; undefined with only `offline`. */
  lastSeen: number | undefined;
  /** Its reading with the greatest Time (the first of equals, as the store keeps the first). */
  newest: Telemetry | undefined;
  readings: Telemetry[];
  statuses: number;
}

const planDevices = (entries: readonly BatchEntry[]): Map<string, DevicePlan> => {
  const plans = new Map<string, DevicePlan>();
  for (const entry of entries) {
    if (entry.kind === 'drop') continue;
    let plan = plans.get(entry.deviceId);
    if (plan === undefined) {
      plan = { online: false, lastSeen: undefined, newest: undefined, readings: [], statuses: 0 };
      plans.set(entry.deviceId, plan);
    }
    if (entry.kind === 'status') plan.statuses += 1;
    if (entry.kind === 'status' && entry.status === 'offline') {
      plan.online = false;
      continue;
    }
    plan.online = true;
    plan.lastSeen = Math.max(plan.lastSeen ?? entry.receivedAt, entry.receivedAt);
    if (entry.kind === 'telemetry') {
      plan.readings.push(entry.reading);
      if (plan.newest === undefined || entry.reading.Time > plan.newest.Time) plan.newest = entry.reading;
    }
  }
  return plans;
};

/** A reading the insert stored (not one stored before). */
type StoredRow = { device_id: string; time: number };

type TouchRow = { id: string; online: number; last_seen_at: number | null; latest: string | null };

export type BatchWriter = (entries: readonly BatchEntry[]) => Promise<BatchResult>;

/**
 * The batch's statements are built and compiled once (server/db/database.ts, `reusable`): building the
 * devices update with Kysely costs about as much as running it, and this runs once per device per batch.
 */
export const createBatchWriter = (db: Kysely<DB>, rollups: RollupTouches): BatchWriter => {
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

  /** Inserts `count` rows of `values` in chunks; answers the rows that were new. */
  const insertRows = async (trx: Kysely<DB>, values: readonly unknown[], count: number): Promise<StoredRow[]> => {
    const stored: StoredRow[] = [];
    for (let offset = 0; offset < count; ) {
      const rows = INSERT_CHUNK_ROWS.find((size) => size <= count - offset) ?? 1;
      const result = await runReusable(trx, insertStatement(rows), values.slice(offset * COLUMNS, (offset + rows) * COLUMNS));
      stored.push(...result.rows);
      offset += rows;
    }
    return stored;
  };

  return async (entries) => {
    const plans = planDevices(entries);
    // Only refused messages: nothing to write.
    if (plans.size === 0) return { unknown: new Set(), stored: 0, duplicates: 0, statuses: 0, patches: [], readings: [] };
    const result = await db.transaction().execute(async (trx): Promise<BatchResult> => {
      const unknown = new Set<string>();
      const patches: DevicePatch[] = [];
      const values: unknown[] = [];
      /** The batch's readings by device and Time, to answer those stored. */
      const written = new Map<string, Map<number, Telemetry>>();
      let rows = 0;
      let telemetry = 0;
      let statuses = 0;
      for (const [deviceId, plan] of [...plans].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const reading = plan.newest === undefined ? undefined : { ...plan.newest, Id: deviceId };
        const json = reading === undefined ? undefined : JSON.stringify(reading);
        const touched =
          reading !== undefined
            ? await runReusable(trx, touchWithReading, [deviceId, flag(plan.online), plan.lastSeen, reading.Time, json])
            : plan.lastSeen !== undefined
              ? await runReusable(trx, touchSeen, [deviceId, flag(plan.online), plan.lastSeen])
              : await runReusable(trx, touchOffline, [deviceId, flag(plan.online)]);
        const row = touched.rows[0];
        if (row === undefined) {
          unknown.add(deviceId);
          continue;
        }
        patches.push(reading !== undefined && row.latest === json ? { ...presencePatch(row), Reading: reading } : presencePatch(row));
        statuses += plan.statuses;
        telemetry += plan.readings.length;
        const byTime = new Map<number, Telemetry>();
        for (const each of plan.readings) {
          if (byTime.has(each.Time)) continue;
          byTime.set(each.Time, each);
          pushRow(values, deviceId, each);
          rows += 1;
        }
        written.set(deviceId, byTime);
      }
      const stored = await insertRows(trx, values, rows);
      const readings: StoredReading[] = [];
      for (const row of stored) {
        const reading = written.get(row.device_id)?.get(Number(row.time));
        if (reading !== undefined) readings.push({ ...reading, Id: row.device_id });
      }
      readings.sort(deviceThenTime);
      return { unknown, stored: stored.length, duplicates: telemetry - stored.length, statuses, patches, readings };
    });
    // Told once committed, so any flush from now on reads them.
    for (const reading of result.readings) rollups.touch(reading.Id, reading.Time);
    return result;
  };
};
