import type { ExpressionBuilder, Kysely, Updateable } from 'kysely';
import type { DevicePatch } from '../../src/domain/live';
import { isSet, type DB, type DeviceRow, type DevicesTable } from '../db/schema';

/**
 * Whether a device is online and when it was last heard from (docs/product.md, "Devices and readings" and
 * the "lost telemetry" rule of "Safety alarms"; docs/ingest.md, "Online, last seen, offline").
 *
 * - `last_seen_at` is the server's clock when a message from the device arrived (telemetry, an
 *   `online` status or an event), never the device's own Time, and it only moves forward.
 * - Online: any of those messages; offline: an `offline` status (the last will, or the device's own
 *   before a clean disconnect), or no message for OFFLINE_AFTER_MS while the device runs a session.
 */

/** A device in a session that has sent nothing for this long is offline (docs/product.md: "no telemetry for 30 s during a session"). */
export const OFFLINE_AFTER_MS = 30_000;

/** How often the silent devices are looked for: a device goes offline between 30 and 35 s after its last message. */
export const OFFLINE_SWEEP_INTERVAL_MS = 5_000;

/** `last_seen_at` moved to `at` unless it is already later. */
export const forwardLastSeen = (eb: ExpressionBuilder<DB, 'devices'>, at: number) =>
  eb
    .case()
    .when(eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', at)]))
    .then(at)
    .else(eb.ref('last_seen_at'))
    .end();

const PATCH_COLUMNS = ['id', 'online', 'last_seen_at', 'erd', 'state', 'order_num', 'updated_at', 'session_oc'] as const;

/** A device row as read back after an event, for its live patch. */
export type DeviceAfterEvent = Pick<DeviceRow, (typeof PATCH_COLUMNS)[number]>;

/**
 * A message from the device arrived at `at` (server clock): online, last seen moved forward, and
 * `changes` applied, in one statement that also takes the row lock (PostgreSQL). Undefined for a
 * device that is not registered.
 */
export const touchDevice = async (
  db: Kysely<DB>,
  deviceId: string,
  at: number,
  changes: Updateable<DevicesTable> = {},
): Promise<DeviceAfterEvent | undefined> =>
  db
    .updateTable('devices')
    .set((eb) => ({ ...changes, online: 1, last_seen_at: forwardLastSeen(eb, at) }))
    .where('id', '=', deviceId)
    .returning(PATCH_COLUMNS)
    .executeTakeFirst();

/** The presence part of a device's live patch. */
export const presencePatch = (row: { id: string; online: number; last_seen_at: number | null }): DevicePatch => ({
  Id: row.id,
  Online: isSet(row.online),
  LastSeen: row.last_seen_at === null ? null : Number(row.last_seen_at),
});

/**
 * Marks offline every online device running a session (a `sessionStart` without its `sessionEnd`) that
 * has not been heard from for more than `offlineAfterMs` at `now`, and answers them. Conditional, so
 * several server instances sweeping one database report each device once.
 */
export const markSilentDevicesOffline = async (db: Kysely<DB>, now: number, offlineAfterMs: number) => {
  const silent = (eb: ExpressionBuilder<DB, 'devices'>) =>
    eb.and([eb('online', '=', 1), eb('session_oc', 'is not', null), eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', now - offlineAfterMs)])]);
  // Looked for first: an UPDATE takes SQLite's write lock even when it changes nothing, and the sweep
  // must not wait for the ingestion's writer when no device is silent (docs/ingest.md, "The writer thread").
  if ((await db.selectFrom('devices').select('id').where(silent).limit(1).executeTakeFirst()) === undefined) return [];
  return db.updateTable('devices').set({ online: 0 }).where(silent).returning(['id', 'online', 'last_seen_at']).execute();
};
