import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium as the browser benchmarks with a live console drive it (bench:monitor, bench:alarms). */

/** Headless, without the background traffic a desktop browser adds (updates, sync, QUIC probes). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });

/** Signs `account` in through the console's zh-CN sign-in form; answers once the workplace opened. */
export const signInConsole = async (page: Page, url: string, account: { Account: string; Code: string }): Promise<void> => {
  await page.goto(`${url}/login`);
  await page.getByLabel('用户名', { exact: true }).fill(account.Account);
  await page.getByLabel('密码', { exact: true }).fill(account.Code);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL('**/dashboard/workplace', { timeout: 60_000 });
};
