import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serverAndBrowserForThisFile, signIn } from './harness';

/**
 * User settings in Chromium against the real server with the demo accounts (admin → first → second →
 * client): the basic-info form's rules and what it stores, a certificate from submission to an upper
 * administrator's approval, and one session ending another.
 */

const e2e = serverAndBrowserForThisFile();

const openSettings = async (account: string, password: string, tab: string): Promise<Page> => {
  const page = await e2e.browser.newPage();
  await signIn(page, e2e.server.url, account, password);
  await page.goto(`${e2e.server.url}/user/setting?tab=${tab}`);
  return page;
};
const panel = (page: Page) => page.getByRole('tabpanel');

describe('user settings in Chromium against the real server', () => {
  it('checks the basic information before saving it, and keeps it', async () => {
    const page = await openSettings('first', 'First2026', 'basic');
    await page.getByLabel('邮箱').waitFor();
    await page.getByRole('button', { name: '保存' }).click();
    expect(await panel(page).getByText('必填').count()).toBe(4);
    await page.getByLabel('邮箱').fill('first@');
    await page.getByLabel('昵称').fill('一级管理员');
    await page.getByLabel('国家/地区').fill('中国');
    await page.getByLabel('所在区域').fill('浙江杭州');
    await page.getByLabel('个人简介').fill('氧'.repeat(201));
    await panel(page).getByText('必须为有效的邮箱地址').waitFor();
    await panel(page).getByText('个人简介不能超过 200 个字').waitFor();
    expect(await page.getByTestId('profile-count').innerText()).toBe('201 / 200 字');

    await page.getByLabel('邮箱').fill('first@example.com');
    await page.getByLabel('个人简介').fill('负责杭州站点的氧舱。');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('基本信息已保存').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('所在区域').inputValue(), { timeout: 30_000 }).toBe('浙江杭州');
    expect(await page.getByLabel('个人简介').inputValue()).toBe('负责杭州站点的氧舱。');
    await page.close();
  });

  it('sends a certificate to the administrator above, who passes it', async () => {
    const client = await openSettings('client', 'Client2026', 'certification');
    await client.getByText('尚未提交证书。').waitFor();
    await client.getByLabel('证书编号').fill('HBO-2026-0042');
    await client.getByLabel('发证机构').fill('浙江省高压氧医学会');
    await client.getByLabel('有效期至').fill(`${new Date().getFullYear() + 1}-06-30`);
    await client.getByRole('button', { name: '提交审核' }).click();
    await client.getByTestId('certificate-status').getByText('审核中').waitFor();

    const second = await openSettings('second', 'Second2026', 'certification');
    const waiting = second.getByTestId('pending-certificate');
    await waiting.getByText('HBO-2026-0042').waitFor();
    expect(await waiting.innerText()).toContain('client (普通用户)');
    await waiting.getByRole('button', { name: '通过', exact: true }).click();
    await second.getByText('没有待您审核的证书。').waitFor();

    await client.reload();
    await client.getByTestId('certificate-status').getByText('已通过').waitFor();
    expect(await client.getByTestId('certificate').innerText()).toContain('审核人: second');
    await Promise.all([client.close(), second.close()]);
  });

  it('lists the account\'s sessions and ends another one', async () => {
    const other = await openSettings('admin', 'Admin2026', 'basic');
    const page = await openSettings('admin', 'Admin2026', 'security');
    const rows = page.getByTestId('open-session');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    expect(await rows.filter({ hasText: '当前会话' }).count()).toBe(1);
    await rows.filter({ hasNotText: '当前会话' }).getByRole('button', { name: '结束会话' }).click();
    await page.getByText('会话已结束').waitFor();
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(1);
    // The ended session is sent to sign in again at its next call.
    await other.reload();
    await other.waitForURL('**/login**');
    await Promise.all([page.close(), other.close()]);
  });
});
