import type { Kysely } from 'kysely';
import type { DevicePatch } from '../../src/domain/live';
import type { Status, Telemetry } from '../../src/domain/mqtt/payloads';
import type { DatabaseKind } from '../db/database';
import type { DB } from '../db/schema';
import type { InboundMessage } from '../mqtt/transport';
import type { DeviceTouch, ReadingRow } from './batch-rows';
import { sqliteStatements } from './batch-sqlite';
import { presencePatch } from './presence';
import { postgresStatements } from './batch-postgres';
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

export type BatchWriter = (entries: readonly BatchEntry[]) => Promise<BatchResult>;

/** Writes batches on `db`, a store of `kind`; tells `rollups` the readings it stored, once committed. */
export const createBatchWriter = (db: Kysely<DB>, kind: DatabaseKind, rollups: RollupTouches): BatchWriter => {
  const statements = kind === 'postgres' ? postgresStatements() : sqliteStatements(db);
  return async (entries) => {
    const plans = planDevices(entries);
    // Only refused messages: nothing to write.
    if (plans.size === 0) return { unknown: new Set(), stored: 0, duplicates: 0, statuses: 0, patches: [], readings: [] };
    // In Id order, each with its newest reading (the devices row keeps it as JSON, the patch as it is).
    const devices = [...plans]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([deviceId, plan]) => {
        const reading = plan.newest === undefined ? undefined : { ...plan.newest, Id: deviceId };
        const touch: DeviceTouch = {
          deviceId,
          online: plan.online,
          lastSeen: plan.lastSeen,
          latest: reading === undefined ? undefined : { time: reading.Time, json: JSON.stringify(reading) },
        };
        return { deviceId, plan, reading, touch };
      });
    const result = await db.transaction().execute(async (trx): Promise<BatchResult> => {
      const touched = new Map((await statements.touch(trx, devices.map(({ touch }) => touch))).map((row) => [row.id, row]));
      const unknown = new Set<string>();
      const patches: DevicePatch[] = [];
      const rows: ReadingRow[] = [];
      /** The batch's readings by device and Time, to answer those stored. */
      const written = new Map<string, Map<number, Telemetry>>();
      let telemetry = 0;
      let statuses = 0;
      for (const { deviceId, plan, reading, touch } of devices) {
        const row = touched.get(deviceId);
        if (row === undefined) {
          unknown.add(deviceId);
          continue;
        }
        // The patch carries the reading only when the row took it as its latest.
        patches.push(reading !== undefined && row.latest === touch.latest?.json ? { ...presencePatch(row), Reading: reading } : presencePatch(row));
        statuses += plan.statuses;
        telemetry += plan.readings.length;
        const byTime = new Map<number, Telemetry>();
        for (const each of plan.readings) {
          if (byTime.has(each.Time)) continue;
          byTime.set(each.Time, each);
          rows.push({ deviceId, reading: each });
        }
        written.set(deviceId, byTime);
      }
      const stored = await statements.insert(trx, rows);
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
