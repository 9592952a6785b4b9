import { describe, expect, it } from 'vitest';
import { canAccess, POLICY } from './policy';
import { ROLES, type Role } from './roles';

/** docs/product.md's role table, written out row by row so a change to POLICY must be a conscious one. */
const expected: [resource: string, action: string, roles: Role[]][] = [
  ['devices', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['orders', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['orders', 'create', ['admin', 'user', 'lowUser']],
  ['orders', 'cancel', ['admin', 'user', 'lowUser']],
  ['records', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['state-records', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['alarms', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['devices', 'changePermission', ['admin', 'user', 'lowUser']],
  ['devices', 'changeState', ['admin', 'user', 'lowUser']],
  ['devices', 'changeSettings', ['admin', 'user']],
  ['devices', 'create', ['admin']],
  ['devices', 'delete', ['admin']],
  ['devices', 'edit', ['admin']],
  ['accounts', 'assignDevices', ['admin', 'user', 'lowUser']],
  ['accounts', 'create', ['admin', 'user', 'lowUser']],
  ['accounts', 'resetPassword', ['admin', 'user', 'lowUser']],
  ['accounts', 'list', ['admin', 'user', 'lowUser']],
  ['accounts', 'edit', ['admin', 'user', 'lowUser']],
  ['accounts', 'delete', ['admin', 'user', 'lowUser']],
  ['alarms', 'acknowledge', ['admin', 'user', 'lowUser', 'client']],
  ['alarms', 'shelve', ['admin', 'user', 'lowUser']],
  ['alarms', 'clear', ['admin', 'user']],
  ['alarm-rules', 'edit', ['admin']],
  ['audit-log', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['audit-log', 'verify', ['admin']],
  ['messages', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['messages', 'edit', ['admin', 'user', 'lowUser', 'client']],
  ['exception-403', 'list', ['admin']],
  ['user-info', 'list', ['admin', 'user', 'lowUser', 'client']],
  ['workplace', 'list', ['admin', 'user', 'lowUser', 'client']],
];

describe('canAccess', () => {
  it.each(expected)('%s.%s is allowed to exactly %j', (resource, action, roles) => {
    for (const role of ROLES) expect(canAccess(role, { resource, action })).toBe(roles.includes(role));
  });

  it('refuses everything to a missing role', () => {
    for (const [resource, rules] of Object.entries(POLICY)) {
      for (const action of Object.keys(rules)) expect(canAccess(undefined, { resource, action })).toBe(false);
    }
  });

  it('refuses unknown resources and actions, including inherited property names', () => {
    expect(canAccess('admin', { resource: 'nuclear-launch', action: 'list' })).toBe(false);
    expect(canAccess('admin', { resource: 'devices', action: 'format' })).toBe(false);
    expect(canAccess('admin', { resource: 'toString', action: 'list' })).toBe(false);
    expect(canAccess('admin', { resource: 'devices', action: 'constructor' })).toBe(false);
  });

  it('never lets a lower role do what a higher one cannot', () => {
    for (const [resource, rules] of Object.entries(POLICY)) {
      for (const action of Object.keys(rules)) {
        const allowed = ROLES.map((role) => canAccess(role, { resource, action }));
        allowed.forEach((ok, index) => {
          if (ok && index > 0) expect(allowed[index - 1], `${resource}.${action}`).toBe(true);
        });
      }
    }
  });
});
