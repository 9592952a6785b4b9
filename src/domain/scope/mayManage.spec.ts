import { describe, expect, it } from 'vitest';
import { hierarchyOf, type Hierarchy, type ScopeAccount } from './hierarchy';
import {
  assignmentsAfter,
  assignRefusal,
  createRefusal,
  firstUnmanaged,
  isStrictlyBelow,
  resetRefusal,
} from './mayManage';

/** admin (0) ─ first (1) ─ second (2) ─ client (3); admin ─ other (1); root2 (0). */
const ACCOUNTS: ScopeAccount<string>[] = [
  { id: 'admin', parent: null, level: 0 },
  { id: 'first', parent: 'admin', level: 1 },
  { id: 'second', parent: 'first', level: 2 },
  { id: 'client', parent: 'second', level: 3 },
  { id: 'other', parent: 'admin', level: 1 },
  { id: 'root2', parent: null, level: 0 },
];
const ASSIGNMENTS = [
  ...['A1', 'A2', 'B1'].map((device) => ({ account: 'first', device })),
  ...['A1', 'A2'].map((device) => ({ account: 'second', device })),
  ...['A1', 'C1'].map((device) => ({ account: 'client', device })),
];
const tree = hierarchyOf(ACCOUNTS, ASSIGNMENTS, ['A1', 'A2', 'B1', 'C1']);
const as = (id: string) => ({ id, level: tree.accounts.get(id)?.level ?? 3 });
const rows = (hierarchy: Hierarchy<string>) => [...hierarchy.assigned].flatMap(([account, devices]) => [...devices].map((device) => `${account}:${device}`)).sort();

describe('reach', () => {
  it('an account is strictly below the caller when it is in its subtree and not itself; a super administrator reaches every other account', () => {
    expect(isStrictlyBelow(tree, as('first'), 'client')).toBe(true);
    expect(isStrictlyBelow(tree, as('first'), 'first')).toBe(false);
    expect(isStrictlyBelow(tree, as('first'), 'other')).toBe(false);
    expect(isStrictlyBelow(tree, as('second'), 'first')).toBe(false);
    expect(isStrictlyBelow(tree, as('admin'), 'root2')).toBe(true);
    expect(isStrictlyBelow(tree, as('admin'), 'admin')).toBe(false);
    expect(isStrictlyBelow(tree, as('admin'), 'nobody')).toBe(false);
  });

  it('the devices one manages: its assignments, or every existing device for a super administrator; checked in sorted order', () => {
    expect(firstUnmanaged(tree, as('second'), ['A2', 'A1'])).toBeUndefined();
    expect(firstUnmanaged(tree, as('second'), ['C1', 'B1', 'A1'])).toBe('B1');
    expect(firstUnmanaged(tree, as('admin'), ['C1', 'GONE'])).toBe('GONE');
  });
});

describe('add_Admin, Admin_reset_Code, assign_Devices', () => {
  it('creates only at a larger Level, with devices the creator manages', () => {
    expect(createRefusal(tree, as('first'), { level: 2, devices: ['A1'] })).toBeUndefined();
    expect(createRefusal(tree, as('first'), { level: 1, devices: [] })).toEqual({ reason: 'level' });
    expect(createRefusal(tree, as('client'), { level: 3, devices: [] })).toEqual({ reason: 'level' });
    expect(createRefusal(tree, as('first'), { level: 3, devices: ['C1'] })).toEqual({ reason: 'deviceNotManaged', device: 'C1' });
  });

  it('resets the password of an account strictly below only', () => {
    expect(resetRefusal(tree, as('second'), 'client')).toBeUndefined();
    expect(resetRefusal(tree, as('second'), 'second')).toEqual({ reason: 'notFound' });
    expect(resetRefusal(tree, as('other'), 'client')).toEqual({ reason: 'notFound' });
  });

  it('assigns devices below only, never to a super administrator, only devices the caller manages', () => {
    expect(assignRefusal(tree, as('first'), 'second', ['B1'])).toBeUndefined();
    expect(assignRefusal(tree, as('first'), 'other', [])).toEqual({ reason: 'notFound' });
    expect(assignRefusal(tree, as('admin'), 'root2', [])).toEqual({ reason: 'superAdministrator' });
    expect(assignRefusal(tree, as('second'), 'client', ['B1'])).toEqual({ reason: 'deviceNotManaged', device: 'B1' });
  });

  it("a device taken away leaves the target's subtree; devices out of the caller's reach stay", () => {
    // second manages A1 and A2: client's A1 is taken, its C1 (handed down from above) stays, A2 is given.
    expect(rows(hierarchyOf(tree.accounts.values(), assignmentsAfter(tree, as('second'), 'client', ['A2']), tree.devices))).toEqual(
      ['first:A1', 'first:A2', 'first:B1', 'second:A1', 'second:A2', 'client:A2', 'client:C1'].sort(),
    );
    // first takes A1 from second: second and client lose it, first keeps it.
    expect(rows(hierarchyOf(tree.accounts.values(), assignmentsAfter(tree, as('first'), 'second', ['A2']), tree.devices))).toEqual(
      ['first:A1', 'first:A2', 'first:B1', 'second:A2', 'client:C1'].sort(),
    );
  });
});
