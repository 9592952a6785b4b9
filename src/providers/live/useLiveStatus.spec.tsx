import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { fakeConnection } from '../../../tests/unit/live/fakeConnection';
import { LIVE_TIMING } from './connection';
import { LiveContext } from './LiveContext';
import { useLiveStatus } from './useLiveStatus';

const Status = () => {
  const { status, pollMs } = useLiveStatus();
  return <p>{`${status} ${pollMs}`}</p>;
};

describe('useLiveStatus', () => {
  it("follows the connection's status", () => {
    const { connection, emit } = fakeConnection();
    render(
      <LiveContext.Provider value={connection}>
        <Status />
      </LiveContext.Provider>,
    );
    expect(screen.getByText(`off ${LIVE_TIMING.pollMs}`)).toBeTruthy();
    act(() => emit('status', 'polling'));
    expect(screen.getByText(`polling ${LIVE_TIMING.pollMs}`)).toBeTruthy();
    act(() => emit('status', 'live'));
    expect(screen.getByText(`live ${LIVE_TIMING.pollMs}`)).toBeTruthy();
  });

  it("is 'off' outside a LiveProvider", () => {
    render(<Status />);
    expect(screen.getByText(`off ${LIVE_TIMING.pollMs}`)).toBeTruthy();
  });
});
