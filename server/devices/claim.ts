import type { Kysely } from 'kysely';
import type { WireRecord } from '../../src/resources/model';
import type { DB, DeviceRow } from '../db/schema';
import { notFound } from '../http/envelope';
import { deviceScope, type Viewer } from '../scope/service';
import { listDeviceById } from './list';

/**
 * The first step of every device write, inside the write's transaction: sets `updated_at` (the server's
 * clock) on the device when it exists **and** is in the viewer's scope, and reads the row back. The
 * UPDATE takes the row lock (PostgreSQL) or the write lock (SQLite) before the row is read, so the
 * "before" a write records cannot change under it, and two concurrent toggles of the permission
 * serialise instead of both reading the same value. No row → 40400, the same for a device that does
 * not exist, one out of scope and one removed (kept for its history); nothing is written (the caller's transaction rolls back).
 */
export const claimDevice = async (trx: Kysely<DB>, viewer: Viewer, id: string, now: number): Promise<DeviceRow> => {
  const scope = deviceScope(trx, viewer);
  const touch = trx.updateTable('devices').set({ updated_at: now }).where('devices.id', '=', id).where('devices.removed_at', 'is', null);
  const result = await (scope === undefined ? touch : touch.where('devices.id', 'in', scope)).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound();
  const row = await trx.selectFrom('devices').selectAll().where('devices.id', '=', id).executeTakeFirst();
  if (row === undefined) throw notFound();
  return row;
};

/** The device as `list/get_OCProperty` lists it to the viewer (the answer of every device write). */
export const deviceRecord = async (db: Kysely<DB>, viewer: Viewer, id: string): Promise<WireRecord> => {
  const { list } = await listDeviceById(db, viewer, id);
  const [record] = list;
  if (record === undefined) throw notFound();
  return record;
};
