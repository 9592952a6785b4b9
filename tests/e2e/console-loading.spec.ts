import { describe, expect, it } from 'vitest';
import type { Response } from 'playwright-core';
import { fillSignIn, serverAndBrowserForThisFile } from './harness';

const e2e = serverAndBrowserForThisFile();

describe('loading the console in Chromium from the real server', () => {
  it('gets its scripts compressed, only the login chunks first, and the login page works', async () => {
    const page = await e2e.browser.newPage();
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await page.goto(`${e2e.server.url}/login`);
    await page.getByRole('button', { name: '登录' }).waitFor();
    await page.waitForLoadState('networkidle');

    expect(scripts.length).toBeGreaterThan(0);
    // The entry script index.html names: the biggest file, so it must come compressed.
    const entry = scripts.find((script) => /\/assets\/index-[\w-]+\.js$/.test(script.url()));
    expect(['br', 'gzip']).toContain((await entry?.allHeaders())?.['content-encoding']);
    for (const script of scripts) {
      const headers = await script.allHeaders();
      expect(headers['cache-control'], script.url()).toBe('public, max-age=31536000, immutable');
      // Files below a kilobyte are not worth compressing; every other one arrives compressed.
      const length = Number(headers['content-length'] ?? 0);
      if (!headers['content-encoding']) expect(length, script.url()).toBeLessThan(1024);
    }
    // The English catalogue and the signed-in pages are not part of the login route.
    const loaded = scripts.map((script) => script.url()).join('\n');
    expect(loaded).not.toMatch(/en-US|ResourceList|ConsoleLayout|WorkplacePage/);

    await fillSignIn(page, 'admin', 'Admin2026');
    await page.waitForURL('**/dashboard/workplace');
    await page.getByTestId('console-menu').waitFor();
    await page.close();
  });

  it('shows the progress bar on navigation and starts each page at the top, menu links included', async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 600 } });
    await page.goto(`${e2e.server.url}/login`);
    await fillSignIn(page, 'admin', 'Admin2026');
    await page.waitForURL('**/dashboard/workplace');
    await page.goto(`${e2e.server.url}/list/readings?perPage=50`);
    await page.locator('tbody tr').nth(20).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    const bar = page.getByTestId('navigation-progress');
    await page.getByTestId('console-menu').getByRole('menuitem', { name: '设备管理' }).click();
    await bar.waitFor({ state: 'attached', timeout: 2_000 });
    await page.waitForURL('**/list/device-manager');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    // It fills and goes away once the page is there.
    await bar.waitFor({ state: 'detached', timeout: 10_000 });
    await page.close();
  });
});
