import { describe, expect, it } from 'vitest';
import { ANY_ROLE, DEFAULT_LEVEL, levelToRole, nextRole, roleListAllows, roleToLevel, ROLES } from './roles';

describe('levelToRole', () => {
  it.each([
    [0, 'admin'],
    [1, 'user'],
    [2, 'lowUser'],
    [3, 'client'],
    ['0', 'admin'],
    ['2', 'lowUser'],
  ])('maps Level %j to %s', (level, role) => {
    expect(levelToRole(level)).toBe(role);
  });

  it.each([4, -1, 1.5, '', ' ', 'admin', null, undefined, NaN, {}, []])('maps the unknown Level %j to client', (level) => {
    expect(levelToRole(level)).toBe('client');
  });

  it('round-trips every role through its level', () => {
    for (const role of ROLES) expect(levelToRole(roleToLevel(role))).toBe(role);
  });

  it('makes new accounts ordinary users', () => {
    expect(levelToRole(DEFAULT_LEVEL)).toBe('client');
  });
});

describe('nextRole', () => {
  it('cycles admin, user, lowUser, client and back to admin; no role becomes client', () => {
    expect(['admin', 'user', 'lowUser', 'client'].map(nextRole)).toEqual(['user', 'lowUser', 'client', 'admin']);
    for (const none of ['', null, undefined, 'root']) expect(nextRole(none)).toBe('client');
  });
});

describe('role lists', () => {
  it("allow the roles they name, and every role for '*'", () => {
    expect(roleListAllows(['admin', 'user'], 'user')).toBe(true);
    expect(roleListAllows(['admin', 'user'], 'client')).toBe(false);
    expect(roleListAllows([], 'admin')).toBe(false);
    for (const role of ROLES) expect(roleListAllows([ANY_ROLE], role)).toBe(true);
  });
});
