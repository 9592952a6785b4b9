import { describe, expect, it } from 'vitest';
import { hierarchyOf, subtreeOf, type ScopeAccount } from './hierarchy';
import { deviceViewers, listedDevicesOf, seesAccount, seesAuditEntry, seesDevice, visibleAccounts, visibleDevices } from './visibility';

/**
 * The demo's tree (README, "Demo accounts and fleet") with a second branch:
 *   admin (0) ─ first (1) ─ second (2) ─ client (3)
 *           │                         └ client2 (3)
 *           └ other (1) ─ otherClient (3)
 *   root2 (0), a second super administrator
 */
const ACCOUNTS: ScopeAccount<string>[] = [
  { id: 'admin', parent: null, level: 0 },
  { id: 'first', parent: 'admin', level: 1 },
  { id: 'second', parent: 'first', level: 2 },
  { id: 'client', parent: 'second', level: 3 },
  { id: 'client2', parent: 'second', level: 3, enabled: false },
  { id: 'other', parent: 'admin', level: 1 },
  { id: 'otherClient', parent: 'other', level: 3 },
  { id: 'root2', parent: null, level: 0 },
];
const ASSIGNMENTS = [
  ...['A1', 'A2', 'B1', 'B2'].map((device) => ({ account: 'first', device })),
  ...['A1', 'A2'].map((device) => ({ account: 'second', device })),
  { account: 'client', device: 'A1' },
  { account: 'other', device: 'C1' },
];
const tree = hierarchyOf(ACCOUNTS, ASSIGNMENTS, ['A1', 'A2', 'B1', 'B2', 'C1', 'C2']);
const viewer = (id: string) => ({ id, level: tree.accounts.get(id)?.level ?? 3 });

describe('who sees which devices', () => {
  it('a super administrator sees every device; anyone else the devices assigned to it', () => {
    expect(visibleDevices(tree, viewer('admin'))).toEqual(['A1', 'A2', 'B1', 'B2', 'C1', 'C2']);
    expect(visibleDevices(tree, viewer('root2'))).toEqual(['A1', 'A2', 'B1', 'B2', 'C1', 'C2']);
    expect(visibleDevices(tree, viewer('first'))).toEqual(['A1', 'A2', 'B1', 'B2']);
    expect(visibleDevices(tree, viewer('second'))).toEqual(['A1', 'A2']);
    expect(visibleDevices(tree, viewer('client'))).toEqual(['A1']);
    expect(visibleDevices(tree, viewer('client2'))).toEqual([]);
    expect(visibleDevices(tree, viewer('other'))).toEqual(['C1']);
  });

  it('a device assigned below is not seen above unless it is assigned there too', () => {
    const handedDown = hierarchyOf(ACCOUNTS, [{ account: 'client', device: 'C2' }], tree.devices);
    expect(seesDevice(handedDown, viewer('client'), 'C2')).toBe(true);
    expect(seesDevice(handedDown, viewer('second'), 'C2')).toBe(false);
    expect(seesDevice(handedDown, viewer('first'), 'C2')).toBe(false);
  });

  it("a removed device's records are the super administrator's alone", () => {
    expect(seesDevice(tree, viewer('admin'), 'GONE')).toBe(true);
    expect(seesDevice(tree, viewer('first'), 'GONE')).toBe(false);
  });

  it('the accounts told about a device are every super administrator and those it is assigned to, disabled ones included', () => {
    expect(deviceViewers(tree, 'A1')).toEqual(['admin', 'first', 'second', 'client', 'root2']);
    expect(deviceViewers(tree, 'C2')).toEqual(['admin', 'root2']);
    const disabledHolder = hierarchyOf(ACCOUNTS, [{ account: 'client2', device: 'C2' }], tree.devices);
    expect(deviceViewers(disabledHolder, 'C2')).toEqual(['admin', 'client2', 'root2']);
  });
});

describe('who sees which accounts', () => {
  it('a super administrator sees every account; anyone else itself and every account below it', () => {
    expect(visibleAccounts(tree, viewer('admin'))).toEqual(ACCOUNTS.map((account) => account.id));
    expect(visibleAccounts(tree, viewer('first'))).toEqual(['first', 'second', 'client', 'client2']);
    expect(visibleAccounts(tree, viewer('second'))).toEqual(['second', 'client', 'client2']);
    expect(visibleAccounts(tree, viewer('client'))).toEqual(['client']);
    expect(visibleAccounts(tree, viewer('other'))).toEqual(['other', 'otherClient']);
    expect(seesAccount(tree, viewer('first'), 'admin')).toBe(false);
    expect(seesAccount(tree, viewer('first'), 'other')).toBe(false);
    expect(seesAccount(tree, viewer('admin'), 'nobody')).toBe(false);
  });

  it('an account that does not exist sees nothing; a tree with a cycle still ends', () => {
    expect(visibleAccounts(tree, { id: 'nobody', level: 1 })).toEqual([]);
    const looped = hierarchyOf<string>(
      [
        { id: 'x', parent: 'y', level: 1 },
        { id: 'y', parent: 'x', level: 2 },
      ],
      [],
      [],
    );
    expect([...subtreeOf(looped, 'x')].sort()).toEqual(['x', 'y']);
  });

  it("an account's DeviceIds: a super administrator's are every device; anyone else's its own that the viewer sees", () => {
    expect(listedDevicesOf(tree, viewer('admin'), 'admin')).toEqual(tree.devices);
    expect(listedDevicesOf(tree, viewer('admin'), 'first')).toEqual(['A1', 'A2', 'B1', 'B2']);
    const handedDown = hierarchyOf(ACCOUNTS, [...ASSIGNMENTS, { account: 'client', device: 'C2' }], tree.devices);
    expect(listedDevicesOf(handedDown, viewer('second'), 'client')).toEqual(['A1']);
    expect(listedDevicesOf(handedDown, viewer('client'), 'client')).toEqual(['A1', 'C2']);
  });
});

describe('who reads which audit entries', () => {
  it('the super administrator reads every entry, the server own included', () => {
    expect(seesAuditEntry(tree, viewer('admin'), { actor: null, device: null })).toBe(true);
    expect(seesAuditEntry(tree, viewer('admin'), { actor: 'other', device: 'GONE' })).toBe(true);
  });

  it("an administrator reads its subtree's entries about no device or one it sees", () => {
    expect(seesAuditEntry(tree, viewer('first'), { actor: 'client', device: null })).toBe(true);
    expect(seesAuditEntry(tree, viewer('first'), { actor: 'client', device: 'A1' })).toBe(true);
    expect(seesAuditEntry(tree, viewer('second'), { actor: 'client', device: 'B1' })).toBe(false);
    expect(seesAuditEntry(tree, viewer('first'), { actor: 'admin', device: null })).toBe(false);
    expect(seesAuditEntry(tree, viewer('first'), { actor: 'other', device: null })).toBe(false);
    expect(seesAuditEntry(tree, viewer('first'), { actor: null, device: 'A1' })).toBe(false);
  });

  it('a client reads only its own entries, even with accounts below it', () => {
    expect(seesAuditEntry(tree, viewer('client'), { actor: 'client', device: 'A1' })).toBe(true);
    expect(seesAuditEntry(tree, viewer('client'), { actor: 'client', device: 'A2' })).toBe(false);
    const clientWithChild = hierarchyOf([...ACCOUNTS, { id: 'under', parent: 'client', level: 3 }], ASSIGNMENTS, tree.devices);
    expect(seesAuditEntry(clientWithChild, viewer('client'), { actor: 'under', device: null })).toBe(false);
  });
});
