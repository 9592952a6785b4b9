import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ACCOUNTS, DEMO_ADMIN, DEMO_ASSIGNMENTS, DEMO_DEVICES } from '../../src/domain/demo';
import { launchChromium, startMockConsole, type RunningConsole } from './harness';

/** `npm run dev:mock`: the console with no server at all, every call answered by msw in the browser. */
let mocked: RunningConsole;
let url: string;
let browser: Browser;

beforeAll(async () => {
  mocked = await startMockConsole();
  url = mocked.url;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await mocked?.stop();
});

const query = (page: Page) => new URL(page.url()).searchParams;
/** react-admin's app bar shows its refresh button again once no call is in flight. */
const settled = (page: Page) => page.getByRole('button', { name: '刷新' }).waitFor();

describe('the mocked console (npm run dev:mock) in Chromium', () => {
  it('lets an admin filter, sort, page and export state records, and edit a device location', async () => {
    const page = await browser.newPage({ acceptDownloads: true });
    await page.goto(`${url}/login`);
    await page.getByLabel('用户名', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill('Admin2026');
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByText('欢迎，admin').waitFor();

    // State records: the readings history, a menu entry of its own.
    await page.getByTestId('console-menu').getByText('读数历史').click();
    await page.getByText('第 1-10 条，共 55 条').waitFor();

    await page.getByRole('button', { name: '添加筛选条件' }).click();
    await page.getByRole('menu').getByText('加压速度', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('加压速度').click();
    await page.getByRole('option', { name: '快' }).click();
    await expect.poll(() => JSON.parse(query(page).get('filter') ?? '{}').SS, { timeout: 20_000 }).toBe('F');
    // The unfiltered 55 gives way to the filtered total once the mocked call answers.
    const filtered = page.getByText(/^第 1-\d+ 条，共 (?!55 条)\d+ 条$/);
    await filtered.waitFor();
    const total = Number(/共 (\d+) 条/.exec(await filtered.innerText())?.[1]);
    expect(total).toBeGreaterThan(10);
    expect(total).toBeLessThan(55);

    await settled(page);
    await page.getByRole('button', { name: '转到下一页' }).click();
    await page.getByText(new RegExp(`^第 11-\\d+ 条，共 ${total} 条$`)).waitFor();
    await expect.poll(() => query(page).get('page')).toBe('2');

    await settled(page);
    const firstTime = () => page.locator('tbody tr').first().locator('td').nth(1).innerText();
    const newestFirst = await firstTime();
    await page.locator('thead').getByText('时间', { exact: true }).click();
    // react-admin keeps the list's state in the URL (same-document navigations, so poll it); as a
    // person would, the journey goes on once the table shows the new order.
    await expect.poll(() => `${query(page).get('sort')} ${query(page).get('order')}`, { timeout: 20_000 }).toBe('Time ASC');
    await expect.poll(firstTime, { timeout: 20_000 }).not.toBe(newestFirst);
    await page.getByText(new RegExp(`^第 1-10 条，共 ${total} 条$`)).waitFor();

    await settled(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出' }).click()]);
    const csv = readFileSync((await download.path()) ?? '', 'utf8').trim().split(/\r?\n/);
    const header = csv[0]?.split(',') ?? [];
    expect(header.slice(0, 2)).toEqual(['Id', 'Time']);
    expect(csv).toHaveLength(total + 1);
    const speed = header.indexOf('SS');
    const times = csv.slice(1).map((row) => Date.parse(row.split(',')[1] ?? ''));
    expect(csv.slice(1).every((row) => row.split(',')[speed] === 'F')).toBe(true);
    // Export follows the list's sort: oldest first.
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // Edit a device's location from the device manager: the demo's twelve chambers.
    await page.getByTestId('console-menu').getByText('设备管理').click();
    await page.getByText(`第 1-10 条，共 ${DEMO_DEVICES.length} 条`).waitFor();
    // A chamber that is not reporting: an online one's live patches replace the record the form was opened on.
    const quiet = DEMO_DEVICES.find((device) => !device.online)?.id ?? '';
    await page.locator('tr', { hasText: quiet }).getByRole('link', { name: '编辑' }).click();
    const location = page.getByRole('textbox', { name: '位置' });
    await location.waitFor();
    await location.fill('Ward 7, Hall B');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('Ward 7, Hall B').first().waitFor();
    // A reload keeps the session and the change (the mocks keep both in localStorage).
    await page.reload();
    await page.getByText('Ward 7, Hall B').first().waitFor();
    await page.close();
  });

  it('shows each demo role exactly the chambers the demo assigns it, as the server does', async () => {
    for (const { account, password } of [DEMO_ADMIN, ...DEMO_ACCOUNTS]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${url}/login`);
      await page.getByLabel('用户名', { exact: true }).fill(account);
      await page.getByLabel('密码', { exact: true }).fill(password);
      await page.getByRole('button', { name: '登录' }).click();
      await page.getByText(`欢迎，${account}`).waitFor();
      await page.goto(`${url}/list/device-manager?perPage=25`);
      const expected = [...(DEMO_ASSIGNMENTS[account] ?? DEMO_DEVICES.map((device) => device.id))].sort();
      await page.getByText(/^第 1-\d+ 条，共 \d+ 条$/).waitFor();
      expect((await page.locator('td.column-Id').allInnerTexts()).sort(), account).toEqual(expected);
      await context.close();
    }
  });

  it('serves the help pages the menu links to, in both languages, as the build ships them', async () => {
    for (const [address, heading] of [
      ['/help/zh-CN/guide.html', '<h1>操作指南</h1>'],
      ['/help/zh-CN/faq.html', '<h1>常见问题</h1>'],
      ['/help/en-US/guide.html', '<h1>Operator guide</h1>'],
      ['/help/en-US/faq.html', '<h1>Frequently asked questions</h1>'],
    ]) {
      const response = await fetch(`${url}${address}`);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain(heading);
    }
  });
});
