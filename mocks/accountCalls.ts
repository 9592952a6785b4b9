import { http } from 'msw';
import { changeRefusal, deleteRefusal, mayChangeAccount, type AccountRefusal, type NewUpper, type RuleAccount } from '../src/domain/accountRules';
import { CODES } from '../src/domain/envelope';
import { isCommonPassword } from '../src/domain/commonPasswords';
import { DEFAULT_PASSWORD_MIN_LENGTH, passwordProblem } from '../src/domain/password';
import { seededRandomFor } from '../src/domain/random';
import { levelToRole, roleToLevel } from '../src/domain/roles';
import {
  addAdminBodySchema,
  adminResetBodySchema,
  assignDevicesBodySchema,
  deleteAdminBodySchema,
  selfResetBodySchema,
  updateAdminBodySchema,
  type ResetAnswer,
} from '../src/resources/accounts/calls';
import { ACCOUNT_CALLS, ACCOUNT_ENDPOINTS, accountsConfig } from '../src/resources/accounts/config';
import { mayCreateAt } from '../src/resources/accounts/levels';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { endSessionsOf, mockAccountOf, mockCredentials, type MockCredentials } from './auth';
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

/** A refusal of the hierarchy's rules as the mocks word it: the field first, as their other 40000s. */
const refusalText = (refusal: AccountRefusal, account: string): string => {
  switch (refusal.reason) {
    case 'rootStays':
      return `${refusal.field}: a super administrator stays at the top of the hierarchy`;
    case 'upperRequired':
      return `${refusal.field}: every account but a super administrator has an upper-level administrator`;
    case 'levelNotAllowed':
      return `${refusal.field}: must be lower than your own account level`;
    case 'upperNotFound':
      return `${refusal.field}: administrator ${refusal.upper} is not one of your accounts`;
    case 'upperBelowTarget':
      return `${refusal.field}: ${refusal.upper} is ${account} itself or an account below it`;
    case 'notBelowUpper':
      return `${refusal.field}: must sit at a lower level than its upper administrator ${refusal.upper}`;
    case 'notAboveBelow':
      return `${refusal.field}: account ${refusal.below} sits directly below at that level or higher`;
    case 'hasAccountsBelow':
      return `${refusal.field}: accounts sit below ${account}: ${refusal.accounts.join(', ')}`;
  }
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
    return credential ? { account, level: credential.Level, id: credential.id } : undefined;
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

  /** An account as the hierarchy's rules see it: a listed one, or a sign-in account (the upper administrator of seeded ones). */
  const ruleAccount = (account: unknown): RuleAccount | null => {
    const record = accounts().find((candidate) => candidate.Account === account);
    if (record) return { account: String(record.Account), level: roleToLevel(levelToRole(record.Level)) };
    const credential = typeof account === 'string' ? credentials.get(account) : undefined;
    return credential && typeof account === 'string' ? { account, level: credential.Level } : null;
  };

  /** The accounts directly below `account`. */
  const directlyBelow = (account: string) => accounts().filter((record) => record.SubAdmin === account);

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
        SubId: caller.id,
        Level,
        SubAdmin: caller.account,
        DeviceIds: [...new Set(DeviceIds)].sort(),
      };
      accounts().unshift(record);
      // The new account signs in with the password it was given, as on the server.
      const id = Math.max(0, ...[...credentials.values()].map((credential) => credential.id)) + 1;
      credentials.set(Account, { Code: body.data.Code, Level, id, SubAdmin: caller.account, mustChangeCode: false });
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

    // update_Admin: Level, SubAdmin and Disabled by the hierarchy's rules (src/domain/accountRules.ts); disabling ends its sessions.
    http.post(`${base}${ACCOUNT_ENDPOINTS.update}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'edit');
      if (refused) return refused;
      const caller = callerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = updateAdminBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account, Level, SubAdmin, Disabled } = body.data;
      const target = subordinate(caller.account, Account);
      const rule = ruleAccount(Account);
      if (!target || !rule || !mayChangeAccount(caller, rule)) return fail(CODES.notFound, 'account not found');
      const candidate = SubAdmin === undefined || SubAdmin === null ? undefined : ruleAccount(SubAdmin);
      const upper: NewUpper | null | undefined =
        SubAdmin === undefined || SubAdmin === null
          ? SubAdmin
          : candidate
            ? { found: true, ...candidate, belowTarget: SubAdmin === Account || below(Account).some((record) => record.Account === SubAdmin) }
            : { found: false, account: SubAdmin };
      const highestBelow = directlyBelow(Account)
        .map((record) => ruleAccount(record.Account))
        .reduce<RuleAccount | null>((highest, next) => (next && (!highest || next.level < highest.level) ? next : highest), null);
      const refusal = changeRefusal({
        caller,
        target: rule,
        upper: ruleAccount(target.SubAdmin),
        highestBelow,
        change: { ...(Level === undefined ? {} : { level: Level }), ...(upper === undefined ? {} : { upper }) },
      });
      if (refusal) return fail(CODES.badInput, refusalText(refusal, Account));
      if (Level !== undefined) target.Level = Level;
      if (upper?.found === true && upper.account !== target.SubAdmin) Object.assign(target, { SubAdmin: upper.account, SubId: credentials.get(upper.account)?.id ?? null });
      // Its sign-in follows: the next session carries the new level and place.
      const credential = credentials.get(Account);
      if (credential) Object.assign(credential, { Level: target.Level, SubAdmin: target.SubAdmin });
      if (Disabled !== undefined) {
        if (Disabled && target.Disabled !== true) endSessionsOf(Account);
        target.Disabled = Disabled;
      }
      return ok(target);
    }),

    // delete_Admin: refused while accounts sit below it, naming them; its sessions end.
    http.post(`${base}${ACCOUNT_ENDPOINTS.delete}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, accountsConfig.name, 'delete');
      if (refused) return refused;
      const caller = callerOf(request);
      if (!caller) return fail(CODES.notSignedIn, 'not logged in');
      const body = deleteAdminBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { Account } = body.data;
      const target = subordinate(caller.account, Account);
      const rule = ruleAccount(Account);
      if (!target || !rule || !mayChangeAccount(caller, rule)) return fail(CODES.notFound, 'account not found');
      const refusal = deleteRefusal(directlyBelow(Account).map((record) => String(record.Account)));
      if (refusal) return fail(CODES.badInput, refusalText(refusal, Account));
      accounts().splice(accounts().indexOf(target), 1);
      endSessionsOf(Account);
      return ok(null);
    }),
  ];
};
