import { http } from 'msw';
import { z } from 'zod';
import { CODES } from '../src/domain/envelope';
import { isAcceptablePassword } from '../src/domain/password';
import { ACCOUNT_COMMANDS } from '../src/resources/accounts/config';
import { DEVICE_COMMANDS, DEVICE_STATES } from '../src/resources/devices/config';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { MOCK_ACCOUNTS, mockAccountOf } from './auth';
import { fail, ok } from './envelope';
import { upstreamRefusal } from './upstream';

const deviceIdSchema = z.object({ Id: z.string().trim().optional() });

/**
 * The upstream's commands: a device's permission and state (spec point 6's mock: an empty device Id is
 * code 401 'device ID cannot be empty'), and the password calls. `tables` are the seeded resources.
 */
export const commandHandlers = (base: string, tables: Map<string, WireRecord[]>, check: AccessCheck) => {
  const devices = () => tables.get('devices') ?? [];
  const accounts = () => tables.get('accounts') ?? [];
  // Password changes are remembered here; the mock sign-in keeps the passwords of mocks/auth.ts.
  const codes = new Map(Object.entries(MOCK_ACCOUNTS).map(([account, { Code }]) => [account, Code]));
  let resets = 0;

  /** The command's device, or the answer refusing it. */
  const deviceCommand = async (request: Request, action: 'changePermission' | 'changeState') => {
    const refused = upstreamRefusal(request, check, 'devices', action);
    if (refused) return { refused };
    const body: unknown = await readJson(request);
    const { data } = deviceIdSchema.safeParse(body);
    if (!data?.Id) return { refused: fail(CODES.emptyDeviceId, 'device ID cannot be empty') };
    const device = devices().find((record) => record.Id === data.Id);
    return device ? { device, body } : { refused: fail(CODES.notFound, 'device not found') };
  };

  const touch = (device: WireRecord, change: WireRecord) => Object.assign(device, change, { UpdateTime: Date.now() });

  return [
    http.post(`${base}${DEVICE_COMMANDS.changePermission}`, async ({ request }) => {
      const { refused, device } = await deviceCommand(request, 'changePermission');
      if (refused) return refused;
      return ok(touch(device, { Permission: device.Permission === 'Open' ? 'Close' : 'Open' }));
    }),
    http.post(`${base}${DEVICE_COMMANDS.changeState}`, async ({ request }) => {
      const { refused, device, body } = await deviceCommand(request, 'changeState');
      if (refused) return refused;
      const state = z.object({ State: z.enum(DEVICE_STATES) }).safeParse(body);
      if (!state.success) return fail(CODES.badInput, badInputMessage(state.error));
      return ok(touch(device, { State: state.data.State }));
    }),
    http.post(`${base}${ACCOUNT_COMMANDS.resetPassword}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, 'accounts', 'resetPassword');
      if (refused) return refused;
      const body = z.object({ Account: z.string().trim().min(1) }).safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account } = body.data;
      if (!codes.has(Account) && !accounts().some((record) => record.Account === Account)) return fail(CODES.notFound, 'account not found');
      resets += 1;
      const NewCode = `Reset${String(resets).padStart(4, '0')}x`;
      codes.set(Account, NewCode);
      return ok({ NewCode });
    }),
    http.post(`${base}${ACCOUNT_COMMANDS.changeOwnPassword}`, async ({ request }) => {
      const account = mockAccountOf(request);
      if (!account) return fail(CODES.notSignedIn, 'not logged in');
      const body = z
        .object({ OldCode: z.string(), NewCode: z.string().refine(isAcceptablePassword, 'at least 6 characters, no spaces, upper and lower case letters and digits') })
        .safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      if (codes.get(account) !== body.data.OldCode) return fail(CODES.badInput, 'OldCode: wrong password');
      codes.set(account, body.data.NewCode);
      return ok(null);
    }),
  ];
};
