import type { z } from 'zod';
import { SETTINGS_FIELDS } from '../../src/domain/mqtt/payloads';
import {
  changePermissionBodySchema,
  changeSettingsBodySchema,
  changeStateBodySchema,
  hasSettings,
  settingsOf,
  type ChangePermissionBody,
  type ChangeSettingsBody,
  type ChangeStateBody,
  type IssuedCommand,
  type Settings,
} from '../../src/resources/devices/requests';
import type { WireRecord } from '../../src/resources/model';
import type { AuditAction } from '../../src/domain/audit';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import { badInput } from '../http/envelope';
import { dispatchCommand, recordCommand, type CommandBody } from '../commands/issue';
import type { CommandLog } from '../commands/outcomes';
import type { DB, DeviceRow } from '../db/schema';
import type { Kysely } from 'kysely';
import type { Viewer } from '../scope/service';
import { refuseAboveRating, typeRating } from '../device-types/rating';
import { claimDevice, deviceRecord } from './claim';
import { withDeviceId } from './update';

/**
 * The device commands, under API_PREFIX (docs/server-devices.md, docs/commands.md):
 *   POST /order/change_permission  { Id, Permission? }          toggles Open ↔ Close, or sets Permission when given
 *   POST /order/change_state       { Id, State }                sets Work, Stop or Repair
 *   POST /order/change_settings    { Id, SP?, ST?, SS?, SL?, SA? }  at least one setting (ours, same family)
 * Bodies are the console's own schemas (src/resources/devices/requests.ts) behind `withDeviceId`, so an
 * empty Id is code 401 first. Each claims the device (scope, row lock), makes its change, records its
 * audit entry and the command for the chamber (device_commands, 'sent') in one transaction, then, after
 * the commit, publishes the command on `oc/{Id}/cmd` (server/commands/issue.ts). The answer is the device
 * as `list/get_OCProperty` lists it plus the command's `cmdId`, whose outcome (acked, refused, timeout)
 * follows on the live stream and at `GET /api/v1/device-commands/:cmdId`.
 */

export const changePermissionBody = withDeviceId(changePermissionBodySchema) as unknown as z.ZodType<ChangePermissionBody>;
export const changeStateBody = withDeviceId(changeStateBodySchema) as unknown as z.ZodType<ChangeStateBody>;
export const changeSettingsBody = withDeviceId(changeSettingsBodySchema) as unknown as z.ZodType<ChangeSettingsBody>;

type CommandContext = Pick<AppContext, 'db' | 'kind' | 'now' | 'link' | 'live'>;

/** A device command's answer: the device as listed, and the command sent to it. */
export type CommandAnswer = WireRecord & IssuedCommand;

/** What a command does to the device it claimed: the columns it writes (none for settings), its audit entry, the command. */
interface DeviceChange {
  columns?: Partial<Pick<DeviceRow, 'permission' | 'state'>>;
  action: AuditAction;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  command: CommandBody;
}

/**
 * What else a command's transaction writes, after the command is recorded and before its audit entry, so that
 * any row it locks is locked before the audit chain's lock (docs/audit.md): an approved settings request.
 */
export type AlongsideCommand = (trx: Kysely<DB>, cmdId: string, at: number) => Promise<void>;

/**
 * One device command: in one transaction the device is claimed (locked; out of scope or unknown →
 * 40400, nothing written) before its current values are read, so concurrent commands serialise; the
 * change, its audit entry (with the cmdId) and the command row are written. Then the command is
 * dispatched, and the device answered with the cmdId.
 */
const runCommand = async (
  ctx: CommandContext,
  log: CommandLog,
  viewer: Viewer,
  actor: AuditActor,
  Id: string,
  plan: (device: DeviceRow, trx: Kysely<DB>) => DeviceChange | Promise<DeviceChange>,
  alongside?: AlongsideCommand,
): Promise<CommandAnswer> => {
  const { record, command } = await ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const device = await claimDevice(trx, viewer, Id, at);
    const { columns, action, before, after, command: body } = await plan(device, trx);
    if (columns !== undefined) await trx.updateTable('devices').set(columns).where('devices.id', '=', Id).execute();
    const sent = await recordCommand(trx, Id, body, actor.id, at);
    if (alongside !== undefined) await alongside(trx, sent.cmdId, at);
    await recordAudit(trx, actor, { action, targetType: 'device', targetId: Id, deviceId: Id, before, after: { ...after, cmdId: sent.cmdId } }, at);
    return { record: await deviceRecord(trx, viewer, Id), command: sent };
  });
  await dispatchCommand(ctx, log, Id, command);
  return { ...record, cmdId: command.cmdId };
};

/**
 * Switches the device's permission: to `Permission` when given, else to the other value. The entry is
 * written even when the value does not change: it records an operator's action, and the chamber is
 * told the value anyway.
 */
export const changePermission = (ctx: CommandContext, log: CommandLog, viewer: Viewer, actor: AuditActor, body: ChangePermissionBody) => {
  return runCommand(ctx, log, viewer, actor, body.Id, (device) => {
    const Permission = body.Permission ?? (device.permission === 'Open' ? 'Close' : 'Open');
    return {
      columns: { permission: Permission },
      action: 'device.changePermission',
      before: { Permission: device.permission },
      after: { Permission },
      command: { type: 'permission', Permission },
    };
  });
};

/** Sets the device's state (Work, Stop, Repair). */
export const changeState = (ctx: CommandContext, log: CommandLog, viewer: Viewer, actor: AuditActor, body: ChangeStateBody) =>
  runCommand(ctx, log, viewer, actor, body.Id, (device) => ({
    columns: { state: body.State },
    action: 'device.changeState',
    before: { State: device.state },
    after: { State: body.State },
    command: { type: 'state', State: body.State },
  }));

/** The settings the chamber last reported (its newest reading); none before its first reading. */
export const reportedSettings = (device: DeviceRow): Partial<Settings> => {
  if (device.latest === null) return {};
  try {
    return settingsOf(JSON.parse(device.latest) as Partial<Settings>);
  } catch {
    return {};
  }
};

/**
 * Asks the chamber to change the given settings. The server keeps no settings of its own (the chamber's
 * telemetry reports what it runs with), so only the update time changes on the device. The audit entry
 * holds, for each setting asked for, the value last reported before (null when the chamber has not
 * reported it) and the value asked for after. No setting at all is 40000 naming the five fields, and
 * an SP above the device type's rated maximum 40000 naming SP and the limit (checked once the device is
 * claimed, so a device out of scope is 40400 first), nothing written and nothing sent. An approved settings
 * request (server/setting-requests/) sends its settings this way, writing its decision `alongside`.
 */
export const changeSettings = async (
  ctx: CommandContext,
  log: CommandLog,
  viewer: Viewer,
  actor: AuditActor,
  body: ChangeSettingsBody,
  alongside?: AlongsideCommand,
) => {
  if (!hasSettings(body)) throw badInput('validation.required', { field: SETTINGS_FIELDS.join('/') });
  const asked = settingsOf(body);
  const fields = SETTINGS_FIELDS.filter((field) => asked[field] !== undefined);
  return runCommand(ctx, log, viewer, actor, body.Id, async (device, trx) => {
    if (asked.SP !== undefined) refuseAboveRating(asked.SP, await typeRating(trx, device.type, ctx.kind === 'postgres'));
    const reported = reportedSettings(device);
    return {
      action: 'device.changeSettings',
      before: Object.fromEntries(fields.map((field) => [field, reported[field] ?? null])),
      after: asked,
      command: { type: 'settings', ...asked },
    };
  }, alongside);
};
