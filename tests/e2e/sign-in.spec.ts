import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fillSignIn, serverAndBrowserForThisFile } from './harness';

/** The demo accounts the README shows, one per level. */
const ACCOUNTS = [
  { account: 'admin', password: 'Admin2026', role: '超级管理员' },
  { account: 'first', password: 'First2026', role: '一级管理员' },
  { account: 'second', password: 'Second2026', role: '二级管理员' },
  { account: 'client', password: 'Client2026', role: '普通用户' },
] as const;

/**
 * What each role's menu must hold (docs/product.md): user manager, the settings requests and their basic profile
 * closed to client, device types, notification channels and the 403 page admin only; alarms, their rules and
 * the analysis pages for every role; the template forms off.
 */
const COMMON = ['工作台', '实时监控', '分析页', '多维数据分析', '氧舱监控', '设备状态', '读数历史', '设备管理', '订单管理', '订单列表', '报警', '报警规则', '用户信息', '用户设置', '审计日志', '404', '500'];
const ADMINISTRATORS = [...COMMON, '用户管理', '参数审批', '参数审批详情'];
const MENU: Record<(typeof ACCOUNTS)[number]['account'], string[]> = {
  admin: [...ADMINISTRATORS, '设备类型', '通知渠道', '403'],
  first: ADMINISTRATORS,
  second: ADMINISTRATORS,
  client: COMMON,
};

const e2e = serverAndBrowserForThisFile();

const menuEntries = async (page: Page) => {
  const menu = page.getByTestId('console-menu');
  await menu.locator('a[href^="/"]:not([target="_blank"])').first().waitFor();
  return (await menu.locator('a[href^="/"]:not([target="_blank"])').allInnerTexts()).map((text) => text.trim()).sort();
};

describe('a newcomer in Chromium against the real server', () => {
  it('lands on the Chinese login page, sees both empty-field messages, and signs in as each level', async () => {
    const page = await e2e.browser.newPage();
    await page.goto(e2e.server.url + '/');
    await page.waitForURL('**/login');
    await expect(page.title()).resolves.toBe('氧舱监管系统');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('氧舱监管系统');

    await page.getByRole('button', { name: '登录' }).click();
    await page.getByText('用户名不能为空').waitFor();
    await page.getByText('密码不能为空').waitFor();

    await fillSignIn(page, 'admin', 'not-the-password');
    await page.getByText('账号或密码错误').waitFor();

    for (const { account, password, role } of ACCOUNTS) {
      await fillSignIn(page, account, password);
      await page.waitForURL('**/dashboard/workplace');
      await page.getByText(`欢迎，${account}`).waitFor();
      await page.getByText(`角色: ${role}`).waitFor();
      expect(await menuEntries(page), account).toEqual([...MENU[account]].sort());
      expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[\w-]{40,}$/);

      await page.goto(`${e2e.server.url}/no/such/page`);
      await page.getByTestId('exception-404').waitFor();
      await page.getByText('抱歉，页面不见了。').waitFor();

      await page.getByRole('button', { name: '个人资料' }).click();
      await page.getByRole('menuitem', { name: '退出登录' }).click();
      await page.waitForURL('**/login**');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    }
    await page.close();
  });

  it('refuses a client the 403 page and user manager by sending it to a page it may use', async () => {
    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.server.url}/other/manager?tab=1`);
    await page.waitForURL(/\/login\?redirect=%2Fother%2Fmanager&tab=1$/);
    await fillSignIn(page, 'client', 'Client2026');
    await page.waitForURL('**/dashboard/workplace');
    await page.goto(`${e2e.server.url}/exception/403`);
    await page.waitForURL('**/dashboard/workplace');
    await page.close();
  });

  it('switches to English with a confirmation, keeps it, and signs out', async () => {
    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.server.url}/login`);
    await fillSignIn(page, 'first', 'First2026');
    await page.waitForURL('**/dashboard/workplace');
    await page.getByRole('button', { name: '切换语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByText('Language switched to English').waitFor();
    await page.getByText('Welcome, first').waitFor();
    await expect(page.title()).resolves.toBe('Oxygen Chamber Supervisory System');
    expect(await menuEntries(page)).toContain('User manager');

    await page.reload();
    await page.getByText('Welcome, first').waitFor();

    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login**');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Username cannot be empty').waitFor();
    await page.getByText('Password cannot be empty').waitFor();
    await page.close();
  });
});
