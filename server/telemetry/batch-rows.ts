import type { Kysely } from 'kysely';
import type { Telemetry } from '../../src/domain/mqtt/payloads';
import type { DB, NewStateRecordRow } from '../db/schema';

/** What a batch writes, and how each store writes it (batch.ts; batch-sqlite.ts, batch-postgres.ts). */

/** state_records columns ↔ telemetry wire names. */
export const READING_COLUMNS = [
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

/** A reading the insert stored (not one stored before). */
export type StoredRow = { device_id: string; time: number };

/** A registered device's row after its touch. */
export type TouchRow = { id: string; online: number; last_seen_at: number | null; latest: string | null };

/** One device's part of the batch: what its row is told. */
export interface DeviceTouch {
  deviceId: string;
  online: boolean;
  /** Undefined with only `offline`: last seen is left as it is. */
  lastSeen: number | undefined;
  /** Its newest reading as the devices row keeps it (JSON of the reading with its Id), when it has one. */
  latest: { time: number; json: string } | undefined;
}

/** A reading to insert, with its device. */
export interface ReadingRow {
  deviceId: string;
  reading: Telemetry;
}

/**
 * How a store runs the batch's two steps inside its transaction. Each store has its own: on SQLite, in
 * process, a statement per device costs next to nothing; on PostgreSQL every statement is a round trip
 * and a plan, so the batch is two statements whatever its size (batch-postgres.ts).
 */
export interface BatchStatements {
  /** Applies the touches, given in device Id order (so concurrent instances lock rows in that order); answers the registered devices' rows. */
  touch: (trx: Kysely<DB>, touches: readonly DeviceTouch[]) => Promise<TouchRow[]>;
  /** Inserts the rows; answers those that were new. */
  insert: (trx: Kysely<DB>, rows: readonly ReadingRow[]) => Promise<StoredRow[]>;
}

