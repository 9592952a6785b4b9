import type { z } from 'zod';
import {
  changePermissionBodySchema,
  changeStateBodySchema,
  type ChangePermissionBody,
  type ChangeStateBody,
} from '../../src/resources/devices/commands';
import type { WireRecord } from '../../src/resources/model';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { Viewer } from '../scope/service';
import { claimDevice, deviceRecord } from './claim';
import { withDeviceId } from './update';

/**
 * The upstream's device commands (spec point 7), under API_PREFIX:
 *   POST /order/change_permission  { Id, Permission? }  toggles Open ↔ Close, or sets Permission when given
 *   POST /order/change_state       { Id, State }        sets Work, Stop or Repair
 * Bodies are the console's own schemas (src/resources/devices/commands.ts) behind `withDeviceId`, so an
 * empty Id is code 401 first. Each writes the device and its update time and records the audit entry in
 * one transaction, and answers the device as `list/get_OCProperty` lists it. Sending the command to the
 * chamber over MQTT (`oc/{Id}/cmd`) is the MQTT work's; these set the server's record of it.
 */

export const changePermissionBody = withDeviceId(changePermissionBodySchema) as unknown as z.ZodType<ChangePermissionBody>;
export const changeStateBody = withDeviceId(changeStateBodySchema) as unknown as z.ZodType<ChangeStateBody>;

type CommandContext = Pick<AppContext, 'db' | 'now'>;

/**
 * Switches the device's permission: to `Permission` when given, else to the other value. The device is
 * claimed (locked) before its current permission is read, so two toggles at once end where they began
 * rather than both writing the same value. Out of scope or unknown → 40400, nothing written.
 */
export const changePermission = (ctx: CommandContext, viewer: Viewer, actor: AuditActor, body: ChangePermissionBody): Promise<WireRecord> =>
  ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const device = await claimDevice(trx, viewer, body.Id, at);
    const next = body.Permission ?? (device.permission === 'Open' ? 'Close' : 'Open');
    await trx.updateTable('devices').set({ permission: next }).where('devices.id', '=', body.Id).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'device.changePermission',
        targetType: 'device',
        targetId: body.Id,
        deviceId: body.Id,
        before: { Permission: device.permission },
        after: { Permission: next },
      },
      at,
    );
    return deviceRecord(trx, viewer, body.Id);
  });

/** Sets the device's state (Work, Stop, Repair). Out of scope or unknown → 40400, nothing written. */
export const changeState = (ctx: CommandContext, viewer: Viewer, actor: AuditActor, body: ChangeStateBody): Promise<WireRecord> =>
  ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const device = await claimDevice(trx, viewer, body.Id, at);
    await trx.updateTable('devices').set({ state: body.State }).where('devices.id', '=', body.Id).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'device.changeState',
        targetType: 'device',
        targetId: body.Id,
        deviceId: body.Id,
        before: { State: device.state },
        after: { State: body.State },
      },
      at,
    );
    return deviceRecord(trx, viewer, body.Id);
  });
