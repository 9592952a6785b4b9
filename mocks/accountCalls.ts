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
import { assignmentsAfter, assignRefusal, createRefusal, isStrictlyBelow, resetRefusal, type ManageRefusal } from '../src/domain/scope/mayManage';
import { subtreeOf, type ScopeViewer } from '../src/domain/scope/hierarchy';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { endSessionsOf, mockAccountOf, mockCredentials, type MockCredentials } from './auth';
import { fail, ok } from './envelope';
import type { MockScope } from './scope';
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

/** The server's answer (en-US) to a create, reset or assignment the hierarchy refuses (src/domain/scope/mayManage.ts). */
const manageRefusalAnswer = (refusal: ManageRefusal) => {
  switch (refusal.reason) {
    case 'notFound':
      return fail(CODES.notFound, 'account not found');
    case 'level':
      return fail(CODES.badInput, 'Level: must be lower than your own account level');
    case 'superAdministrator':
      return fail(CODES.badInput, 'Account: a super administrator manages every device');
    case 'deviceNotManaged':
      return fail(CODES.badInput, `DeviceIds: device ${refusal.device} is not one you manage`);
  }
};

/**
 * The account calls of docs/product.md ("Account hierarchy"), validated with the shared schemas of
 * src/resources/accounts/calls.ts, answering as the server does: the scope model's rules for creating,
 * resetting and assigning (src/domain/scope/mayManage.ts), the hierarchy's rules for changing and deleting
 * (src/domain/accountRules.ts), over the accounts the caller reaches (./scope.ts). `tables` are the seeded
 * resources; `credentials` the sign-in accounts' passwords (mocks/auth.ts).
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

  /** The signed-in caller as the scope model sees it (./scope.ts), with its name for the rules. */
  const callerOf = (request: Request) => {
    const viewer = scope.viewerOf(request);
    return viewer ? { ...viewer, account: viewer.id } : undefined;
  };

  /** A listed account strictly below the caller (in its subtree, not itself); any other is answered as unknown. */
  const subordinate = (caller: ScopeViewer<string>, account: string) =>
    isStrictlyBelow(scope.hierarchy(), caller, account) ? accounts().find((record) => record.Account === account) : undefined;

  /** An account as get_Admins lists it to the caller. */
  const listed = (request: Request, record: WireRecord) => scope.visible(request, accountsConfig.name, [record])[0] ?? record;

  /** An account as the hierarchy's rules see it: a listed one, or a sign-in account (the upper administrator of seeded ones). */
  const ruleAccount = (account: unknown): RuleAccount | null => {
    const record = accounts().find((candidate) => candidate.Account === account);
    if (record) return { account: String(record.Account), level: roleToLevel(levelToRole(record.Level)) };
    const credential = typeof account === 'string' ? credentials.get(account) : undefined;
    return credential && typeof account === 'string' ? { account, level: credential.Level } : null;
  };

  /** The accounts directly below `account`. */
  const directlyBelow = (account: string) => accounts().filter((record) => record.SubAdmin === account);

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
      const hierarchy = scope.hierarchy();
      const levelRefusal = createRefusal(hierarchy, caller, { level: Level, devices: [] });
      if (levelRefusal) return manageRefusalAnswer(levelRefusal);
      const weak = passwordRefusal('Code', body.data.Code);
      if (weak) return weak;
      if (credentials.has(Account) || accounts().some((record) => record.Account === Account)) {
        return fail(CODES.badInput, `Account: account ${Account} already exists`);
      }
      const refusal = createRefusal(hierarchy, caller, { level: Level, devices: DeviceIds });
      if (refusal) return manageRefusalAnswer(refusal);
      const record: WireRecord = {
        Account,
        SubId: credentials.get(caller.account)?.id ?? null,
        Level,
        SubAdmin: caller.account,
        DeviceIds: [...new Set(DeviceIds)].sort(),
        Disabled: false,
      };
      accounts().unshift(record);
      // The new account signs in with the password it was given, as on the server.
      const id = Math.max(0, ...[...credentials.values()].map((credential) => credential.id)) + 1;
      credentials.set(Account, { Code: body.data.Code, Level, id, SubAdmin: caller.account, mustChangeCode: false });
      return ok(listed(request, record));
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
      const refusal = resetRefusal(scope.hierarchy(), caller, Account);
      if (refusal) return manageRefusalAnswer(refusal);
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
      const hierarchy = scope.hierarchy();
      const refusal = assignRefusal(hierarchy, caller, Account, DeviceIds);
      if (refusal) return manageRefusalAnswer(refusal);
      const after = assignmentsAfter(hierarchy, caller, Account, DeviceIds);
      for (const record of accounts()) {
        const devices = after.filter((row) => row.account === record.Account).map((row) => row.device);
        if (Array.isArray(record.DeviceIds) || devices.length > 0) record.DeviceIds = devices.sort();
      }
      const target = accounts().find((record) => record.Account === Account);
      return target ? ok(listed(request, target)) : manageRefusalAnswer({ reason: 'notFound' });
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
      const target = subordinate(caller, Account);
      const rule = ruleAccount(Account);
      if (!target || !rule || !mayChangeAccount(caller, rule)) return fail(CODES.notFound, 'account not found');
      // The new upper administrator is found only in the caller's subtree, the caller included.
      const reachable = typeof SubAdmin === 'string' && subtreeOf(scope.hierarchy(), caller.id).has(SubAdmin);
      const candidate = reachable || (caller.level === 0 && typeof SubAdmin === 'string') ? ruleAccount(SubAdmin) : undefined;
      const upper: NewUpper | null | undefined =
        SubAdmin === undefined || SubAdmin === null
          ? SubAdmin
          : candidate
            ? { found: true, ...candidate, belowTarget: subtreeOf(scope.hierarchy(), Account).has(SubAdmin) }
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
      return ok(listed(request, target));
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
      const target = subordinate(caller, Account);
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
