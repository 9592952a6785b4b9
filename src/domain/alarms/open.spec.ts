import { describe, expect, it } from 'vitest';
import { alarmRecord as alarm } from '../../../tests/fixtures/alarms';
import { alarmCounts, alarmsByDevice, withAlarm } from './open';

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
});
