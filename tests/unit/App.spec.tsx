import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderAt, signIn, withMockedUpstream } from './console';

withMockedUpstream();

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
    expect(await screen.findByText('欢迎，admin', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByText('角色: 超级管理员')).toBeTruthy();
    const menu = await screen.findByTestId('console-menu');
    expect(within(menu).getByText('用户管理')).toBeTruthy();
    expect(within(menu).getByText('403')).toBeTruthy();
  });

});
