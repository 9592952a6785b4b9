import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serverAndBrowserForThisFile, signIn } from './harness';

/**
 * The frame's tab bar, menu from the server and help links in Chromium against the real server: the
 * closing rules seen in the page and kept across a reload, a reload through /redirect that fetches the
 * page again, the server's menu limiting the pages, and the help links opening the shipped pages.
 */

const e2e = serverAndBrowserForThisFile();

/**
 * Changes settings the way the settings drawer does, in react-admin's Store (localStorage entry
 * `RaStore.consoleSettings`), then reloads so that the console starts with them.
 */
const applySettings = async (page: Page, settings: Record<string, unknown>) => {
  await page.evaluate((value) => localStorage.setItem('RaStore.consoleSettings', JSON.stringify(value)), settings);
  await page.reload();
};

const openTabs = async (page: Page): Promise<(string | null)[]> => {
  await page.locator('[data-tab-bar]').waitFor();
  return page.locator('[data-tab]').evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('data-tab')));
};

/**
 * Opens a page the way a user does, from the side menu, and waits until it shows. A page whose code is
 * still on its way when the next one is asked for is never shown, so it gets no tab either.
 */
const openFromMenu = async (page: Page, path: string) => {
  await page.getByTestId('console-menu').locator(`a[href="${path}"]`).click();
  await page.waitForURL(`**${path}`);
  await page.locator(`[data-tab="${path}"]`).waitFor();
};

const tabAction = async (page: Page, tab: string, action: string) => {
  await page.locator(`[data-tab="${tab}"]`).click({ button: 'right' });
  await page.locator(`[data-tab-action="${action}"]`).click();
};

const WORKPLACE = '/dashboard/workplace';
const STATUS = '/list/device-atts';
const DEVICES = '/list/device-manager';
const ORDERS = '/other/order-manager';
const ACCOUNTS = '/other/manager';

describe('the tab bar in Chromium', () => {
  it('opens a tab per page, closes by the rules, keeps the tabs across a reload and reloads a page through /redirect', async () => {
    const page = await e2e.browser.newPage();
    await signIn(page, e2e.server.url, 'admin', 'Admin2026');
    expect(await page.locator('[data-tab-bar]').count()).toBe(0);
    await applySettings(page, { tabBar: true });
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE]);

    for (const path of [STATUS, DEVICES, ORDERS, ACCOUNTS]) await openFromMenu(page, path);
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE, STATUS, DEVICES, ORDERS, ACCOUNTS]);
    expect(await page.locator(`[data-tab="${DEVICES}"]`).innerText()).toContain('设备管理');
    // The workplace is never closable: no close button, and its menu offers no "close".
    expect(await page.locator(`[data-tab="${WORKPLACE}"] [aria-label^="关闭"]`).count()).toBe(0);

    await page.reload();
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE, STATUS, DEVICES, ORDERS, ACCOUNTS]);

    // Close right of the order manager closes the active user manager: the order manager opens.
    await tabAction(page, ORDERS, 'closeRight');
    await page.waitForURL(`**${ORDERS}`);
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE, STATUS, DEVICES, ORDERS]);

    // Close left of the device manager keeps the workplace, and the page shown.
    await tabAction(page, DEVICES, 'closeLeft');
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE, DEVICES, ORDERS]);
    expect(new URL(page.url()).pathname).toBe(ORDERS);

    // Closing the active tab goes to its neighbour before it.
    await page.locator(`[data-tab="${ORDERS}"]`).getByRole('button', { name: '关闭“订单管理”' }).click();
    await page.waitForURL(`**${DEVICES}`);
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE, DEVICES]);

    await openFromMenu(page, ACCOUNTS);
    await tabAction(page, DEVICES, 'closeOthers');
    await page.waitForURL(`**${DEVICES}`);
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE, DEVICES]);

    // Reload through /redirect: back on the same page with its query, its list fetched again.
    await page.goto(`${e2e.server.url}${DEVICES}?perPage=25`);
    await page.locator('td.column-Id').first().waitFor();
    const fetched = page.waitForRequest((request) => request.url().endsWith('/upstream/list/get_OCProperty'));
    const redirected = page.waitForURL('**/redirect/list/device-manager?perPage=25');
    await tabAction(page, DEVICES, 'reload');
    await redirected;
    await fetched;
    await page.waitForURL(`**${DEVICES}?perPage=25`);
    await page.locator('td.column-Id').first().waitFor();

    await page.locator(`[data-tab="${WORKPLACE}"]`).click({ button: 'right' });
    expect(await page.locator('[data-tab-action="close"]').getAttribute('aria-disabled')).toBe('true');
    await page.locator('[data-tab-action="closeAll"]').click();
    await page.waitForURL(`**${WORKPLACE}`);
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE]);
    await page.close();
  });
});

describe('the menu from the server in Chromium', () => {
  it('loads with its notifications, then limits the pages to the menu; a failed load keeps the console menu', async () => {
    const page = await e2e.browser.newPage();
    await signIn(page, e2e.server.url, 'admin', 'Admin2026');
    const menu = page.getByTestId('console-menu');
    // The audit log is a page of the console's own menu, not of the server's (/api/user/menu).
    await menu.locator('a[href="/audit-log"]').waitFor();

    // Slow enough that the loading notification can be seen before the success one replaces it.
    await page.route('**/upstream/api/user/menu', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await applySettings(page, { menuFromServer: true, tabBar: true });
    await page.getByText('正在从服务器加载菜单…').waitFor();
    await page.getByText('已加载服务器菜单').waitFor();
    await menu.locator(`a[href="${DEVICES}"]`).waitFor();
    expect(await menu.locator('a[href="/audit-log"]').count()).toBe(0);

    await page.goto(`${e2e.server.url}/audit-log`);
    await page.getByTestId('exception-404').waitFor();
    await page.goto(`${e2e.server.url}${DEVICES}`);
    await page.locator('td.column-Id').first().waitFor();
    expect(await page.getByTestId('exception-404').count()).toBe(0);
    // The page that showed not-found got no tab; the one that opened did.
    await expect.poll(() => openTabs(page)).toEqual([WORKPLACE, DEVICES]);

    // A server that fails: the error shows, the setting goes off and the console's menu is back.
    await page.unroute('**/upstream/api/user/menu');
    await page.route('**/upstream/api/user/menu', (route) => route.fulfill({ status: 500, body: 'down' }));
    await applySettings(page, { menuFromServer: true, serverMenu: [] });
    await page.getByText('服务器菜单加载失败，仍使用本地菜单').waitFor();
    await menu.locator('a[href="/audit-log"]').waitFor();
    await page.goto(`${e2e.server.url}/audit-log`);
    await page.getByRole('row').nth(1).waitFor();
    expect(await page.getByTestId('exception-404').count()).toBe(0);
    await page.close();
  });
});

/**
 * The menu's help links in `locale`: their addresses and labels, then the guide they open in a new tab
 * (its heading and <html lang>) and its link to the FAQ in the same language. `guide` and `faq` are the
 * menu's labels, which the guide's heading and its link to the FAQ share.
 */
const followHelpLinks = async (page: Page, locale: string, { guide, faq, faqHeading }: { guide: string; faq: string; faqHeading: string }) => {
  const links = page.getByTestId('console-menu').locator('a[target="_blank"]');
  await page.getByTestId('console-menu').getByText(guide).waitFor();
  const attributes = await links.evaluateAll((anchors) =>
    anchors.map((anchor) => [anchor.getAttribute('href'), anchor.getAttribute('rel'), anchor.textContent]),
  );
  expect(attributes).toEqual([
    [`/help/${locale}/guide.html`, 'noopener noreferrer', guide],
    [`/help/${locale}/faq.html`, 'noopener noreferrer', faq],
  ]);
  const [help] = await Promise.all([page.waitForEvent('popup'), links.first().click()]);
  await help.getByRole('heading', { level: 1, name: guide }).waitFor();
  expect(await help.locator('html').getAttribute('lang')).toBe(locale);
  await help.getByRole('link', { name: faq }).click();
  await help.getByRole('heading', { level: 1, name: faqHeading }).waitFor();
  expect(new URL(help.url()).pathname).toBe(`/help/${locale}/faq.html`);
  await help.close();
};

describe('the help links in Chromium', () => {
  it("open the operator guide and the FAQ the console ships, in a new tab and in the console's language", async () => {
    const page = await e2e.browser.newPage();
    await signIn(page, e2e.server.url, 'client', 'Client2026');
    await followHelpLinks(page, 'zh-CN', { guide: '操作指南', faq: '常见问题', faqHeading: '常见问题' });

    await page.getByRole('button', { name: '切换语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await followHelpLinks(page, 'en-US', { guide: 'Operator guide', faq: 'FAQ', faqHeading: 'Frequently asked questions' });
    await page.close();
  });
});
