import { describe, expect, it } from 'vitest';
import { changeRefusal, deleteRefusal, mayChangeAccount, type ChangeFacts } from './accountRules';

/** The hierarchy's rules on their own; tests/server/account-changes.spec.ts checks the server applies them on both stores. */

const admin = { account: 'admin', level: 0 } as const;
const first = { account: 'first', level: 1 } as const;
const second = { account: 'second', level: 2 } as const;
const client = { account: 'client', level: 3 } as const;

/** first changes second (under first, client directly below it), with `change`. */
const facts = (change: ChangeFacts['change'], overrides: Partial<ChangeFacts> = {}): ChangeFacts => ({
  caller: first,
  target: second,
  upper: first,
  highestBelow: client,
  change,
  ...overrides,
});

describe('who may change whom', () => {
  it("never oneself, never one's level or above; the super administrator also its peers", () => {
    expect(mayChangeAccount(first, second)).toBe(true);
    expect(mayChangeAccount(first, first)).toBe(false);
    expect(mayChangeAccount(first, { account: 'other', level: 1 })).toBe(false);
    expect(mayChangeAccount(second, first)).toBe(false);
    expect(mayChangeAccount(admin, { account: 'root-2', level: 0 })).toBe(true);
    expect(mayChangeAccount(admin, admin)).toBe(false);
  });
});

describe('a change of level or upper administrator', () => {
  it('lets an unchanged or allowed change through, and disabling always', () => {
    expect(changeRefusal(facts({}))).toBeUndefined();
    expect(changeRefusal(facts({ level: 0, upper: null }, { caller: admin, target: { account: 'root-2', level: 0 }, upper: null, highestBelow: null }))).toBeUndefined();
    expect(changeRefusal(facts({ level: 3 }, { target: { account: 'lead', level: 2 }, highestBelow: null }))).toBeUndefined();
    expect(changeRefusal(facts({ upper: { found: true, account: 'first', level: 1, belowTarget: false } }))).toBeUndefined();
  });

  it('names the first rule broken and its field', () => {
    expect(changeRefusal(facts({ level: 1 }, { caller: admin, target: { account: 'root-2', level: 0 }, upper: null }))).toEqual({ reason: 'rootStays', field: 'Level' });
    expect(changeRefusal(facts({ level: 1 }))).toEqual({ reason: 'levelNotAllowed', field: 'Level' });
    expect(changeRefusal(facts({ upper: null }))).toEqual({ reason: 'upperRequired', field: 'SubAdmin' });
    expect(changeRefusal(facts({ upper: { found: false, account: 'x' } }))).toEqual({ reason: 'upperNotFound', field: 'SubAdmin', upper: 'x' });
    expect(changeRefusal(facts({ upper: { found: true, account: 'client', level: 3, belowTarget: true } }))).toEqual({
      reason: 'upperBelowTarget',
      field: 'SubAdmin',
      upper: 'client',
    });
    expect(changeRefusal(facts({ upper: { found: true, account: 'peer', level: 2, belowTarget: false } }))).toEqual({ reason: 'notBelowUpper', field: 'SubAdmin', upper: 'peer' });
    expect(changeRefusal(facts({ level: 1 }, { caller: admin }))).toEqual({ reason: 'notBelowUpper', field: 'Level', upper: 'first' });
    expect(changeRefusal(facts({ level: 3 }))).toEqual({ reason: 'notAboveBelow', field: 'Level', below: 'client' });
  });
});

describe('a deletion', () => {
  it('is refused while accounts sit below, naming them in order', () => {
    expect(deleteRefusal([])).toBeUndefined();
    expect(deleteRefusal(['second', 'first-b'])).toEqual({ reason: 'hasAccountsBelow', field: 'Account', accounts: ['first-b', 'second'] });
  });
});
