import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoreAdminContext, memoryStore, type DataProvider } from 'react-admin';
import { fakeConnection } from '../../../tests/unit/live/fakeConnection';
import { alarmRecord } from '../../../tests/fixtures/alarms';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { LiveEvent } from '../../domain/live';
import { LiveContext } from '../../providers/live/LiveContext';
import { FIGURES_REFETCH_MS, useFleetSummary } from './useFleetSummary';

const Figures = () => {
  const { data } = useFleetSummary();
  return <p>{data ? 'figures' : 'waiting'}</p>;
};

const device = (data: Extract<LiveEvent, { type: 'device' }>['data']): LiveEvent => ({ type: 'device', data });

const RAISED: AlarmRecord = alarmRecord(1, { priority: 'medium', value: 23.1, threshold: 23, raisedAt: 0 });
const alarm = (change: Partial<AlarmRecord>): LiveEvent => ({ type: 'alarm', data: { ...RAISED, ...change } });

/** How often the workplace asks for its figures as the live stream reports chambers. */
describe('useFleetSummary', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  const mount = () => {
    const { connection, emit } = fakeConnection();
    const fleetSummary = vi.fn(() => Promise.resolve({}));
    const dataProvider = { fleetSummary } as unknown as DataProvider;
    const view = render(
      <CoreAdminContext dataProvider={dataProvider} store={memoryStore()}>
        <LiveContext.Provider value={connection}>
          <Figures />
        </LiveContext.Provider>
      </CoreAdminContext>,
    );
    return { emit, fleetSummary, view };
  };

  it("asks once for a burst of chambers' changes, and not for patches that repeat what is known", async () => {
    const { emit, fleetSummary } = mount();
    await vi.waitFor(() => expect(fleetSummary).toHaveBeenCalledTimes(1));
    expect(fleetSummary).toHaveBeenCalledWith(new Date().getTimezoneOffset());

    act(() => {
      for (let n = 0; n < 20; n += 1) emit('event', device({ Id: `OC-${n}`, Online: n % 2 === 0, State: 'Stop' }));
    });
    await act(() => vi.advanceTimersByTimeAsync(FIGURES_REFETCH_MS));
    expect(fleetSummary).toHaveBeenCalledTimes(2);

    // Readings say Online again and again; only a change counts (here OC-1 going online, OC-2 starting a session).
    act(() => emit('event', device({ Id: 'OC-0', Online: true, State: 'Stop' })));
    await act(() => vi.advanceTimersByTimeAsync(FIGURES_REFETCH_MS));
    expect(fleetSummary).toHaveBeenCalledTimes(2);
    act(() => {
      emit('event', device({ Id: 'OC-1', Online: true }));
      emit('event', device({ Id: 'OC-2', SessionOC: '123456' }));
    });
    await act(() => vi.advanceTimersByTimeAsync(FIGURES_REFETCH_MS));
    expect(fleetSummary).toHaveBeenCalledTimes(3);
  });

  it('asks again when an alarm starts or stops standing or changes priority, not when it is acknowledged', async () => {
    const { emit, fleetSummary } = mount();
    await vi.waitFor(() => expect(fleetSummary).toHaveBeenCalledTimes(1));
    const after = async (event: LiveEvent) => {
      act(() => emit('event', event));
      await act(() => vi.advanceTimersByTimeAsync(FIGURES_REFETCH_MS));
      return fleetSummary.mock.calls.length;
    };
    expect(await after(alarm({}))).toBe(2);
    expect(await after(alarm({ state: 'active-acked', ackedBy: 'client' }))).toBe(2);
    expect(await after(alarm({ state: 'active-acked', priority: 'high' }))).toBe(3);
    expect(await after(alarm({ state: 'shelved' }))).toBe(4);
    expect(await after(alarm({ state: 'closed' }))).toBe(4);
  });

  it('asks nothing after the page is left', async () => {
    const { emit, fleetSummary, view } = mount();
    await vi.waitFor(() => expect(fleetSummary).toHaveBeenCalledTimes(1));
    act(() => emit('event', device({ Id: 'OC-1', Online: false })));
    view.unmount();
    await vi.advanceTimersByTimeAsync(FIGURES_REFETCH_MS);
    expect(fleetSummary).toHaveBeenCalledTimes(1);
  });
});
