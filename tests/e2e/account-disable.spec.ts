import { describe, expect, it } from 'vitest';
import { serverAndBrowserForThisFile, signIn } from './harness';

/**
 * Against the real server, in two browser contexts: the super administrator disables the client through
 * the account's generated edit form while the client's console is open. The client's live stream is ended
 * by the server at once, and its console is signed out on its next request (the stream's reconnection).
 * The account list then shows the state, filters on it, and offers no edit on the administrator's own row.
 */

const e2e = serverAndBrowserForThisFile();
/** Where the screenshot of the account list goes (a directory; unset: none). */
const SCREENSHOTS = process.env.ACCOUNT_SCREENSHOTS;

describe('disabling an account in Chromium against the real server', () => {
  it('signs out the open console of the account disabled and closes its live stream', async () => {
    const adminContext = await e2e.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const clientContext = await e2e.browser.newContext();
    const admin = await adminContext.newPage();
    const client = await clientContext.newPage();
    await signIn(client, e2e.server.url, 'client', 'Client2026');
    await client.getByRole('status').filter({ hasText: '实时' }).waitFor();
    // The stream's request finishes when the server ends the stream (its body ends).
    const streamClosed = client.waitForEvent('requestfinished', { predicate: (request) => request.url().endsWith('/api/v1/live'), timeout: 60_000 });

    await signIn(admin, e2e.server.url, 'admin', 'Admin2026');
    await admin.goto(`${e2e.server.url}/other/manager`);
    const clientRow = admin.getByRole('row').filter({ has: admin.locator('td.column-Account', { hasText: /^client$/ }) });
    await clientRow.getByRole('link', { name: '编辑' }).click();
    await admin.waitForURL('**/accounts/client');
    // The generated form: Level (only the levels below the admin's own), the upper administrator, the state.
    await admin.getByRole('combobox', { name: '账号级别' }).click();
    expect((await admin.getByRole('option').allInnerTexts()).map((text) => text.trim())).toEqual(['一级管理员', '二级管理员', '普通用户']);
    await admin.keyboard.press('Escape');
    await expect.poll(() => admin.getByRole('combobox', { name: '上级管理员' }).inputValue()).toBe('second');
    const disabled = admin.getByLabel('已停用', { exact: true });
    expect(await disabled.isChecked()).toBe(false);
    await disabled.check();
    await admin.getByRole('button', { name: '保存' }).click();
    await admin.getByText('已更新 1 条记录').waitFor();

    await streamClosed;
    await client.waitForURL('**/login**');
    // Nor can it sign in again.
    await client.getByLabel('用户名', { exact: true }).fill('client');
    await client.getByLabel('密码', { exact: true }).fill('Client2026');
    await client.getByRole('button', { name: '登录' }).click();
    await client.getByText('账号或密码错误').waitFor();

    await admin.goto(`${e2e.server.url}/other/manager`);
    const state = (account: string) =>
      admin.getByRole('row').filter({ has: admin.locator('td.column-Account', { hasText: new RegExp(`^${account}$`) }) }).locator('td.column-Disabled');
    await expect.poll(() => state('client').innerText()).toBe('是');
    expect(await state('second').innerText()).toBe('否');
    // Its own row offers neither edit nor delete.
    const ownRow = admin.getByRole('row').filter({ has: admin.locator('td.column-Account', { hasText: /^admin$/ }) });
    await clientRow.getByRole('link', { name: '编辑' }).waitFor();
    expect(await ownRow.getByRole('link', { name: '编辑' }).count()).toBe(0);
    expect(await ownRow.getByRole('button', { name: '删除' }).count()).toBe(0);
    if (SCREENSHOTS !== undefined) await admin.screenshot({ path: `${SCREENSHOTS}/account-list-state.png`, fullPage: true });

    await admin.goto(`${e2e.server.url}/other/manager?filter=${encodeURIComponent(JSON.stringify({ Disabled: true }))}`);
    await expect.poll(async () => (await admin.locator('td.column-Account').allInnerTexts()).map((text) => text.trim())).toEqual(['client']);

    await adminContext.close();
    await clientContext.close();
  });
});
