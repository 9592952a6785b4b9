import type { Level } from '../roles';

/**
 * The account hierarchy as plain data (docs/scope.md): accounts with their upper administrator and level,
 * the devices of the fleet, and which account each device is assigned to. The scope rules
 * (./visibility.ts) and the management rules (./mayManage.ts) are functions over it; the server's SQL
 * answers what they answer (a property test checks it on both stores) and the mocks filter with them.
 *
 * An account is named by a key of any type: its database id on the server, its name in the mocks
 * (whose accounts carry no id of their own).
 */

export interface ScopeAccount<K> {
  id: K;
  /** The upper administrator (`sub_id`, SubAdmin); null for a super administrator at the root. */
  parent: K | null;
  level: Level;
  /** Unset means enabled. A disabled account cannot sign in, so it never looks at anything. */
  enabled?: boolean;
}

/** One row of `account_devices`: the device is assigned to the account. */
export interface Assignment<K> {
  account: K;
  device: string;
}

/** Who looks: the signed-in account, at the level its session acts at. */
export interface ScopeViewer<K> {
  id: K;
  level: Level;
}

export interface Hierarchy<K> {
  readonly accounts: ReadonlyMap<K, ScopeAccount<K>>;
  /** The accounts directly below each account. */
  readonly children: ReadonlyMap<K, readonly K[]>;
  /** The devices assigned to each account (an account without any has no entry). */
  readonly assigned: ReadonlyMap<K, ReadonlySet<string>>;
  /** Every device of the fleet, sorted. */
  readonly devices: readonly string[];
}

export const hierarchyOf = <K>(
  accounts: Iterable<ScopeAccount<K>>,
  assignments: Iterable<Assignment<K>>,
  devices: Iterable<string>,
): Hierarchy<K> => {
  const byId = new Map<K, ScopeAccount<K>>();
  const children = new Map<K, K[]>();
  for (const account of accounts) byId.set(account.id, account);
  for (const account of byId.values()) {
    if (account.parent === null) continue;
    children.set(account.parent, [...(children.get(account.parent) ?? []), account.id]);
  }
  const assigned = new Map<K, Set<string>>();
  for (const { account, device } of assignments) assigned.set(account, (assigned.get(account) ?? new Set()).add(device));
  return { accounts: byId, children, assigned, devices: [...new Set(devices)].sort() };
};

/**
 * An account and every account below it, following the upper-administrator links down; empty for an
 * account that does not exist. Each account is visited once, so even a corrupted tree with a cycle ends
 * (the server's recursive query uses `union` for the same reason).
 */
export const subtreeOf = <K>(hierarchy: Hierarchy<K>, root: K): Set<K> => {
  const found = new Set<K>();
  if (!hierarchy.accounts.has(root)) return found;
  for (let frontier = [root]; frontier.length > 0; ) {
    const next: K[] = [];
    for (const id of frontier) {
      if (found.has(id)) continue;
      found.add(id);
      next.push(...(hierarchy.children.get(id) ?? []));
    }
    frontier = next;
  }
  return found;
};

/** The devices assigned to an account, sorted (a super administrator's rows included, though its level already gives it every device). */
export const assignedTo = <K>(hierarchy: Hierarchy<K>, account: K): string[] => [...(hierarchy.assigned.get(account) ?? [])].sort();
