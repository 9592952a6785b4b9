import type { Level } from '../roles';
import { assignedTo, subtreeOf, type Assignment, type Hierarchy, type ScopeViewer } from './hierarchy';

/**
 * Who may create accounts, reset whose password, and which devices an administrator hands on (docs/scope.md,
 * "Managing accounts"). Changing, moving, disabling and deleting an account are src/domain/accountRules.ts's,
 * asked about an account strictly below the caller (isStrictlyBelow). These are the hierarchy's rules only: whether the caller's role
 * may make the call at all is the shared policy's (src/domain/policy.ts), checked first by the server's
 * guards and the mocks alike. A refusal names why; the server answers an account out of reach exactly like
 * one that does not exist ('notFound').
 */

/** True when the caller manages the device: the super administrator every device of the fleet, anyone else its assigned ones. */
const manages = <K>(hierarchy: Hierarchy<K>, caller: ScopeViewer<K>, device: string): boolean =>
  caller.level === 0 ? hierarchy.devices.includes(device) : (hierarchy.assigned.get(caller.id)?.has(device) ?? false);

/**
 * The first of `devices` (without duplicates, in sorted order, as the server checks them) that the caller
 * does not manage, or undefined. A device that does not exist is one it does not manage, so the answer
 * never tells whether a device out of reach exists.
 */
export const firstUnmanaged = <K>(hierarchy: Hierarchy<K>, caller: ScopeViewer<K>, devices: readonly string[]): string | undefined =>
  [...new Set(devices)].sort().find((device) => !manages(hierarchy, caller, device));

/** An account is created only at a strictly lower rank (a larger Level) than its creator's, under the creator. */
export const mayCreateAtLevel = (creator: Level, level: number): boolean => level > creator;

/**
 * True when the target is strictly below the caller: in its subtree and not itself (the super administrator:
 * any existing account but itself, other super administrators included). Only such an account's password
 * may be reset, its devices assigned, and it changed, moved, disabled or deleted (the last by accountRules).
 */
export const isStrictlyBelow = <K>(hierarchy: Hierarchy<K>, caller: ScopeViewer<K>, target: K): boolean =>
  target !== caller.id && (caller.level === 0 ? hierarchy.accounts.has(target) : subtreeOf(hierarchy, caller.id).has(target));

/** Why a call about accounts is refused: the target is out of reach, the Level is not allowed, a super administrator is the target, or a device is not the caller's. */
export type ManageRefusal =
  | { reason: 'notFound' }
  | { reason: 'level' }
  | { reason: 'superAdministrator' }
  | { reason: 'deviceNotManaged'; device: string };

const unmanagedRefusal = <K>(hierarchy: Hierarchy<K>, caller: ScopeViewer<K>, devices: readonly string[]): ManageRefusal | undefined => {
  const device = firstUnmanaged(hierarchy, caller, devices);
  return device === undefined ? undefined : { reason: 'deviceNotManaged', device };
};

/** `add_Admin`: a new account at `level` under the caller, managing `devices`; undefined when allowed. */
export const createRefusal = <K>(
  hierarchy: Hierarchy<K>,
  caller: ScopeViewer<K>,
  request: { level: number; devices: readonly string[] },
): ManageRefusal | undefined =>
  mayCreateAtLevel(caller.level, request.level) ? unmanagedRefusal(hierarchy, caller, request.devices) : { reason: 'level' };

/** `Admin_reset_Code`: the target's password may be reset; undefined when allowed. */
export const resetRefusal = <K>(hierarchy: Hierarchy<K>, caller: ScopeViewer<K>, target: K): ManageRefusal | undefined =>
  isStrictlyBelow(hierarchy, caller, target) ? undefined : { reason: 'notFound' };

/** `assign_Devices`: the target's devices may become `devices`; undefined when allowed. A super administrator manages every device by its level. */
export const assignRefusal = <K>(hierarchy: Hierarchy<K>, caller: ScopeViewer<K>, target: K, devices: readonly string[]): ManageRefusal | undefined => {
  if (!isStrictlyBelow(hierarchy, caller, target)) return { reason: 'notFound' };
  if (hierarchy.accounts.get(target)?.level === 0) return { reason: 'superAdministrator' };
  return unmanagedRefusal(hierarchy, caller, devices);
};

/**
 * Every assignment after an allowed `assign_Devices`: the target's devices within the caller's reach become
 * exactly `devices` (those the caller does not manage, handed down by someone above, stay), and a device
 * taken away is taken from every account below the target too.
 */
export const assignmentsAfter = <K>(hierarchy: Hierarchy<K>, caller: ScopeViewer<K>, target: K, devices: readonly string[]): Assignment<K>[] => {
  const wanted = new Set(devices);
  const removed = new Set(assignedTo(hierarchy, target).filter((device) => manages(hierarchy, caller, device) && !wanted.has(device)));
  const below = subtreeOf(hierarchy, target);
  const rows: Assignment<K>[] = [];
  for (const [account, assigned] of hierarchy.assigned) {
    for (const device of assigned) if (!(below.has(account) && removed.has(device))) rows.push({ account, device });
  }
  const before = hierarchy.assigned.get(target);
  for (const device of [...wanted].sort()) if (!(before?.has(device) ?? false)) rows.push({ account: target, device });
  return rows;
};
