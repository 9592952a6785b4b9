import { describe, expect, it, vi } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { CoreAdminContext, memoryStore, type AuthProvider } from 'react-admin';
import { fakeConnection } from '../../../tests/unit/live/fakeConnection';
import { LiveContext } from './LiveContext';
import { useLiveStream } from './useLiveStream';

const Stream = () => {
  useLiveStream();
  return null;
};

const authProvider = (logout: () => Promise<void>): AuthProvider => ({
  login: async () => undefined,
  logout,
  checkAuth: async () => undefined,
  checkError: async (error: { status?: number }) => {
    if (error.status === 401) throw new Error('signed out');
  },
  getPermissions: async () => 'admin',
});

describe('useLiveStream', () => {
  it('opens the stream while mounted, and signs out when the server refuses the token', async () => {
    const { connection, emit, calls, listening } = fakeConnection();
    const logout = vi.fn(async () => undefined);
    const view = render(
      <CoreAdminContext authProvider={authProvider(logout)} store={memoryStore()}>
        <LiveContext.Provider value={connection}>
          <Stream />
        </LiveContext.Provider>
      </CoreAdminContext>,
    );
    expect(calls).toEqual({ starts: 1, stops: 0 });
    act(() => emit('unauthorized', undefined));
    await waitFor(() => expect(logout).toHaveBeenCalled());
    view.unmount();
    expect(calls).toEqual({ starts: 1, stops: 1 });
    expect(listening('unauthorized')).toBe(0);
  });
});
