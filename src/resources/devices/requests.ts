import { z } from 'zod';
import type { CommandStatus } from '../../domain/commands';
import { RANGES, SETTINGS_FIELDS, SPEEDS, type Command } from '../../domain/mqtt/payloads';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, DEVICE_PERMISSIONS, DEVICE_STATES } from '../../domain/devices';

/**
 * The device commands' bodies (docs/server-devices.md), shared by the console, the msw mocks and the server. An
 * empty Id is the old console's own answer (code 401 'device ID cannot be empty'); the server puts that check
 * first (server/devices/update.ts, withDeviceId).
 */
export const deviceIdSchema = z.string().trim().min(1).max(DEVICE_ID_MAX).regex(DEVICE_ID_PATTERN);

/** `order/change_permission`: toggles Open/Close, or sets `Permission` when given (no race between two clicks). */
export const changePermissionBodySchema = z.strictObject({ Id: deviceIdSchema, Permission: z.enum(DEVICE_PERMISSIONS).optional() });
export type ChangePermissionBody = z.infer<typeof changePermissionBodySchema>;

/** `order/change_state`: Work, Stop or Repair. */
export const changeStateBodySchema = z.strictObject({ Id: deviceIdSchema, State: z.enum(DEVICE_STATES) });
export type ChangeStateBody = z.infer<typeof changeStateBodySchema>;

type SettingsField = (typeof SETTINGS_FIELDS)[number];

const within = (range: { min: number; max: number; integer?: boolean }) =>
  (range.integer === true ? z.number().int() : z.number()).min(range.min).max(range.max);

/**
 * A chamber's settings (docs/product.md, "Devices and readings"), with the MQTT contract's ranges
 * (src/domain/mqtt/payloads.ts): SP pressure 1–3 ATA, ST time 0–240 whole minutes, SS speed F | M | S, SL light
 * and SA atmosphere light 0 | 1.
 */
const SETTINGS_SCHEMAS = {
  SP: within(RANGES.SP),
  ST: within(RANGES.ST),
  SS: z.enum(SPEEDS),
  SL: z.literal([0, 1]),
  SA: z.literal([0, 1]),
} as const satisfies Record<SettingsField, z.ZodType>;
export type Settings = { [F in SettingsField]: z.infer<(typeof SETTINGS_SCHEMAS)[F]> };

/**
 * `order/change_settings` (ours, docs/commands.md): the settings to change; those left out stay as they
 * are. At least one is needed (`hasSettings`): the server refuses an empty change after this schema, so
 * that the schema itself stays a plain strict object.
 */
export const changeSettingsBodySchema = z.strictObject({
  Id: deviceIdSchema,
  SP: SETTINGS_SCHEMAS.SP.optional(),
  ST: SETTINGS_SCHEMAS.ST.optional(),
  SS: SETTINGS_SCHEMAS.SS.optional(),
  SL: SETTINGS_SCHEMAS.SL.optional(),
  SA: SETTINGS_SCHEMAS.SA.optional(),
});
export type ChangeSettingsBody = z.infer<typeof changeSettingsBodySchema>;

/** The settings a change names, and only those. */
export const settingsOf = (body: Partial<Settings>): Partial<Settings> =>
  Object.fromEntries(SETTINGS_FIELDS.flatMap((field) => (body[field] === undefined ? [] : [[field, body[field]]])));

export const hasSettings = (body: Partial<Settings>): boolean => Object.keys(settingsOf(body)).length > 0;

/** What every command call answers besides the device: the command's id, to follow its outcome. */
export interface IssuedCommand {
  cmdId: string;
}

/** A status after which nothing changes any more: acknowledged, refused or timed out. */
export type FinalCommandStatus = Exclude<CommandStatus, 'sent'>;
export const isFinalStatus = (status: CommandStatus): status is FinalCommandStatus => status !== 'sent';

/** A command as `GET /api/v1/device-commands/:id` answers it (ra-data-simple-rest's shape: `id` is the cmdId). */
export interface DeviceCommandRecord {
  id: string;
  /** The device. */
  Id: string;
  type: Command['type'];
  status: CommandStatus;
  /** The device's reason when it refused. */
  error: string | null;
  /** The account that issued it. */
  actor: string | null;
  issuedAt: number;
  answeredAt: number | null;
  /** The command exactly as published on `oc/{Id}/cmd`. */
  command: Command;
}
