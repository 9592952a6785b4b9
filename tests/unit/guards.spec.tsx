import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderAt, signIn, withMockedUpstream } from './console';

withMockedUpstream();

describe('route guards (against the msw mocks)', () => {
  it('sends a signed-out visitor to login with the redirect and query, and back after sign-in', async () => {
    renderAt('/other/order-list?status=open');
    await screen.findByLabelText('用户名', {}, { timeout: 20_000 });
    expect(window.location.pathname + window.location.search).toBe('/login?redirect=%2Fother%2Forder-list&status=open');
    await signIn('user', 'User2026');
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe('/other/order-list?status=open'), { timeout: 20_000 });
    // The page it came for shows, not just its address.
    expect(await screen.findByRole('heading', { name: '订单' }, { timeout: 20_000 })).toBeTruthy();
    const menu = await screen.findByTestId('console-menu');
    expect(within(menu).queryByText('403')).toBeNull();
  });

  it('signs out on a stale token, then shows not-found for the unknown path it came for', async () => {
    localStorage.setItem('token', 'stale');
    renderAt('/no/such/page');
    // The server refuses the stale token (50008): the console signs out to login and forgets it.
    await signIn('admin', 'Admin2026');
    expect(await screen.findByText('抱歉，页面不见了。', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回' })).toBeTruthy();
  });
});
