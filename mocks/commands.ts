import { http } from 'msw';
import { z } from 'zod';
import { CODES } from '../src/domain/envelope';
import { SETTINGS_FIELDS } from '../src/domain/mqtt';
import { isAcceptablePassword } from '../src/domain/password';
import { seededRandomFor } from '../src/domain/random';
import {
  addAdminBodySchema,
  adminResetBodySchema,
  assignDevicesBodySchema,
  selfResetBodySchema,
  type ResetAnswer,
} from '../src/resources/accounts/commands';
import { ACCOUNT_COMMANDS, ACCOUNT_ENDPOINTS, accountsConfig } from '../src/resources/accounts/config';
import { mayCreateAt } from '../src/resources/accounts/levels';
import {
  changePermissionBodySchema,
  changeSettingsBodySchema,
  changeStateBodySchema,
  hasSettings,
  settingsOf,
} from '../src/resources/devices/commands';
import { DEVICE_COMMANDS } from '../src/resources/devices/config';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { endSessionsOf, mockAccountId, mockAccountOf, mockCredentials, type MockCredentials } from './auth';
import { commandLog, type CommandBody, type CommandLog } from './deviceCommands';
import { fail, ok } from './envelope';
import { upstreamRefusal } from './upstream';

const deviceIdSchema = z.object({ Id: z.string().trim().optional() });

/** How the server words a type a field must have (server/http/messages.ts, `type.*`). */
const TYPE_WORDS: Record<string, string> = { string: 'a string', number: 'a number', int: 'a whole number', object: 'an object' };

/**
 * A device body's first problem as the server words it (en-US), naming the field: `SP must be at most 3`,
 * `ST must be a whole number`, `SS must be one of F, M, S`, `unknown field: RCP`. The zod issues the
 * device bodies can raise; anything else is `… is invalid`, as on the server.
 */
const serverBadInput = (error: z.ZodError): string => {
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

/** A password the mock "generates" on reset: deterministic per mock server, and always within the rule. */
const resetCodes = () => {
  const random = seededRandomFor('mock:reset');
  const letters = 'abcdefghjkmnpqrstuvwxyz';
  const pick = (alphabet: string) => alphabet[Math.floor(random() * alphabet.length)] ?? 'a';
  return (): string => {
    const code = `${pick(letters.toUpperCase())}${Array.from({ length: 7 }, () => pick(letters)).join('')}${Math.floor(random() * 9000) + 1000}`;
    return isAcceptablePassword(code) ? code : `${code}Aa1`;
  };
};

/**
 * The upstream's commands: a device's permission, state and settings (docs/commands.md; spec point 6's
 * mock: an empty device Id is code 401 'device ID cannot be empty'), validated with the shared schemas of
 * src/resources/devices/commands.ts, each answering the device and the `cmdId` of the command it put in
 * `commands`; and the account calls of decisions.md ("Account hierarchy"), validated with the shared
 * schemas of src/resources/accounts/commands.ts. All answer as the server does. `tables` are the seeded
 * resources; `credentials` the sign-in accounts' passwords (mocks/auth.ts).
 */
export const commandHandlers = (
  base: string,
  tables: Map<string, WireRecord[]>,
  check: AccessCheck,
  credentials: MockCredentials = mockCredentials(),
  commands: CommandLog = commandLog(),
) => {
  const devices = () => tables.get('devices') ?? [];
  const accounts = () => tables.get(accountsConfig.name) ?? [];
  const newCode = resetCodes();

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
    const device = devices().find((record) => record.Id === body.data.Id);
    return device ? { device, body: body.data } : { refused: fail(CODES.notFound, 'not found') };
  };

  /** Makes the change, sends the command to the (mocked) chamber, and answers the device with the command's id. */
  const issue = (request: Request, device: WireRecord, change: WireRecord, command: CommandBody) => {
    const cmdId = commands.issue(String(device.Id), command, mockAccountOf(request) ?? null);
    return ok({ ...Object.assign(device, change, { UpdateTime: Date.now() }), cmdId });
  };

  /** The signed-in caller (a sign-in account: its name and level). */
  const callerOf = (request: Request) => {
    const account = mockAccountOf(request) ?? '';
    const credential = credentials.get(account);
    return credential ? { account, level: credential.Level } : undefined;
  };

  /** An account listed by get_Admins, other than the caller: the server's "strictly below the caller". */
  const subordinate = (caller: string, account: string) =>
    account === caller ? undefined : accounts().find((record) => record.Account === account);

  /** The accounts below `account` (SubAdmin chains; the seeded ones may loop, so each is visited once). */
  const below = (account: string): WireRecord[] => {
    const found: WireRecord[] = [];
    const seen = new Set([account]);
    for (let frontier = [account]; frontier.length > 0; ) {
      const next = accounts().filter((record) => frontier.includes(String(record.SubAdmin)) && !seen.has(String(record.Account)));
      next.forEach((record) => seen.add(String(record.Account)));
      found.push(...next);
      frontier = next.map((record) => String(record.Account));
    }
    return found;
  };

  /** 40000 naming DeviceIds for the first device the caller does not manage (in the mocks: one that does not exist). */
  const unmanaged = (ids: readonly string[]) => ids.find((id) => !devices().some((device) => device.Id === id));

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
    // change_settings: at least one setting. The server keeps no settings of its own (the chamber's
    // readings report them), so only the device's update time changes; the command holds the settings.
    http.post(`${base}${DEVICE_COMMANDS.changeSettings}`, async ({ request }) => {
      const { refused, device, body } = await deviceCommand(request, 'changeSettings', changeSettingsBodySchema);
      if (refused) return refused;
      if (!hasSettings(body)) return fail(CODES.badInput, `${SETTINGS_FIELDS.join('/')} cannot be empty`);
      return issue(request, device, {}, { type: 'settings', ...settingsOf(body) });
    }),

    // add_Admin: only at a Level strictly greater than the caller's, under the caller.
    http.post(`${base}${ACCOUNT_ENDPOINTS.create}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'create');
      if (refused) return refused;
      const caller = callerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = addAdminBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account, Level, DeviceIds = [] } = body.data;
      if (!mayCreateAt(caller.level, Level)) return fail(CODES.badInput, 'Level: must be lower than your own account level');
      if (credentials.has(Account) || accounts().some((record) => record.Account === Account)) {
        return fail(CODES.badInput, `Account: account ${Account} already exists`);
      }
      const stranger = unmanaged(DeviceIds);
      if (stranger) return fail(CODES.badInput, `DeviceIds: device ${stranger} is not one you manage`);
      const record: WireRecord = {
        Account,
        SubId: mockAccountId(caller.account),
        Level,
        SubAdmin: caller.account,
        DeviceIds: [...new Set(DeviceIds)].sort(),
      };
      accounts().unshift(record);
      return ok(record);
    }),

    // Admin_reset_Code: a new password shown once; the account must change it, and its sessions end.
    http.post(`${base}${ACCOUNT_COMMANDS.resetPassword}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'resetPassword');
      if (refused) return refused;
      const caller = callerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = adminResetBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account } = body.data;
      const credential = credentials.get(Account);
      const isBelow = credential ? credential.Level > caller.level : subordinate(caller.account, Account);
      if (!isBelow) return fail(CODES.notFound, 'account not found');
      const NewCode = newCode();
      if (credential) {
        Object.assign(credential, { Code: NewCode, mustChangeCode: true });
        endSessionsOf(Account);
      }
      return ok<ResetAnswer>({ NewCode });
    }),

    // self_reset_Code: the current password, and a new one within the rule and different from it.
    http.post(`${base}${ACCOUNT_COMMANDS.changeOwnPassword}`, async ({ request }) => {
      const account = mockAccountOf(request);
      const credential = account ? credentials.get(account) : undefined;
      if (!credential) return fail(CODES.notSignedIn, 'not logged in');
      const body = selfResetBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      if (credential.Code !== body.data.OldCode) return fail(CODES.badInput, 'OldCode: the current password is wrong');
      if (body.data.NewCode === body.data.OldCode) return fail(CODES.badInput, 'NewCode: must differ from the current password');
      Object.assign(credential, { Code: body.data.NewCode, mustChangeCode: false });
      return ok(null);
    }),

    // assign_Devices: the account's devices become exactly DeviceIds; a device taken away leaves its subtree too.
    http.post(`${base}${ACCOUNT_COMMANDS.assignDevices}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'assignDevices');
      if (refused) return refused;
      const caller = callerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = assignDevicesBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account, DeviceIds } = body.data;
      const target = subordinate(caller.account, Account);
      if (!target) return fail(CODES.notFound, 'account not found');
      if (target.Level === 0) return fail(CODES.badInput, 'Account: a super administrator manages every device');
      const stranger = unmanaged(DeviceIds);
      if (stranger) return fail(CODES.badInput, `DeviceIds: device ${stranger} is not one you manage`);
      const wanted = [...new Set(DeviceIds)].sort();
      const before = Array.isArray(target.DeviceIds) ? target.DeviceIds.map(String) : [];
      const removed = new Set(before.filter((id) => !wanted.includes(id)));
      target.DeviceIds = wanted;
      for (const record of below(Account)) {
        if (Array.isArray(record.DeviceIds)) record.DeviceIds = record.DeviceIds.filter((id) => !removed.has(String(id)));
      }
      return ok(target);
    }),
  ];
};
