import { z } from 'zod';
import { CODES } from '../../src/domain/envelope';
import { devicesConfig } from '../../src/resources/devices/config';
import { idFields, sourcesIn, type WireRecord } from '../../src/resources/model';
import { writeSchema } from '../../src/resources/schema';
import type { ResourceConfig } from '../../src/resources/types';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { DeviceRow } from '../db/schema';
import type { Viewer } from '../scope/service';
import { refuseTypeBelowSetPoint, typeRating } from '../device-types/rating';
import { claimDevice, deviceRecord } from './claim';

/**
 * `device/update_OCProperty`: the console's device edit, `{ Id, name, Type, Location }` (an admin's
 * right by the shared policy). The body is the console's own edit schema (src/resources/schema.ts,
 * `writeSchema(devicesConfig, 'edit')`), so console, mocks and server accept exactly the same bodies.
 */

/** What the edit form writes, wire field → devices column; checked against the configuration at start. */
const DEVICE_EDIT_COLUMNS = { name: 'name', Type: 'type', Location: 'location' } as const;

/** A validated edit (the shared schema has trimmed the texts). */
export interface DeviceEdit {
  Id: string;
  name: string;
  Type: number;
  Location: string;
}

/**
 * The problems of the update against the configuration: the edit form's fields must be exactly the
 * columns written here, and the record named by the single id field `Id`. Empty when they agree.
 */
export const deviceEditProblems = (config: ResourceConfig = devicesConfig): string[] => {
  const problems: string[] = [];
  const ids = idFields(config);
  if (ids.length !== 1 || ids[0] !== 'Id') problems.push(`devices are named by ${ids.join(', ')}, not by Id`);
  const inForm = sourcesIn(config, 'edit');
  const written = Object.keys(DEVICE_EDIT_COLUMNS);
  for (const source of inForm) if (!written.includes(source)) problems.push(`devices.${source} is edited but has no column to write`);
  for (const source of written) if (!inForm.includes(source)) problems.push(`devices.${source} is written but not in the edit form`);
  return problems;
};

const isBlank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Puts the old console's answer for an empty device Id first: a missing, null or blank `Id` (or no body at
 * all) is code 401 'device ID cannot be empty' (docs/product.md, "Wire contract"), whatever else the body
 * holds; only then does `schema` check the body (40000 naming the field). Any device call may wrap
 * its schema in this.
 */
export const withDeviceId = <S extends z.ZodType>(schema: S) =>
  z
    .unknown()
    .superRefine((body, ctx) => {
      const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
      if (body !== undefined && body !== null && !isObject) return;
      if (!isBlank(isObject ? (body as Record<string, unknown>).Id : undefined)) return;
      ctx.addIssue({ code: 'custom', path: ['Id'], params: { messageKey: 'device.idEmpty', code: CODES.emptyDeviceId } });
    })
    .pipe(schema);

/** The update's body: an empty Id first (401), then the shared edit schema (unknown keys, types, limits: 40000). */
export const deviceEditBody = withDeviceId(writeSchema(devicesConfig, 'edit')) as unknown as z.ZodType<DeviceEdit>;

/** The fields of a device the edit changes, as the audit trail keeps them before and after. */
const editedFields = (row: Pick<DeviceRow, 'name' | 'type' | 'location'>) => ({ name: row.name, Type: row.type, Location: row.location });

/**
 * Writes the edit (name, Type, Location and the update time from the server's clock) to a device the
 * viewer sees, records 'device.update' with the fields before and after in the same transaction, and
 * answers the device as `list/get_OCProperty` answers it. A device out of the viewer's scope is "not
 * found" exactly like one that does not exist (40400, nothing written); a new Type rated below the set
 * point in force on the device is 40000 naming Type (docs/device-types.md), nothing written.
 */
export const updateDevice = (
  ctx: Pick<AppContext, 'db' | 'kind' | 'now'>,
  viewer: Viewer,
  actor: AuditActor,
  edit: DeviceEdit,
): Promise<WireRecord> =>
  ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const before = await claimDevice(trx, viewer, edit.Id, at);
    if (edit.Type !== before.type) await refuseTypeBelowSetPoint(trx, edit.Id, await typeRating(trx, edit.Type, ctx.kind === 'postgres'));
    await trx
      .updateTable('devices')
      .set({ name: edit.name, type: edit.Type, location: edit.Location })
      .where('devices.id', '=', edit.Id)
      .execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'device.update',
        targetType: 'device',
        targetId: edit.Id,
        deviceId: edit.Id,
        before: editedFields(before),
        after: editedFields({ name: edit.name, type: edit.Type, location: edit.Location }),
      },
      at,
    );
    return deviceRecord(trx, viewer, edit.Id);
  });
