import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { setupServer } from 'msw/node';
import { authHandlers } from '../../mocks/auth';
import { App } from '../../src/App';

const upstreamBase = 'http://console.test/upstream';
const server = setupServer(...authHandlers(upstreamBase));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const config = { upstreamBase };
const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <App config={config} />
    </MemoryRouter>,
  );

const signIn = async (account: string, password: string) => {
  fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: account } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
};

describe('console sign-in (against the msw mocks)', () => {
  it('shows the Chinese login page with both empty-field messages', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: '氧舱监管系统' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名不能为空')).toBeTruthy();
    expect(screen.getByText('密码不能为空')).toBeTruthy();
  });

  it('says so when the account or password is wrong', async () => {
    renderAt('/login');
    await signIn('admin', 'wrong');
    expect(await screen.findByText('账号或密码错误')).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('signs an admin in to the workplace, with a menu that follows the role', async () => {
    renderAt('/login');
    await signIn('admin', 'Admin2026');
    expect(await screen.findByText('欢迎，admin', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('角色: 超级管理员')).toBeTruthy();
    const menu = await screen.findByTestId('console-menu');
    expect(within(menu).getByText('用户管理')).toBeTruthy();
    expect(within(menu).getByText('403')).toBeTruthy();
  });

  it('sends a signed-out visitor to login with the redirect and query, and back after sign-in', async () => {
    renderAt('/other/order-list?status=open');
    await signIn('user', 'User2026');
    expect(await screen.findByText(/“订单列表”页面正在建设中/, {}, { timeout: 5000 })).toBeTruthy();
    const menu = await screen.findByTestId('console-menu');
    expect(within(menu).queryByText('403')).toBeNull();
  });

  it('signs out on a stale token, then shows not-found for the unknown path it came for', async () => {
    localStorage.setItem('token', 'stale');
    renderAt('/no/such/page');
    // The server refuses the stale token (50008): the console signs out to login and forgets it.
    await signIn('admin', 'Admin2026');
    expect(await screen.findByText('抱歉，页面不见了。', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回' })).toBeTruthy();
  });
});
