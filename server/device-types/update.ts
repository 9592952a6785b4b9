import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { DeviceType } from '../../src/domain/deviceTypes';
import { deviceTypesConfig } from '../../src/resources/device-types/config';
import { writeSchema } from '../../src/resources/schema';
import { actorOf } from '../audit/actor';
import { recordAudit, type AuditActor } from '../audit/trail';
import { requireAccess } from '../auth/guard';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { badInput, notFound } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import type { Selectable } from 'kysely';
import { refuseRatingBelowSetPoints } from './rating';

/**
 * `PUT /api/v1/device-types/:id` (ra-data-simple-rest's update): the super administrator renames a type or
 * changes its rated maximum pressure (docs/device-types.md). The body is the edit form's (the shared
 * schema: name up to 32 characters, rated maximum 1.0–3.0 ATA, each refused naming its field), with the
 * record's `updatedAt` as simple-rest sends it back, ignored: the server's clock sets it. Types are
 * fixed, so there is no create or delete.
 */

const deviceTypeEdit = writeSchema(deviceTypesConfig, 'edit').extend({ updatedAt: z.number().nullish() });
type DeviceTypeEdit = { id: number; name: string; ratedMaxAta: number };

const typeParams = z.strictObject({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

const asDeviceType = (row: Selectable<DB['device_types']>): DeviceType => ({
  id: Number(row.id),
  name: row.name,
  ratedMaxAta: Number(row.rated_max_ata),
  updatedAt: Number(row.updated_at),
});

/** What the audit trail keeps of a type before and after an edit. */
const edited = (type: Pick<DeviceType, 'name' | 'ratedMaxAta'>) => ({ name: type.name, ratedMaxAta: type.ratedMaxAta });

/**
 * Writes the edit and its audit entry in one transaction; an unknown type is 404, and a rating lowered
 * below a set point in force on one of the type's chambers 400 naming ratedMaxAta and the chamber, each
 * writing nothing. The type's row is written before its chambers are read, so a settings command that
 * reads the rating meanwhile waits for this transaction (server/device-types/rating.ts, typeRating), and
 * one that read it before has its command recorded, which the check counts once it commits.
 */
const updateDeviceType = (ctx: Pick<AppContext, 'db' | 'now'>, actor: AuditActor, edit: DeviceTypeEdit): Promise<DeviceType> =>
  ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const row = await trx.selectFrom('device_types').selectAll().where('id', '=', edit.id).executeTakeFirst();
    if (row === undefined) throw notFound();
    const before = asDeviceType(row);
    await trx.updateTable('device_types').set({ name: edit.name, rated_max_ata: edit.ratedMaxAta, updated_at: at }).where('id', '=', edit.id).execute();
    if (edit.ratedMaxAta < before.ratedMaxAta) await refuseRatingBelowSetPoints(trx, edit.id, edit.ratedMaxAta);
    await recordAudit(trx, actor, { action: 'deviceType.update', targetType: 'deviceType', targetId: edit.id, before: edited(before), after: edited(edit) }, at);
    return { id: edit.id, name: edit.name, ratedMaxAta: edit.ratedMaxAta, updatedAt: at };
  });

export const deviceTypeRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.put(
    '/device-types/:id',
    { schema: { params: typeParams, body: deviceTypeEdit }, onRequest: requireAccess({ resource: deviceTypesConfig.name, action: 'edit' }) },
    async (request) => {
      const body = request.body as DeviceTypeEdit;
      // simple-rest names the record twice, in the path and in the body: they must agree.
      if (body.id !== request.params.id) throw badInput('validation.invalid', { field: 'id' });
      return updateDeviceType(app.ctx, actorOf(request), { id: body.id, name: body.name, ratedMaxAta: body.ratedMaxAta });
    },
  );
};
