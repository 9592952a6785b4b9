import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_ASSIGNMENTS } from '../../src/domain/demo';
import { serverAndBrowserForThisFile, signIn as signInAt } from './harness';

/**
 * Against the real server: a first-level administrator creates a second-level
 * administrator, assigns two of its devices, signs in as it and sees exactly those two; a client cannot
 * open account management, and the server refuses its direct calls.
 */

const e2e = serverAndBrowserForThisFile();

const signIn = (page: Page, account: string, password: string) => signInAt(page, e2e.server.url, account, password);

const signOut = async (page: Page) => {
  await page.getByRole('button', { name: '个人资料' }).click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await page.waitForURL('**/login**');
};

/** The device Ids in the device manager's list, as the signed-in account sees them. */
const listedDevices = async (page: Page): Promise<string[]> => {
  await page.goto(`${e2e.server.url}/list/device-manager`);
  const cells = page.locator('td.column-Id');
  await cells.first().waitFor();
  return (await cells.allInnerTexts()).map((text) => text.trim()).sort();
};

describe('account management in Chromium against the real server', () => {
  it('a first-level administrator creates a second-level one and assigns it two devices, which is all it then sees', async () => {
    const firstDevices = DEMO_ASSIGNMENTS.first ?? [];
    // Two of first's devices that the demo's own second-level administrator does not have.
    const picked = firstDevices.filter((id) => !(DEMO_ASSIGNMENTS.second ?? []).includes(id)).slice(0, 2);
    expect(picked).toHaveLength(2);

    const page = await e2e.browser.newPage();
    await signIn(page, 'first', 'First2026');
    expect(await listedDevices(page)).toEqual([...firstDevices].sort());

    await page.goto(`${e2e.server.url}/other/manager`);
    await page.getByRole('link', { name: '新建' }).click();
    await page.waitForURL('**/accounts/create');
    await page.getByRole('combobox', { name: '账号级别' }).waitFor();
    await page.getByRole('textbox', { name: /^账号/ }).fill('site-lead');
    await page.getByLabel('初始密码').fill('SiteLead2026');
    await page.getByRole('combobox', { name: '账号级别' }).click();
    // Only levels below first's own are offered.
    expect((await page.getByRole('option').allInnerTexts()).map((text) => text.trim())).toEqual(['二级管理员', '普通用户']);
    await page.getByRole('option', { name: '二级管理员' }).click();
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('记录已创建').waitFor();

    await page.goto(`${e2e.server.url}/other/manager`);
    const row = page.getByRole('row').filter({ hasText: 'site-lead' });
    await row.getByRole('button', { name: '分配设备' }).click();
    const dialog = page.getByRole('dialog');
    const picker = dialog.getByRole('combobox');
    for (const id of picked) {
      await picker.fill(id);
      await page.getByRole('option', { name: new RegExp(`^${id} ·`) }).click();
    }
    await dialog.getByRole('button', { name: '保存' }).click();
    await page.getByText('设备分配已保存').waitFor();
    await signOut(page);

    await signIn(page, 'site-lead', 'SiteLead2026');
    expect(await listedDevices(page)).toEqual([...picked].sort());
    await page.close();
  });

  it('a client cannot open account management, and the server refuses its direct calls', async () => {
    const page = await e2e.browser.newPage();
    await signIn(page, 'client', 'Client2026');
    const menu = page.getByTestId('console-menu');
    await menu.getByText('设备管理').waitFor();
    expect(await menu.getByText('用户管理').count()).toBe(0);
    await page.goto(`${e2e.server.url}/other/manager`);
    await page.waitForURL('**/dashboard/workplace');

    const refused = await page.evaluate(async () => {
      const post = async (path: string, body: unknown) => {
        const response = await fetch(`/upstream${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
          body: JSON.stringify(body),
        });
        return [response.status, ((await response.json()) as { code: number }).code];
      };
      return [
        await post('/get_Admins', { current: 1, pageSize: 10 }),
        await post('/add_Admin', { Account: 'sneaky', Code: 'Sneaky2026', Level: 3 }),
        await post('/code/Admin_reset_Code', { Account: 'second' }),
        await post('/assign_Devices', { Account: 'client', DeviceIds: [] }),
      ];
    });
    expect(refused).toEqual([
      [403, 40300],
      [403, 40300],
      [403, 40300],
      [403, 40300],
    ]);
    await page.close();
  });
});
