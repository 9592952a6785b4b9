import { describe, expect, it } from 'vitest';
import { canAccess } from '../../domain/policy';
import type { Role } from '../../domain/roles';
import type { AlarmState } from '../../domain/alarms/rules';
import { alarmActionBodies, offeredAlarmActions } from './requests';

const offered = (role: Role, state: AlarmState) => offeredAlarmActions(state, (right) => canAccess(role, { resource: 'alarms', action: right }));

describe('the actions offered on an alarm', () => {
  // docs/alarms.md, "States" and "REST": what each state allows, for the roles that may do everything of it.
  it.each<[AlarmState, string[]]>([
    ['active-unacked', ['ack', 'shelve', 'close']],
    ['active-acked', ['shelve', 'close']],
    ['rtn-unacked', ['ack', 'shelve', 'close']],
    ['shelved', ['unshelve', 'close']],
    ['suppressed', ['close']],
    ['closed', []],
  ])('%s: %j to an admin and a first-level administrator', (state, actions) => {
    expect(offered('admin', state)).toEqual(actions);
    expect(offered('user', state)).toEqual(actions);
  });

  it('gives a second-level administrator everything but closing out of service', () => {
    expect(offered('lowUser', 'active-unacked')).toEqual(['ack', 'shelve']);
    expect(offered('lowUser', 'shelved')).toEqual(['unshelve']);
    expect(offered('lowUser', 'suppressed')).toEqual([]);
  });

  it('lets a client acknowledge only', () => {
    expect(offered('client', 'active-unacked')).toEqual(['ack']);
    expect(offered('client', 'rtn-unacked')).toEqual(['ack']);
    for (const state of ['active-acked', 'shelved', 'suppressed', 'closed'] as const) expect(offered('client', state)).toEqual([]);
  });
});

describe('the actions’ bodies', () => {
  const bodies = alarmActionBodies(60);
  it('shelve: whole minutes from 1 to the maximum, and a reason that is not blank', () => {
    expect(bodies.shelve.safeParse({ minutes: 60, reason: 'calibrating' }).success).toBe(true);
    expect(bodies.shelve.safeParse({ minutes: 61, reason: 'calibrating' }).error?.issues[0]?.path).toEqual(['minutes']);
    expect(bodies.shelve.safeParse({ minutes: 0.5, reason: 'calibrating' }).error?.issues[0]?.path).toEqual(['minutes']);
    expect(bodies.shelve.safeParse({ minutes: 10, reason: '  ' }).error?.issues[0]?.path).toEqual(['reason']);
  });

  it('ack: the comment is optional; close: the reason is not', () => {
    expect(bodies.ack.safeParse({}).success).toBe(true);
    expect(bodies.close.safeParse({}).error?.issues[0]?.path).toEqual(['reason']);
  });
});
