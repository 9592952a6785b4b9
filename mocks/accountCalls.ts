import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import { isAcceptablePassword } from '../src/domain/password';
import { seededRandomFor } from '../src/domain/random';
import {
  addAdminBodySchema,
  adminResetBodySchema,
  assignDevicesBodySchema,
  selfResetBodySchema,
  type ResetAnswer,
} from '../src/resources/accounts/calls';
import { ACCOUNT_CALLS, ACCOUNT_ENDPOINTS, accountsConfig } from '../src/resources/accounts/config';
import { assignmentsAfter, assignRefusal, createRefusal, resetRefusal, type ManageRefusal } from '../src/domain/scope/mayManage';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { endSessionsOf, mockAccountId, mockAccountOf, mockCredentials, type MockCredentials } from './auth';
import { fail, ok } from './envelope';
import type { MockScope } from './scope';
import { upstreamRefusal } from './upstream';

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

/** The server's answer (en-US) to a call the hierarchy refuses (src/domain/scope/mayManage.ts). */
const refusalAnswer = (refusal: ManageRefusal<string>) => {
  switch (refusal.reason) {
    case 'notFound':
      return fail(CODES.notFound, 'account not found');
    case 'level':
      return fail(CODES.badInput, 'Level: must be lower than your own account level');
    case 'superAdministrator':
      return fail(CODES.badInput, 'Account: a super administrator manages every device');
    case 'deviceNotManaged':
      return fail(CODES.badInput, `DeviceIds: device ${refusal.device} is not one you manage`);
    default:
      return fail(CODES.badInput, 'Account is invalid');
  }
};

/**
 * The account calls of docs/product.md ("Account hierarchy"), validated with the shared schemas of
 * src/resources/accounts/calls.ts, answering as the server does, with the hierarchy's rules of the scope
 * model over the accounts table (./scope.ts). `tables` are the seeded resources; `credentials` the sign-in
 * accounts' passwords (mocks/auth.ts).
 */
export const accountCallHandlers = (
  base: string,
  tables: Map<string, WireRecord[]>,
  check: AccessCheck,
  scope: MockScope,
  credentials: MockCredentials = mockCredentials(),
) => {
  const accounts = () => tables.get(accountsConfig.name) ?? [];
  const newCode = resetCodes();
  /** An account as get_Admins lists it to the caller. */
  const listed = (request: Request, record: WireRecord) => scope.visible(request, accountsConfig.name, [record])[0] ?? record;

  return [
    // add_Admin: only at a Level strictly greater than the caller's, under the caller.
    http.post(`${base}${ACCOUNT_ENDPOINTS.create}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'create');
      if (refused) return refused;
      const caller = scope.viewerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = addAdminBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account, Level, DeviceIds = [] } = body.data;
      const hierarchy = scope.hierarchy();
      if (createRefusal(hierarchy, caller, { level: Level, devices: [] })) return refusalAnswer({ reason: 'level' });
      if (credentials.has(Account) || accounts().some((record) => record.Account === Account)) {
        return fail(CODES.badInput, `Account: account ${Account} already exists`);
      }
      const refusal = createRefusal(hierarchy, caller, { level: Level, devices: DeviceIds });
      if (refusal) return refusalAnswer(refusal);
      const record: WireRecord = {
        Account,
        SubId: mockAccountId(caller.id),
        Level,
        SubAdmin: caller.id,
        DeviceIds: [...new Set(DeviceIds)].sort(),
      };
      accounts().unshift(record);
      return ok(listed(request, record));
    }),

    // Admin_reset_Code: a new password shown once; the account must change it, and its sessions end.
    http.post(`${base}${ACCOUNT_CALLS.resetPassword}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'resetPassword');
      if (refused) return refused;
      const caller = scope.viewerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = adminResetBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account } = body.data;
      const refusal = resetRefusal(scope.hierarchy(), caller, Account);
      if (refusal) return refusalAnswer(refusal);
      const credential = credentials.get(Account);
      const NewCode = newCode();
      if (credential) {
        Object.assign(credential, { Code: NewCode, mustChangeCode: true });
        endSessionsOf(Account);
      }
      return ok<ResetAnswer>({ NewCode });
    }),

    // self_reset_Code: the current password, and a new one within the rule and different from it.
    http.post(`${base}${ACCOUNT_CALLS.changeOwnPassword}`, async ({ request }) => {
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
    http.post(`${base}${ACCOUNT_CALLS.assignDevices}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'assignDevices');
      if (refused) return refused;
      const caller = scope.viewerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = assignDevicesBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account, DeviceIds } = body.data;
      const hierarchy = scope.hierarchy();
      const refusal = assignRefusal(hierarchy, caller, Account, DeviceIds);
      if (refusal) return refusalAnswer(refusal);
      const after = assignmentsAfter(hierarchy, caller, Account, DeviceIds);
      for (const record of accounts()) {
        const devices = after.filter((row) => row.account === record.Account).map((row) => row.device);
        if (Array.isArray(record.DeviceIds) || devices.length > 0) record.DeviceIds = devices.sort();
      }
      const target = accounts().find((record) => record.Account === Account);
      return target ? ok(listed(request, target)) : refusalAnswer({ reason: 'notFound' });
    }),
  ];
};
