import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_ASSIGNMENTS } from '../../src/domain/demo';
import { serverAndBrowserForThisFile, signIn } from './harness';

/**
 * Against the real server with the demo accounts (admin → first → second → client): the user info page
 * shows each account what the server scopes to it, its own devices and the accounts below it.
 */

const e2e = serverAndBrowserForThisFile();

const openUserInfo = async (account: string, password: string): Promise<Page> => {
  const page = await e2e.browser.newPage();
  await signIn(page, e2e.server.url, account, password);
  await page.goto(`${e2e.server.url}/user/info`);
  return page;
};

const fact = (page: Page, id: string) => page.getByTestId(`user-info-${id}`);

/** One column of the tab's table, row by row. */
const cells = async (page: Page, source: string) => {
  const column = page.locator(`[role="tabpanel"] td.column-${source}`);
  await column.first().waitFor();
  return (await column.allInnerTexts()).map((text) => text.trim());
};

describe('user info in Chromium against the real server', () => {
  it('shows a second-level administrator exactly its devices and the client below it', async () => {
    const page = await openUserInfo('second', 'Second2026');
    const devices = [...(DEMO_ASSIGNMENTS.second ?? [])].sort();
    await fact(page, 'devices').getByText(`管理的设备数: ${devices.length}`).waitFor();
    await fact(page, 'team').getByText('下级账号数: 1').waitFor();
    expect(await fact(page, 'level').innerText()).toBe('账号级别: 二级管理员');
    expect(await fact(page, 'upper-admin').innerText()).toBe('上级管理员: first');
    expect(await cells(page, 'Id')).toEqual(devices);

    await page.getByRole('tab', { name: '团队（下级账号）' }).click();
    expect(await cells(page, 'Account')).toEqual(['client']);
    expect(await cells(page, 'Level')).toEqual(['普通用户']);
    expect(await cells(page, 'SubAdmin')).toEqual(['second']);
    expect(await page.locator('[role="tabpanel"] tbody td').last().innerText()).toBe(String(DEMO_ASSIGNMENTS.client?.length));

    await page.getByRole('tab', { name: '项目（我的设备）' }).click();
    await page.locator('[role="tabpanel"] td.column-Id').filter({ hasText: devices[0] }).click();
    await page.waitForURL(`**/devices/${devices[0]}/show`);
    await page.close();
  });

  it('shows a client its two devices and no team', async () => {
    const page = await openUserInfo('client', 'Client2026');
    const devices = [...(DEMO_ASSIGNMENTS.client ?? [])].sort();
    expect(devices).toHaveLength(2);
    await fact(page, 'devices').getByText('管理的设备数: 2').waitFor();
    expect(await fact(page, 'team').innerText()).toBe('下级账号数: 0');
    expect(await cells(page, 'Id')).toEqual(devices);

    await page.getByRole('tab', { name: '团队（下级账号）' }).click();
    await page.getByTestId('user-info-no-team').waitFor();
    expect(await page.locator('[role="tabpanel"] table').count()).toBe(0);
    await page.close();
  });
});
