import type { Level } from './roles';

/**
 * Who may change, move, disable or delete whom (docs/product.md, "Account hierarchy"), as pure functions
 * over the facts a store or the mocks read about the accounts involved. The server (server/accounts/changes.ts)
 * and the mocks (mocks/accountCalls.ts) both ask these, and the console asks mayChangeAccount to show a
 * row's edit and delete only where they can succeed.
 *
 * Which accounts a caller reaches at all is scope: the caller's subtree, the caller itself excluded (a super
 * administrator: every account but itself). A target outside it is answered like one that does not exist,
 * before these rules are asked.
 */

/** An account as the rules see it: its name and its level. */
export interface RuleAccount {
  account: string;
  level: Level;
}

/**
 * Whether `caller` may edit or delete `target` at all, given that `target` is in its subtree: never
 * itself, and never an account at its own level or above, the super administrator's peers excepted (it
 * may disable another super administrator, as it may reset its password).
 */
export const mayChangeAccount = (caller: RuleAccount, target: RuleAccount): boolean =>
  caller.account !== target.account && (caller.level === 0 || target.level > caller.level);

/** The administrator an account would be moved under, as the caller's store finds it. */
export type NewUpper =
  /** Not an account of the caller's subtree (the caller itself included), or no such account: one answer for both. */
  | { found: false; account: string }
  | {
      found: true;
      account: string;
      level: Level;
      /** It is the target itself or an account below it: the tree would loop. */
      belowTarget: boolean;
    };

export interface ChangeFacts {
  caller: RuleAccount;
  /** The account changed, as it is now. */
  target: RuleAccount;
  /** Its upper administrator now (null: a super administrator at the root). */
  upper: RuleAccount | null;
  /** Of the accounts directly below it, the one at the highest rank (the lowest Level), if any. */
  highestBelow: RuleAccount | null;
  /** What the call asks for; absent is unchanged. `upper: null` asks for no upper administrator. */
  change: { level?: Level; upper?: NewUpper | null };
}

/** Why a change or a deletion is refused; the server turns each into a message naming the field. */
export type AccountRefusal =
  /** A super administrator stays at the root, at Level 0. */
  | { reason: 'rootStays'; field: 'Level' | 'SubAdmin' }
  /** Every account but a super administrator has an upper administrator. */
  | { reason: 'upperRequired'; field: 'SubAdmin' }
  /** The new level is the caller's own or above it. */
  | { reason: 'levelNotAllowed'; field: 'Level' }
  /** The new upper administrator is none of the caller's accounts. */
  | { reason: 'upperNotFound'; field: 'SubAdmin'; upper: string }
  /** The new upper administrator is the account itself or below it. */
  | { reason: 'upperBelowTarget'; field: 'SubAdmin'; upper: string }
  /** The account would sit at its upper administrator's level or above it. */
  | { reason: 'notBelowUpper'; field: 'Level' | 'SubAdmin'; upper: string }
  /** An account below it would sit at its level or above it. */
  | { reason: 'notAboveBelow'; field: 'Level'; below: string }
  /** Accounts still sit below the one to delete. */
  | { reason: 'hasAccountsBelow'; field: 'Account'; accounts: readonly string[] };

/**
 * The first rule a change of level or upper administrator breaks, or undefined when it may be made.
 * Disabling and enabling break none: any account the caller may change (mayChangeAccount) may be disabled,
 * whatever sits below it (those accounts go on working).
 */
export const changeRefusal = ({ caller, target, upper, highestBelow, change }: ChangeFacts): AccountRefusal | undefined => {
  const levelChanges = change.level !== undefined && change.level !== target.level;
  const newUpper = change.upper;
  const upperChanges = newUpper !== undefined && (newUpper?.account ?? null) !== (upper?.account ?? null);
  if (target.level === 0) {
    if (levelChanges) return { reason: 'rootStays', field: 'Level' };
    if (upperChanges) return { reason: 'rootStays', field: 'SubAdmin' };
    return undefined;
  }
  const level = change.level ?? target.level;
  if (levelChanges && level <= caller.level) return { reason: 'levelNotAllowed', field: 'Level' };
  if (upperChanges) {
    if (newUpper === null) return { reason: 'upperRequired', field: 'SubAdmin' };
    if (!newUpper.found) return { reason: 'upperNotFound', field: 'SubAdmin', upper: newUpper.account };
    if (newUpper.belowTarget) return { reason: 'upperBelowTarget', field: 'SubAdmin', upper: newUpper.account };
  }
  const above = upperChanges && newUpper?.found === true ? newUpper : upper;
  if (above !== null && above.level >= level) {
    return { reason: 'notBelowUpper', field: levelChanges ? 'Level' : 'SubAdmin', upper: above.account };
  }
  if (highestBelow !== null && highestBelow.level <= level) return { reason: 'notAboveBelow', field: 'Level', below: highestBelow.account };
  return undefined;
};

/** A deletion is refused while accounts sit below the account, naming them (sorted). */
export const deleteRefusal = (below: readonly string[]): AccountRefusal | undefined =>
  below.length === 0 ? undefined : { reason: 'hasAccountsBelow', field: 'Account', accounts: [...below].sort() };
