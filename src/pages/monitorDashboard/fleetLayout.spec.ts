import { describe, expect, it } from 'vitest';
import { alarmRecord } from '../../../tests/fixtures/alarms';
import type { AlarmRecord } from '../../domain/alarms/record';
import { gridRows, groupFleet, presentValues, type FleetDevice } from './fleetLayout';

const chamber = (Id: string, Location: string, more: Partial<FleetDevice> = {}): FleetDevice => ({
  id: Id,
  Id,
  name: Id,
  Location,
  State: 'Stop',
  Type: 1,
  Online: true,
  SessionOC: null,
  ...more,
});

const FLEET = [
  chamber('B-2', 'Beijing'),
  chamber('B-1', 'Beijing', { State: 'Work', SessionOC: 'OC1' }),
  chamber('B-3', 'Beijing', { Online: false }),
  chamber('S-1', 'Shanghai', { Type: 2, State: 'Repair' }),
  chamber('S-2', 'Shanghai', { Type: 2, State: 'Work', SessionOC: 'OC2', Online: false }),
  chamber('G-1', 'Guangzhou', { Emergency: true }),
  chamber('A-1', 'Anshan'),
];

const ids = (filter: Parameters<typeof groupFleet>[1]) => groupFleet(FLEET, filter).map(({ site, ids: members }) => [site, members]);

describe('the real-time monitor: grouping and filtering', () => {
  it('groups by site, the sites with someone in danger first, then those with a session, then by name', () => {
    expect(ids({})).toEqual([
      ['Guangzhou', ['G-1']],
      ['Shanghai', ['S-2', 'S-1']],
      ['Beijing', ['B-1', 'B-2', 'B-3']],
      ['Anshan', ['A-1']],
    ]);
  });

  it('puts, within a site, a chamber offline in session or depressurising first, then sessions, then by Id', () => {
    const [shanghai] = groupFleet(FLEET, { site: 'Shanghai' });
    expect(shanghai).toEqual({ site: 'Shanghai', ids: ['S-2', 'S-1'], sessions: 1, urgency: 0 });
  });

  it('filters by site, type, state, online and session, all of them together', () => {
    expect(ids({ site: 'Beijing' })).toEqual([['Beijing', ['B-1', 'B-2', 'B-3']]]);
    expect(ids({ type: 2 })).toEqual([['Shanghai', ['S-2', 'S-1']]]);
    expect(ids({ state: 'Work' })).toEqual([
      ['Shanghai', ['S-2']],
      ['Beijing', ['B-1']],
    ]);
    expect(ids({ online: false })).toEqual([
      ['Shanghai', ['S-2']],
      ['Beijing', ['B-3']],
    ]);
    expect(ids({ inSession: true })).toEqual([
      ['Shanghai', ['S-2']],
      ['Beijing', ['B-1']],
    ]);
    expect(ids({ inSession: false, site: 'Beijing', online: true })).toEqual([['Beijing', ['B-2']]]);
    expect(ids({ site: 'Nowhere' })).toEqual([]);
  });

  it('cuts each site into rows of tiles under its own heading', () => {
    const rows = gridRows(groupFleet(FLEET, {}), 2);
    expect(rows.map((row) => (row.kind === 'site' ? row.group.site : row.ids))).toEqual([
      'Guangzhou',
      ['G-1'],
      'Shanghai',
      ['S-2', 'S-1'],
      'Beijing',
      ['B-1', 'B-2'],
      ['B-3'],
      'Anshan',
      ['A-1'],
    ]);
    expect(gridRows(groupFleet(FLEET, { site: 'Beijing' }), 0).filter((row) => row.kind === 'tiles')).toHaveLength(3);
  });

  it("offers each filter chip the values the fleet has, sorted", () => {
    expect(presentValues(FLEET, (device) => device.Location)).toEqual(['Anshan', 'Beijing', 'Guangzhou', 'Shanghai']);
    expect(presentValues(FLEET, (device) => device.Type)).toEqual([1, 2]);
  });

  describe('with standing alarms', () => {
    const alarm = (deviceId: string, priority: AlarmRecord['priority']): AlarmRecord => alarmRecord(deviceId.length, { deviceId, priority, raisedAt: 0 });
    const standing = new Map([
      ['A-1', [alarm('A-1', 'high')]],
      ['B-2', [alarm('B-2', 'medium')]],
    ]);
    const alarmsOf = (id: string) => standing.get(id) ?? [];

    it('ranks a high alarm with danger and any other alarm before the sessions', () => {
      expect(groupFleet(FLEET, {}, alarmsOf).map(({ site, ids: members, urgency }) => [site, members, urgency])).toEqual([
        ['Anshan', ['A-1'], 0],
        ['Guangzhou', ['G-1'], 0],
        ['Shanghai', ['S-2', 'S-1'], 0],
        ['Beijing', ['B-2', 'B-1', 'B-3'], 1],
      ]);
    });

    it('filters the chambers in alarm, and those without', () => {
      expect(groupFleet(FLEET, { inAlarm: true }, alarmsOf).map(({ ids: members }) => members)).toEqual([['A-1'], ['B-2']]);
      expect(groupFleet(FLEET, { inAlarm: false, site: 'Beijing' }, alarmsOf).map(({ ids: members }) => members)).toEqual([['B-1', 'B-3']]);
    });
  });
});
