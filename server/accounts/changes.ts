import type { Kysely } from 'kysely';
import { changeRefusal, deleteRefusal, mayChangeAccount, type AccountRefusal, type NewUpper, type RuleAccount } from '../../src/domain/accountRules';
import type { WireRecord } from '../../src/resources/model';
import type { DeleteAdminBody, UpdateAdminBody } from '../../src/resources/accounts/calls';
import { announceSessionsEnded, revokeAllTokens } from '../auth/tokens';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import { flag, isSet, type AccountRow, type DB } from '../db/schema';
import { badInput, type AppError } from '../http/envelope';
import { subtreeQuery } from '../scope/service';
import type { Caller } from './calls';
import { asLevel } from './levels';
import { assignedDevices, findSubordinate, listedAccount, managedAmong } from './reach';
import { accountNotFound } from './service';

/**
 * `update_Admin` and `delete_Admin` (docs/server-accounts.md): an account strictly below the caller changes
 * its level, its upper administrator or its state, or is deleted, by the hierarchy's rules of
 * src/domain/accountRules.ts (the mocks ask the same functions). The facts are read, the rules asked, the
 * change and its audit entry written in one transaction; sessions ended are announced to the live streams
 * only once it committed.
 */

/** The 40000 of a refused change or deletion, naming the field, in the caller's language. */
const refusalError = (refusal: AccountRefusal, account: string): AppError => {
  const { field } = refusal;
  switch (refusal.reason) {
    case 'rootStays':
      return badInput('account.rootStays', { field });
    case 'upperRequired':
      return badInput('account.upperRequired', { field });
    case 'levelNotAllowed':
      return badInput('account.levelNotAllowed', { field });
    case 'upperNotFound':
      return badInput('account.upperNotFound', { field, upper: refusal.upper });
    case 'upperBelowTarget':
      return badInput('account.upperBelowTarget', { field, upper: refusal.upper, account });
    case 'notBelowUpper':
      return badInput('account.notBelowUpper', { field, upper: refusal.upper });
    case 'notAboveBelow':
      return badInput('account.notAboveBelow', { field, below: refusal.below });
    case 'hasAccountsBelow':
      return badInput('account.hasAccountsBelow', { field, account, accounts: refusal.accounts.join(', ') });
  }
};

const asRuleAccount = (row: Pick<AccountRow, 'account' | 'level'>): RuleAccount => ({ account: row.account, level: asLevel(row.level) });

/** The account an id names, as the rules see it; null for none. */
const ruleAccountById = async (db: Kysely<DB>, id: number | null): Promise<RuleAccount | null> => {
  if (id === null) return null;
  const row = await db.selectFrom('accounts').select(['account', 'level']).where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : asRuleAccount(row);
};

/**
 * The administrator named to be the new upper one: found only among the caller's subtree, the caller
 * included (a super administrator: every account), so that one out of reach reads like one that does not exist.
 */
const findNewUpper = async (db: Kysely<DB>, caller: Caller, target: AccountRow, account: string): Promise<NewUpper & { id?: number }> => {
  const query = db.selectFrom('accounts').select(['id', 'account', 'level']).where('account', '=', account);
  const row = await (caller.level === 0 ? query : query.where('id', 'in', subtreeQuery(db, caller.id))).executeTakeFirst();
  if (row === undefined) return { found: false, account };
  const below = await subtreeQuery(db, target.id).where('subtree.id', '=', row.id).executeTakeFirst();
  return { found: true, id: row.id, account: row.account, level: asLevel(row.level), belowTarget: below !== undefined };
};

/** The state of an account as the trail records an edit: its level, upper administrator and whether it is disabled. */
const editState = (row: Pick<AccountRow, 'level' | 'disabled'>, upper: RuleAccount | null) => ({
  Level: asLevel(row.level),
  SubAdmin: upper?.account ?? null,
  Disabled: isSet(row.disabled),
});

/**
 * `update_Admin`: Level, SubAdmin (the upper administrator, by Account) and Disabled of an account strictly
 * below the caller (else 40400, as for a name that does not exist). A field left out or unchanged is not
 * checked; a change breaking a rule is refused with 40000 naming its field. A move takes the account's
 * subtree with it, and is refused while the account holds a device its new upper administrator does not
 * manage (40000 naming the device and SubAdmin: assign it above, or take it away, first). Disabling revokes
 * every session of the account and ends its live streams at once; enabling lets it sign in again. Answers
 * the account as `get_Admins` lists it; a change that changes nothing writes nothing.
 */
export const updateAdmin = async (ctx: AppContext, caller: Caller, actor: AuditActor, body: UpdateAdminBody): Promise<WireRecord> => {
  const now = ctx.now();
  const { record, ended } = await ctx.db.transaction().execute(async (trx) => {
    const target = await findSubordinate(trx, caller, body.Account);
    if (target === undefined || !mayChangeAccount(caller, asRuleAccount(target))) throw accountNotFound();
    const upper = await ruleAccountById(trx, target.sub_id);
    const highest = await trx
      .selectFrom('accounts')
      .select(['account', 'level'])
      .where('sub_id', '=', target.id)
      .orderBy('level')
      .orderBy('account')
      .executeTakeFirst();
    const newUpper = body.SubAdmin === undefined || body.SubAdmin === null ? body.SubAdmin : await findNewUpper(trx, caller, target, body.SubAdmin);
    const refusal = changeRefusal({
      caller,
      target: asRuleAccount(target),
      upper,
      highestBelow: highest === undefined ? null : asRuleAccount(highest),
      change: { ...(body.Level === undefined ? {} : { level: body.Level }), ...(newUpper === undefined ? {} : { upper: newUpper }) },
    });
    if (refusal !== undefined) throw refusalError(refusal, target.account);

    const level = body.Level ?? asLevel(target.level);
    const subId = newUpper?.found === true && newUpper.id !== undefined ? newUpper.id : target.sub_id;
    const disabled = body.Disabled ?? isSet(target.disabled);
    if (subId !== target.sub_id && newUpper?.found === true && newUpper.level !== 0) {
      // Only a super administrator manages every device; any other upper administrator must hold the account's.
      const held = await assignedDevices(trx, target.id);
      const managed = await managedAmong(trx, { id: subId ?? 0, level: newUpper.level }, held);
      const stranger = held.find((id) => !managed.has(id));
      if (stranger !== undefined) throw badInput('account.deviceNotHeldAbove', { field: 'SubAdmin', device: stranger, upper: newUpper.account });
    }
    const before = editState(target, upper);
    if (level === before.Level && subId === target.sub_id && disabled === before.Disabled) {
      return { record: await listedAccount(trx, caller, target.account), ended: undefined };
    }
    await trx
      .updateTable('accounts')
      .set({ level, sub_id: subId, disabled: flag(disabled), updated_at: now })
      .where('id', '=', target.id)
      .execute();
    const disabling = disabled && !before.Disabled;
    const revoked = disabling ? await revokeAllTokens({ db: trx, now: () => now }, target.id) : 0;
    const after = { Level: level, SubAdmin: newUpper?.found === true && subId !== target.sub_id ? newUpper.account : before.SubAdmin, Disabled: disabled };
    await recordAudit(
      trx,
      actor,
      {
        action: 'account.update',
        targetType: 'account',
        targetId: target.account,
        before,
        after: disabling ? { ...after, sessionsRevoked: revoked } : after,
      },
      now,
    );
    return { record: await listedAccount(trx, caller, target.account), ended: disabling ? target.id : undefined };
  });
  if (ended !== undefined) announceSessionsEnded(ctx, ended);
  return record;
};

/**
 * `delete_Admin`: an account strictly below the caller (else 40400), refused with 40000 naming the accounts
 * below it while there are any. Its device assignments, sessions and message box go with it; its live streams
 * end at once. Devices, their orders, readings, commands and alarms belong to the devices and stay. The audit
 * trail keeps every entry it made or that names it (the entries hold the name, not a link), and the
 * deletion's own entry holds what the account was.
 */
export const deleteAdmin = async (ctx: AppContext, caller: Caller, actor: AuditActor, body: DeleteAdminBody): Promise<void> => {
  const now = ctx.now();
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const target = await findSubordinate(trx, caller, body.Account);
    if (target === undefined || !mayChangeAccount(caller, asRuleAccount(target))) throw accountNotFound();
    const below = await trx.selectFrom('accounts').select('account').where('sub_id', '=', target.id).execute();
    const refusal = deleteRefusal(below.map((row) => row.account));
    if (refusal !== undefined) throw refusalError(refusal, target.account);
    const upper = await ruleAccountById(trx, target.sub_id);
    const DeviceIds = await assignedDevices(trx, target.id);
    const sessions = await revokeAllTokens({ db: trx, now: () => now }, target.id);
    await trx.deleteFrom('messages').where('account_id', '=', target.id).execute();
    // account_devices and sessions go by their foreign keys' cascade.
    await trx.deleteFrom('accounts').where('id', '=', target.id).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'account.delete',
        targetType: 'account',
        targetId: target.account,
        before: { ...editState(target, upper), DeviceIds },
        after: { sessionsRevoked: sessions },
      },
      now,
    );
    return target.id;
  });
  announceSessionsEnded(ctx, deleted);
};
