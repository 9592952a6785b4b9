import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { registerHall, scopeOf } from './chambers';
import { fillSignIn, freePort, serverAndBrowserForThisFile } from './harness';

/**
 * The real-time monitor (`/dashboard/monitor`) against the real server in Chromium: a chamber publishes over
 * MQTT as itself and its tile changes from the live stream, no reload and no refetch; a client's tiles are
 * its chambers and no other; only the rows in view are in the page.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const HALL = 'E2E tile hall';
const [WATCHED, SECOND, HIDDEN] = ['E2E-TILE-1', 'E2E-TILE-2', 'E2E-TILE-3'];
let secrets = new Map<string, string>();

/** Three chambers in a hall of their own, the first two assigned to the demo client. */
const seedHall = async () => {
  if (secrets.size === 0) secrets = await registerHall(e2e.server.url, { hall: HALL, ids: [WATCHED, SECOND, HIDDEN], Type: 2, toClient: [WATCHED, SECOND] });
};

const openDashboard = async (page: Page, account: string, password: string) => {
  await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent('/dashboard/monitor')}`);
  await fillSignIn(page, account, password);
  await page.waitForURL('**/dashboard/monitor');
  await page.getByTestId('tile-grid').waitFor();
};

const chooseSite = async (page: Page, site: string) => {
  await page.locator('[data-filter="site"]').click();
  await page.getByRole('menuitem', { name: site, exact: true }).click();
};

const tile = (page: Page, deviceId: string) => page.locator(`[data-device="${deviceId}"]`);
const field = (page: Page, deviceId: string, name: string) => tile(page, deviceId).locator(`[data-field="${name}"]`);
const tileIds = (page: Page) => page.locator('[data-device]').evaluateAll((tiles) => tiles.map((element) => element.getAttribute('data-device')));

describe('the real-time monitor in Chromium against the real server', () => {
  it('changes a tile live when its chamber publishes, marks a high O2, draws the pressure and opens the chamber', async () => {
    await seedHall();
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openDashboard(page, 'admin', 'Admin2026');
    await chooseSite(page, HALL);
    await expect.poll(() => tileIds(page)).toEqual([WATCHED, SECOND, HIDDEN]);
    await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
    expect(await tile(page, WATCHED).getByText('无读数').count()).toBe(1);
    await page.evaluate(() => Object.assign(window, { e2eMarker: 'no reload' }));
    let listCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/list/get_OCProperty')) listCalls += 1;
    });

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: WATCHED, password: secrets.get(WATCHED), clientId: WATCHED, reconnectPeriod: 0 });
    try {
      const reading = { Time: Date.now(), SP: 1.3, RCP: 1.28, RCPi02: 22.1, RCT: 24.6, RCRH: 58, RAP: 101.3 };
      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify(reading), { qos: 1 });
      await page.waitForFunction(
        ([id]) => document.querySelector(`[data-device="${id}"] [data-field="RCPi02"]`)?.textContent === '22.1 %',
        [WATCHED],
        { timeout: 10_000 },
      );
      expect(await field(page, WATCHED, 'RCP').textContent()).toBe('1.28 / 1.30 ATA');
      expect(await field(page, WATCHED, 'RAP').textContent()).toBe('101.3 kPa');
      expect(await tile(page, WATCHED).locator('[data-mark]').count()).toBe(0);
      expect(await tile(page, WATCHED).locator('[data-look]').getAttribute('data-look')).toBe('Stop');

      // Readings a step apart draw the sparkline; a high cabin O2 is marked on the tile.
      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify({ ...reading, Time: reading.Time + 6_000, RCP: 1.31 }), { qos: 1 });
      // Shown before the next is sent: the live stream merges one chamber's readings that arrive together.
      await page.waitForFunction(
        ([id]) => document.querySelector(`[data-device="${id}"] [data-field="RCP"]`)?.textContent === '1.31 / 1.30 ATA',
        [WATCHED],
        { timeout: 10_000 },
      );
      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify({ ...reading, Time: reading.Time + 12_000, RCP: 1.32, RCPi02: 23.8 }), { qos: 1 });
      await field(page, WATCHED, 'RCPi02').locator('[data-mark="high"]').waitFor({ timeout: 10_000 });
      expect(await field(page, WATCHED, 'RCPi02').textContent()).toBe('23.8 %');
      expect(Number(await tile(page, WATCHED).locator('svg[data-points]').getAttribute('data-points'))).toBe(3);
      // The other tiles of the hall never heard of it.
      expect(await tile(page, SECOND).getByText('无读数').count()).toBe(1);
      await page.screenshot({ path: '/tmp/tiles-monitor-zh.png' });
    } finally {
      await chamber.endAsync();
    }
    expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('no reload');
    expect(listCalls).toBe(0);

    await tile(page, WATCHED).click();
    await page.waitForURL(`**/devices/${WATCHED}/show`);
    await page.close();
  });

  it("shows a client its chambers and no other's", async () => {
    await seedHall();
    const scope = await scopeOf(e2e.server.url, 'client', 'Client2026');
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1400 } });
    await openDashboard(page, 'client', 'Client2026');
    await tile(page, WATCHED).waitFor();
    expect((await tileIds(page)).sort()).toEqual(scope);
    expect(await tile(page, HIDDEN).count()).toBe(0);
    await chooseSite(page, HALL);
    await expect.poll(() => tileIds(page)).toEqual([WATCHED, SECOND]);

    await page.getByRole('button', { name: '切换语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByText('Showing 2 of').waitFor();
    await page.screenshot({ path: '/tmp/tiles-monitor-en.png' });
    await page.close();
  });

  it('keeps only the rows in view in the page, and brings the others in as it scrolls', async () => {
    await seedHall();
    const page = await e2e.browser.newPage({ viewport: { width: 900, height: 600 } });
    await openDashboard(page, 'admin', 'Admin2026');
    expect(await page.getByTestId('tile-count').textContent()).toBe('显示 15 / 15 台');
    // Scrolling down a screen at a time meets every chamber, though the page never holds them all at once.
    const seen = new Set<string | null>();
    for (let step = 0; step < 20 && seen.size < 15; step += 1) {
      const ids = await tileIds(page);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.length).toBeLessThan(15);
      ids.forEach((id) => seen.add(id));
      await page.getByTestId('tile-grid').evaluate((grid) => grid.scrollBy(0, grid.clientHeight));
      await page.waitForTimeout(100);
    }
    expect(seen.size).toBe(15);
    await page.close();
  });
});
