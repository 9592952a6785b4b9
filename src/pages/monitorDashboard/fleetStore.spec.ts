import { describe, expect, it, vi } from 'vitest';
import { alarmsByDevice } from '../../domain/alarms/open';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { FleetDevice } from './fleetLayout';
import { FleetStore, TRACE_SPAN_MS } from './fleetStore';
import { alarmRecord } from '../../../tests/fixtures/alarms';

const T0 = Date.UTC(2026, 10, 25, 8);

const chamber = (Id: string, more: Partial<FleetDevice> = {}): FleetDevice => ({ id: Id, Id, name: Id, Type: 1, Location: 'Hall', State: 'Stop', Online: true, ...more });

describe("the real-time monitor's store", () => {
  it("tells a patched device's own subscribers only, and the layout only when a chamber may move", () => {
    const store = new FleetStore();
    store.load([chamber('A'), chamber('B')]);
    const [a, b, layout] = [vi.fn(), vi.fn(), vi.fn()];
    store.subscribeDevice('A', a);
    store.subscribeDevice('B', b);
    store.subscribeLayout(layout);
    const version = store.layout();

    store.patch({ Id: 'A', Reading: { Id: 'A', Time: T0, RCP: 1.3, RCPi02: 22 } });
    expect([a.mock.calls.length, b.mock.calls.length, layout.mock.calls.length]).toEqual([1, 0, 0]);
    expect(store.device('A')?.Reading?.RCPi02).toBe(22);
    expect(store.device('A')?.Location).toBe('Hall');
    expect(store.layout()).toBe(version);

    store.patch({ Id: 'B', SessionOC: 'OC-1' });
    expect([a.mock.calls.length, b.mock.calls.length, layout.mock.calls.length]).toEqual([1, 1, 1]);
    expect(store.layout()).toBe(version + 1);

    // A device outside the loaded scope is nobody's business here.
    store.patch({ Id: 'C', Online: true });
    expect(store.device('C')).toBeUndefined();
    expect(layout).toHaveBeenCalledTimes(1);
  });

  it('keeps 15 minutes of cabin pressure, a point per five seconds, the newest reading always last', () => {
    const store = new FleetStore();
    store.load([chamber('A', { Reading: { Time: T0, RCP: 1.0 } })]);
    const reading = (seconds: number, RCP: number) => store.patch({ Id: 'A', Reading: { Id: 'A', Time: T0 + seconds * 1000, RCP } });
    reading(1, 1.01);
    reading(2, 1.02);
    expect(store.pressure('A')).toEqual({ times: [T0, T0 + 2000], values: [1.0, 1.02] });
    reading(6, 1.06);
    expect(store.pressure('A')?.values).toEqual([1.0, 1.02, 1.06]);
    // An older reading arriving late does not go back in time.
    reading(3, 9);
    expect(store.pressure('A')?.values).toEqual([1.0, 1.02, 1.06]);

    store.patch({ Id: 'A', Reading: { Id: 'A', Time: T0 + TRACE_SPAN_MS + 3000, RCP: 1.3 } });
    expect(store.pressure('A')).toEqual({ times: [T0 + 6000, T0 + TRACE_SPAN_MS + 3000], values: [1.06, 1.3] });
  });

  it("answers the same trace until a reading changes it, and the one answered before stays as it was", () => {
    const store = new FleetStore();
    store.load([chamber('A', { Reading: { Time: T0, RCP: 1.0 } })]);
    const first = store.pressure('A');
    expect(store.pressure('A')).toBe(first);
    store.patch({ Id: 'A', Reading: { Id: 'A', Time: T0 + 6000, RCP: 1.06 } });
    const second = store.pressure('A');
    expect(second).not.toBe(first);
    expect(first).toEqual({ times: [T0], values: [1.0] });
    expect(second).toEqual({ times: [T0, T0 + 6000], values: [1.0, 1.06] });
  });

  it('keeps the traces of the chambers a reload still holds, and drops the others', () => {
    const store = new FleetStore();
    store.load([chamber('A', { Reading: { Time: T0, RCP: 1.0 } }), chamber('B', { Reading: { Time: T0, RCP: 1.1 } })]);
    store.patch({ Id: 'A', Reading: { Id: 'A', Time: T0 + 10_000, RCP: 1.2 } });
    const listener = vi.fn();
    store.subscribeDevice('A', listener);
    store.load([chamber('A', { Reading: { Id: 'A', Time: T0 + 10_000, RCP: 1.2 } })]);
    expect(store.pressure('A')?.values).toEqual([1.0, 1.2]);
    expect(store.pressure('B')).toBeUndefined();
    expect(store.size).toBe(1);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("tells only the tiles whose alarms changed, and the layout only when a chamber's most urgent priority did", () => {
    const alarm = (id: number, deviceId: string, more: Partial<AlarmRecord> = {}): AlarmRecord => alarmRecord(id, { deviceId, raisedAt: T0, ...more });
    const store = new FleetStore();
    store.load([chamber('A'), chamber('B')]);
    const [a, b, layout] = [vi.fn(), vi.fn(), vi.fn()];
    store.subscribeDevice('A', a);
    store.subscribeDevice('B', b);
    store.subscribeLayout(layout);

    const raised = alarmsByDevice([alarm(1, 'A')]);
    store.setAlarms(raised);
    expect([a.mock.calls.length, b.mock.calls.length, layout.mock.calls.length]).toEqual([1, 0, 1]);
    expect(store.alarms('A').map((each) => each.id)).toEqual([1]);
    expect(store.alarms('B')).toEqual([]);

    // Acknowledged: the tile changes (no longer pulsing), the chamber does not move.
    const acked = alarmsByDevice([alarm(1, 'A', { state: 'active-acked' })], raised);
    store.setAlarms(acked);
    expect([a.mock.calls.length, b.mock.calls.length, layout.mock.calls.length]).toEqual([2, 0, 1]);

    // B gains a medium alarm; A's list is the same array, so A's tile is not told.
    store.setAlarms(alarmsByDevice([alarm(1, 'A', { state: 'active-acked' }), alarm(2, 'B', { priority: 'medium' })], acked));
    expect([a.mock.calls.length, b.mock.calls.length, layout.mock.calls.length]).toEqual([2, 1, 2]);
  });
});
