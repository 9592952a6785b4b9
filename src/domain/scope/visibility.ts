import { levelToRole } from '../roles';
import { assignedTo, subtreeOf, type Hierarchy, type ScopeViewer } from './hierarchy';

/**
 * Who sees what (docs/scope.md). Every list, read and live stream of the server answers exactly these;
 * the mocks filter their tables with them.
 * - The super administrator (Level 0) sees every device and every account.
 * - Any other account sees the devices assigned to it, and the accounts of its subtree: itself and every
 *   account below it.
 * - What concerns a device (its orders, state records, alarms, commands) is seen exactly when the device is.
 * - Audit entries: see seesAuditEntry.
 */

/** True when the viewer sees every device and every account. */
export const seesEverything = (viewer: Pick<ScopeViewer<unknown>, 'level'>): boolean => viewer.level === 0;

/**
 * True when the viewer sees the device, and so its orders, state records, alarms and commands. The super
 * administrator sees any, a removed device's records included; anyone else the devices assigned to it.
 */
export const seesDevice = <K>(hierarchy: Hierarchy<K>, viewer: ScopeViewer<K>, device: string): boolean =>
  seesEverything(viewer) || (hierarchy.assigned.get(viewer.id)?.has(device) ?? false);

/** The fleet's devices the viewer sees, sorted (the device list, the live stream's scope, the fleet summary's chambers). */
export const visibleDevices = <K>(hierarchy: Hierarchy<K>, viewer: ScopeViewer<K>): string[] =>
  hierarchy.devices.filter((device) => seesDevice(hierarchy, viewer, device));

/** True when the viewer sees the account (`get_Admins`): the super administrator every one, anyone else its subtree. */
export const seesAccount = <K>(hierarchy: Hierarchy<K>, viewer: ScopeViewer<K>, account: K): boolean =>
  seesEverything(viewer) ? hierarchy.accounts.has(account) : subtreeOf(hierarchy, viewer.id).has(account);

/** The accounts the viewer sees, in the hierarchy's order. */
export const visibleAccounts = <K>(hierarchy: Hierarchy<K>, viewer: ScopeViewer<K>): K[] => {
  if (seesEverything(viewer)) return [...hierarchy.accounts.keys()];
  const subtree = subtreeOf(hierarchy, viewer.id);
  return [...hierarchy.accounts.keys()].filter((id) => subtree.has(id));
};

/**
 * An account's `DeviceIds` as `get_Admins` lists it to the viewer, sorted: a super administrator's are every
 * device (it manages all by its level); anyone else's are its assigned devices that the viewer sees.
 */
export const listedDevicesOf = <K>(hierarchy: Hierarchy<K>, viewer: ScopeViewer<K>, account: K): string[] => {
  if (hierarchy.accounts.get(account)?.level === 0) return [...hierarchy.devices];
  return assignedTo(hierarchy, account).filter((device) => seesDevice(hierarchy, viewer, device));
};

/** An audit entry as far as scope goes: who did it (null for the server itself) and the device it concerns, if any. */
export interface ScopedAuditEntry<K> {
  actor: K | null;
  device: string | null;
}

/**
 * True when the viewer may read the audit entry (docs/product.md: "admin all / user subtree / lowUser subtree
 * / client own"): the super administrator every entry, the server's own included; an administrator the
 * entries whose actor is in its subtree, a client its own; and, for both, only when the entry concerns no
 * device or one it sees. The server's entries and those of accounts above are the super administrator's alone.
 */
export const seesAuditEntry = <K>(hierarchy: Hierarchy<K>, viewer: ScopeViewer<K>, entry: ScopedAuditEntry<K>): boolean => {
  if (seesEverything(viewer)) return true;
  if (entry.actor === null) return false;
  const byActor = levelToRole(viewer.level) === 'client' ? entry.actor === viewer.id : subtreeOf(hierarchy, viewer.id).has(entry.actor);
  return byActor && (entry.device === null || seesDevice(hierarchy, viewer, entry.device));
};

/**
 * The accounts that see a device, in the hierarchy's order: every super administrator and the accounts it
 * is assigned to, disabled ones included (who is told about the device's alarms: docs/messages.md).
 */
export const deviceViewers = <K>(hierarchy: Hierarchy<K>, device: string): K[] =>
  [...hierarchy.accounts.values()]
    .filter((account) => account.level === 0 || (hierarchy.assigned.get(account.id)?.has(device) ?? false))
    .map((account) => account.id);
