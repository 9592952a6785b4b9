import { http } from 'msw';
import { z } from 'zod';
import { CODES } from '../src/domain/envelope';
import { SETTINGS_FIELDS } from '../src/domain/mqtt/payloads';
import { isAboveRating } from '../src/domain/deviceTypes';
import { DEVICE_COMMANDS } from '../src/resources/devices/config';
import {
  changePermissionBodySchema,
  changeSettingsBodySchema,
  changeStateBodySchema,
  hasSettings,
  settingsOf,
} from '../src/resources/devices/requests';
import type { WireRecord } from '../src/resources/model';
import { readJson, type AccessCheck } from './access';
import { mockAccountOf } from './auth';
import { commandLog, type CommandBody, type CommandLog } from './deviceCommands';
import { fail, ok } from './envelope';
import type { MockScope } from './scope';
import { upstreamRefusal } from './upstream';

const deviceIdSchema = z.object({ Id: z.string().trim().optional() });

/** How the server words a type a field must have (server/http/messages.ts, `type.*`). */
const TYPE_WORDS: Record<string, string> = { string: 'a string', number: 'a number', int: 'a whole number', object: 'an object' };

/**
 * A device body's first problem as the server words it (en-US), naming the field: `SP must be at most 3`,
 * `ST must be a whole number`, `SS must be one of F, M, S`, `unknown field: RCP`. The zod issues the
 * device bodies can raise; anything else is `… is invalid`, as on the server.
 */
export const serverBadInput = (error: z.ZodError): string => {
  const [issue] = error.issues;
  if (issue === undefined) return 'body is invalid';
  if (issue.code === 'unrecognized_keys') return `unknown field: ${[...issue.path, issue.keys[0]].join('.')}`;
  const field = issue.path.join('.') || 'body';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} cannot be empty`;
      return `${field} must be ${TYPE_WORDS[issue.expected] ?? 'a value of the right type'}`;
    case 'too_small':
      // Only numbers: a blank Id is code 401 before the body is checked.
      return `${field} must be at least ${Number(issue.minimum)}`;
    case 'too_big':
      return `${field} must be at most ${Number(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return `${field} is invalid`;
  }
};

/**
 * The upstream's commands to chambers: a device's permission, state and settings (docs/commands.md; spec
 * point 6's mock: an empty device Id is code 401 'device ID cannot be empty'), validated with the shared
 * request bodies of src/resources/devices/requests.ts, each answering the device and the `cmdId` of the
 * command it put in `commands`, as the server does. `tables` are the seeded resources; a device out of
 * the caller's scope is not found.
 */
export const issueCommandHandlers = (
  base: string,
  tables: Map<string, WireRecord[]>,
  check: AccessCheck,
  scope: MockScope,
  commands: CommandLog = commandLog(),
) => {
  const devices = () => tables.get('devices') ?? [];

  /** The server's refusal of a set point above the device type's rating (server/device-types/rating.ts), in its en-US words. */
  const aboveRating = (device: WireRecord, SP: number | undefined) => {
    const type = (tables.get('device-types') ?? []).find((candidate) => candidate.id === device.Type);
    if (SP === undefined || type === undefined || !isAboveRating(SP, Number(type.ratedMaxAta))) return undefined;
    return fail(CODES.badInput, `SP must be at most ${Number(type.ratedMaxAta)} ATA, the rated maximum of type ${String(type.id)} (${String(type.name)})`);
  };

  /**
   * A device command's body and device, or the answer refusing it, checked in the server's order: the
   * role (50008, 40300), an empty Id (401), the body (40000), the device (40400).
   */
  const deviceCommand = async <T extends { Id: string }>(
    request: Request,
    action: 'changePermission' | 'changeState' | 'changeSettings',
    schema: z.ZodType<T>,
  ) => {
    const refused = upstreamRefusal(request, check, 'devices', action);
    if (refused) return { refused };
    const json: unknown = await readJson(request);
    if (!deviceIdSchema.safeParse(json).data?.Id) return { refused: fail(CODES.emptyDeviceId, 'device ID cannot be empty') };
    const body = schema.safeParse(json, { reportInput: true });
    if (!body.success) return { refused: fail(CODES.badInput, serverBadInput(body.error)) };
    const device = devices().find((record) => record.Id === body.data.Id && scope.seesDevice(request, record.Id));
    return device ? { device, body: body.data } : { refused: fail(CODES.notFound, 'not found') };
  };

  /** Makes the change, sends the command to the (mocked) chamber, and answers the device with the command's id. */
  const issue = (request: Request, device: WireRecord, change: WireRecord, command: CommandBody) => {
    const cmdId = commands.issue(String(device.Id), command, mockAccountOf(request) ?? null);
    return ok({ ...Object.assign(device, change, { UpdateTime: Date.now() }), cmdId });
  };

  return [
    // change_permission: to Permission when given, else to the other value.
    http.post(`${base}${DEVICE_COMMANDS.changePermission}`, async ({ request }) => {
      const { refused, device, body } = await deviceCommand(request, 'changePermission', changePermissionBodySchema);
      if (refused) return refused;
      const Permission = body.Permission ?? (device.Permission === 'Open' ? 'Close' : 'Open');
      return issue(request, device, { Permission }, { type: 'permission', Permission });
    }),
    http.post(`${base}${DEVICE_COMMANDS.changeState}`, async ({ request }) => {
      const { refused, device, body } = await deviceCommand(request, 'changeState', changeStateBodySchema);
      if (refused) return refused;
      return issue(request, device, { State: body.State }, { type: 'state', State: body.State });
    }),
    // change_settings: at least one setting, SP within the device type's rating. The server keeps no settings
    // of its own (the chamber's readings report them), so only the device's update time changes; the command
    // holds the settings.
    http.post(`${base}${DEVICE_COMMANDS.changeSettings}`, async ({ request }) => {
      const { refused, device, body } = await deviceCommand(request, 'changeSettings', changeSettingsBodySchema);
      if (refused) return refused;
      if (!hasSettings(body)) return fail(CODES.badInput, `${SETTINGS_FIELDS.join('/')} cannot be empty`);
      const refusedAbove = aboveRating(device, body.SP);
      if (refusedAbove) return refusedAbove;
      return issue(request, device, {}, { type: 'settings', ...settingsOf(body) });
    }),
  ];
};
