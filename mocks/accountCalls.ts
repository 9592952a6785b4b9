import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import { isCommonPassword } from '../src/domain/commonPasswords';
import { DEFAULT_PASSWORD_MIN_LENGTH, passwordProblem } from '../src/domain/password';
import { seededRandomFor } from '../src/domain/random';
import {
  addAdminBodySchema,
  adminResetBodySchema,
  assignDevicesBodySchema,
  selfResetBodySchema,
  type ResetAnswer,
} from '../src/resources/accounts/calls';
import { ACCOUNT_CALLS, ACCOUNT_ENDPOINTS, accountsConfig } from '../src/resources/accounts/config';
import { mayCreateAt } from '../src/resources/accounts/levels';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { endSessionsOf, mockAccountId, mockAccountOf, mockCredentials, type MockCredentials } from './auth';
import { fail, ok } from './envelope';
import { upstreamRefusal } from './upstream';

/** The server's password rule at its default length, with the same common list. */
const MOCK_PASSWORD_RULE = { minLength: DEFAULT_PASSWORD_MIN_LENGTH, isCommon: isCommonPassword };

/** 40000 naming `field` when a chosen password breaks the rule, worded as the server's en-US message. */
const passwordRefusal = (field: string, password: string) => {
  const problem = passwordProblem(password, MOCK_PASSWORD_RULE);
  if (problem === null) return undefined;
  return fail(
    CODES.badInput,
    problem === 'common'
      ? `${field} is on a list of common or breached passwords: choose another`
      : `${field} needs at least ${DEFAULT_PASSWORD_MIN_LENGTH} characters, no spaces, upper and lower case letters and digits`,
  );
};

/** A password the mock "generates" on reset: deterministic per mock server, and always within the rule. */
const resetCodes = () => {
  const random = seededRandomFor('mock:reset');
  const letters = 'abcdefghjkmnpqrstuvwxyz';
  const pick = (alphabet: string) => alphabet[Math.floor(random() * alphabet.length)] ?? 'a';
  return (): string => {
    const code = `${pick(letters.toUpperCase())}${Array.from({ length: 7 }, () => pick(letters)).join('')}${Math.floor(random() * 9000) + 1000}`;
    return passwordProblem(code, MOCK_PASSWORD_RULE) === null ? code : `${code}Aa1`;
  };
};

/**
 * The account calls of docs/product.md ("Account hierarchy"), validated with the shared schemas of
 * src/resources/accounts/calls.ts, answering as the server does. `tables` are the seeded resources;
 * `credentials` the sign-in accounts' passwords (mocks/auth.ts).
 */
export const accountCallHandlers = (
  base: string,
  tables: Map<string, WireRecord[]>,
  check: AccessCheck,
  credentials: MockCredentials = mockCredentials(),
) => {
  const devices = () => tables.get('devices') ?? [];
  const accounts = () => tables.get(accountsConfig.name) ?? [];
  const newCode = resetCodes();

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
      const weak = passwordRefusal('Code', body.data.Code);
      if (weak) return weak;
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
    http.post(`${base}${ACCOUNT_CALLS.resetPassword}`, async ({ request }) => {
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
    http.post(`${base}${ACCOUNT_CALLS.changeOwnPassword}`, async ({ request }) => {
      const account = mockAccountOf(request);
      const credential = account ? credentials.get(account) : undefined;
      if (!credential) return fail(CODES.notSignedIn, 'not logged in');
      const body = selfResetBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const weak = passwordRefusal('NewCode', body.data.NewCode);
      if (weak) return weak;
      if (credential.Code !== body.data.OldCode) return fail(CODES.badInput, 'OldCode: the current password is wrong');
      if (body.data.NewCode === body.data.OldCode) return fail(CODES.badInput, 'NewCode: must differ from the current password');
      Object.assign(credential, { Code: body.data.NewCode, mustChangeCode: false });
      return ok(null);
    }),

    // assign_Devices: the account's devices become exactly DeviceIds; a device taken away leaves its subtree too.
    http.post(`${base}${ACCOUNT_CALLS.assignDevices}`, async ({ request }) => {
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
