import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rangeOf } from '../../src/pages/analysis/analysisRange';
import { postTo, serverAndBrowserForThisFile, signIn } from './harness';

/**
 * The multi-dimensional analysis against the real server and its demo fleet in Chromium: the bars of
 * sessions by site, as drawn, carry the numbers the fleet's own lists give (each booking's UseTime in the
 * last 30 days, counted per site of its chamber), and the chart's CSV holds the same numbers.
 */

const e2e = serverAndBrowserForThisFile();

interface Listed<T> {
  list: T[];
}

describe('the analysis in Chromium against the real server', () => {
  it('charts sessions by site with the numbers of the seeded fleet, and exports them', async () => {
    const { token } = await postTo<{ token: string }>(e2e.server.url, '/upstream/login', { Account: 'admin', Code: 'Admin2026' });
    const devices = await postTo<Listed<{ Id: string; Location: string }>>(e2e.server.url, '/upstream/list/get_OCProperty', { current: 1, pageSize: 1000 }, token);
    const orders = await postTo<Listed<{ Id: string; UseTime: number | null }>>(e2e.server.url, '/upstream/list/get_Records', { current: 1, pageSize: 1000 }, token);
    const { from, to } = rangeOf(30);
    const expected = new Map<string, number>(devices.list.map((device) => [device.Location, 0]));
    for (const order of orders.list) {
      if (order.UseTime === null || order.UseTime < from || order.UseTime >= to) continue;
      const site = devices.list.find((device) => device.Id === order.Id)?.Location ?? '';
      expected.set(site, (expected.get(site) ?? 0) + 1);
    }
    expect([...expected.values()].some((sessions) => sessions > 0)).toBe(true);

    const page = await e2e.browser.newPage({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    await signIn(page, e2e.server.url, 'admin', 'Admin2026');
    await page.getByRole('menuitem', { name: '多维数据分析' }).click();
    const chart = page.getByTestId('chart-sessions-by-site');
    await chart.getByText('舱次（按站点）').waitFor();
    // The bars' labels, left to right, are the sites in label order (an empty bar's label, if drawn, says 0).
    const sites = [...expected.keys()].sort((a, b) => a.localeCompare(b));
    await chart.locator('.MuiBarChart-label').first().waitFor();
    const labels = await chart.locator('.MuiBarChart-label').allTextContents();
    expect(labels.map(Number).filter((sessions) => sessions > 0)).toEqual(sites.map((site) => expected.get(site) ?? 0).filter((sessions) => sessions > 0));
    await page.screenshot({ path: '/tmp/analysis-pivot-zh-CN.png', fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), chart.getByRole('button', { name: 'CSV' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    const rows = csv.trim().split(/\r?\n/).slice(1).map((line) => line.split(','));
    expect(rows.map(([site, , sessions]) => [site, Number(sessions)])).toEqual(sites.map((site) => [site, expected.get(site) ?? 0]));

    await page.getByRole('menuitem', { name: '分析页' }).click();
    await page.getByTestId('chart-sessions-per-day').getByText('每日舱次').waitFor();
    await page.getByTestId('chart-bookings').waitFor();
    await page.screenshot({ path: '/tmp/analysis-data-zh-CN.png', fullPage: true });
    await page.close();
  });
});
