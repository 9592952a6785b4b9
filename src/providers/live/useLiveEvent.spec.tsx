import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { CommandOutcome, LiveEvent } from '../../domain/live';
import { fakeConnection } from '../../../tests/unit/live/fakeConnection';
import { LiveContext } from './LiveContext';
import { useLiveEvent } from './useLiveEvent';

const outcome: CommandOutcome = { cmdId: 'c1', Id: 'OC-1', type: 'permission', status: 'acked', at: 1 };
const patch: LiveEvent = { type: 'device', data: { Id: 'OC-1', Online: true } };

const Listener = ({ onOutcome }: { onOutcome: (outcome: CommandOutcome) => void }) => {
  useLiveEvent('command', onOutcome);
  return null;
};

describe('useLiveEvent', () => {
  it('hands the listener the events of its type, the newest listener each time, with one subscription', () => {
    const { connection, emit, listening } = fakeConnection();
    const wrap = (node: ReactNode) => <LiveContext.Provider value={connection}>{node}</LiveContext.Provider>;
    const first: CommandOutcome[] = [];
    const second: CommandOutcome[] = [];
    const view = render(wrap(<Listener onOutcome={(data) => first.push(data)} />));
    act(() => {
      emit('event', patch);
      emit('event', { type: 'command', data: outcome });
    });
    expect(first).toEqual([outcome]);
    view.rerender(wrap(<Listener onOutcome={(data) => second.push(data)} />));
    act(() => emit('event', { type: 'command', data: { ...outcome, status: 'timeout' } }));
    expect(first).toHaveLength(1);
    expect(second.map((data) => data.status)).toEqual(['timeout']);
    expect(listening('event')).toBe(1);
    view.unmount();
    expect(listening('event')).toBe(0);
  });

  it('does nothing outside a LiveProvider', () => {
    expect(() => render(<Listener onOutcome={() => undefined} />).unmount()).not.toThrow();
  });
});
