import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderAt, signIn, withMockedUpstream } from './console';

withMockedUpstream();

/** Page settings as a previous visit left them in react-admin's Store (localStorage). */
const storedSettings = (settings: Record<string, unknown>) => localStorage.setItem('RaStore.consoleSettings', JSON.stringify(settings));

const signedIn = async () => {
  renderAt('/login');
  await signIn('admin', 'Admin2026');
  await screen.findByText('欢迎，admin', {}, { timeout: 20_000 });
};

describe('the frame follows the page settings (against the msw mocks)', () => {
  it('by default: app bar with the drawer in its user menu, side menu, footer, no fixed button', async () => {
    await signedIn();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByTestId('console-menu')).toBeTruthy();
    expect(document.querySelector('[data-top-menu]')).toBeNull();
    expect(screen.getByText(`© ${new Date().getFullYear()} 氧舱监管系统 · 版本 0.1.0`)).toBeTruthy();
    expect(document.querySelector('button[data-settings-open]')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: '个人资料' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '页面配置' }));
    expect(within(await screen.findByRole('presentation')).getByRole('heading', { name: '页面配置' })).toBeTruthy();
  });

  it('draws the menu in the app bar instead of at the side when topMenu is on', async () => {
    storedSettings({ topMenu: true });
    await signedIn();
    const topMenu = document.querySelector<HTMLElement>('[data-top-menu]');
    expect(topMenu).not.toBeNull();
    expect(screen.queryByTestId('console-menu')).toBeNull();
    fireEvent.click(within(topMenu as HTMLElement).getByRole('button', { name: '订单与用户' }));
    expect((await screen.findByRole('menuitem', { name: '用户管理' })).getAttribute('href')).toBe('/other/manager');
  });

  it('hides the app bar, menu and footer when they are off, and offers the fixed button instead', async () => {
    // hideMenu, which the drawer does not offer, hides the side menu as menu off does.
    storedSettings({ navbar: false, hideMenu: true, footer: false });
    await signedIn();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByTestId('console-menu')).toBeNull();
    expect(screen.queryByText(/氧舱监管系统 · 版本/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '页面配置' }));
    expect(await screen.findByRole('heading', { name: '页面配置' })).toBeTruthy();
  });

  it('keeps the page settings when the user signs out', async () => {
    storedSettings({ footer: false });
    await signedIn();
    fireEvent.click(screen.getByRole('button', { name: '个人资料' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '退出登录' }));
    await screen.findByRole('button', { name: '登录' }, { timeout: 20_000 });
    expect(JSON.parse(localStorage.getItem('RaStore.consoleSettings') ?? 'null')).toEqual({ footer: false });
  });
});
