import { describe, expect, it } from 'vitest';
import { alarmRecord as alarm } from '../../../tests/fixtures/alarms';
import { alarmCounts, alarmsByDevice, isStanding, withAlarm } from './open';

describe('the open alarms a tab holds', () => {
  it('takes a new alarm, replaces a changed one and drops a closed one', () => {
    const one = withAlarm([], alarm(1));
    expect(one.map((each) => each.id)).toEqual([1]);
    const acked = withAlarm(one, alarm(1, { state: 'active-acked' }));
    expect(acked).toEqual([alarm(1, { state: 'active-acked' })]);
    expect(withAlarm(acked, alarm(1, { state: 'closed' }))).toEqual([]);
  });

  it('leaves the set as it was when a closed alarm it never held arrives', () => {
    const held = [alarm(1)];
    expect(withAlarm(held, alarm(2, { state: 'closed' }))).toBe(held);
  });

  it('counts standing alarms by priority, not shelved or suppressed ones', () => {
    const open = [
      alarm(1),
      alarm(2, { priority: 'medium', state: 'active-acked' }),
      alarm(3, { priority: 'medium', state: 'rtn-unacked' }),
      alarm(4, { priority: 'low' }),
      alarm(5, { state: 'shelved' }),
      alarm(6, { state: 'suppressed' }),
    ];
    expect(alarmCounts(open)).toEqual({ high: 1, medium: 2, low: 1 });
  });

  it("lists each device's alarms most urgent first", () => {
    const open = [
      alarm(1, { priority: 'medium' }),
      alarm(2, { state: 'shelved' }),
      alarm(3, { state: 'active-acked' }),
      alarm(4),
      alarm(5, { deviceId: 'OC-2', priority: 'low' }),
    ];
    const byDevice = alarmsByDevice(open);
    expect(byDevice.get('OC-1')?.map((each) => each.id)).toEqual([4, 3, 1, 2]);
    expect(byDevice.get('OC-2')?.map((each) => each.id)).toEqual([5]);
  });

  it("keeps a device's list, the very array, while that device's alarms stay the same", () => {
    const first = alarmsByDevice([alarm(1), alarm(2, { deviceId: 'OC-2' })]);
    // A new set: OC-2's alarm acknowledged, OC-1's copy read again from the server (equal, not the same object).
    const second = alarmsByDevice(withAlarm([alarm(1), alarm(2, { deviceId: 'OC-2' })], alarm(2, { deviceId: 'OC-2', state: 'active-acked' })), first);
    expect(second.get('OC-1')).toBe(first.get('OC-1'));
    expect(second.get('OC-2')).not.toBe(first.get('OC-2'));
    expect(second.get('OC-2')?.[0]?.state).toBe('active-acked');
    // An alarm joining a device's list is a new list; one leaving the last one takes the device out.
    const third = alarmsByDevice([alarm(1), alarm(3, { priority: 'medium' })], second);
    expect(third.get('OC-1')).not.toBe(second.get('OC-1'));
    expect(third.get('OC-1')?.map((each) => each.id)).toEqual([1, 3]);
    expect(third.has('OC-2')).toBe(false);
  });

  it('keeps only the alarms a filter passes: the standing ones for the chambers\' marks', () => {
    const byDevice = alarmsByDevice([alarm(1, { state: 'shelved' }), alarm(2, { deviceId: 'OC-2', state: 'rtn-unacked' }), alarm(3, { deviceId: 'OC-3', state: 'suppressed' })], undefined, isStanding);
    expect([...byDevice.keys()]).toEqual(['OC-2']);
  });
});
