import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { LiveEvent } from '../../domain/live';
import { LiveContext } from '../../providers/live/LiveContext';
import { fakeConnection } from '../../../tests/unit/live/fakeConnection';
import { useNewerReadings } from './useNewerReadings';

const reading = (Id: string, Time: number, RCPi02 = 25): LiveEvent => ({ type: 'device', data: { Id, Reading: { Id, Time, RCP: 1.3, RCPi02 } } });
const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

const setUp = (filterValues: Record<string, unknown>) => {
  const fake = fakeConnection();
  const wrapper = ({ children }: { children: ReactNode }) => <LiveContext.Provider value={fake.connection}>{children}</LiveContext.Provider>;
  let renders = 0;
  const hook = renderHook(
    ({ filter, page }: { filter: Record<string, unknown>; page: unknown }) => {
      renders += 1;
      return useNewerReadings(filter, page);
    },
    { wrapper, initialProps: { filter: filterValues, page: ['first page'] as unknown } },
  );
  return { ...fake, hook, renders: () => renders };
};

describe('the readings log\u2019s newer readings', () => {
  it('counts the readings its filter admits, as the server would answer the filter', async () => {
    const { emit, hook } = setUp({ Id: 'OC-1', RCPi02_gte: 21 });
    act(() => {
      emit('event', reading('OC-1', 1000));
      emit('event', reading('OC-2', 1001));
      emit('event', reading('OC-1', 1002, 19));
      emit('event', reading('OC-1', 1003));
      emit('event', { type: 'device', data: { Id: 'OC-1', Online: false } });
    });
    await nextFrame();
    expect(hook.result.current).toEqual({ count: 2, newest: 1003 });
  });

  it('renders once a frame however many readings arrive, and starts again from none with a new page', async () => {
    const { emit, hook, renders } = setUp({});
    const before = renders();
    act(() => {
      for (let i = 0; i < 500; i += 1) emit('event', reading(`OC-${i}`, 2000 + i));
    });
    await nextFrame();
    expect(hook.result.current).toEqual({ count: 500, newest: 2499 });
    expect(renders() - before).toBe(1);
    hook.rerender({ filter: {}, page: ['refetched page'] });
    expect(hook.result.current).toEqual({ count: 0, newest: 0 });
    act(() => emit('event', reading('OC-1', 3000)));
    await nextFrame();
    expect(hook.result.current).toEqual({ count: 1, newest: 3000 });
  });
});
