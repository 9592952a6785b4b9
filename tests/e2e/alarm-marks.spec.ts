import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { registerHall } from './chambers';
import { fillSignIn, freePort, serverAndBrowserForThisFile } from './harness';

/**
 * Alarms marked where operators look at chambers, against the real server in Chromium: a chamber publishes
 * a high cabin O2 over real MQTT for longer than its rule's on-delay; the alarm the engine raises shows on
 * the chamber's oxygen monitor row, its real-time monitor tile and its detail page (header and alarms tab),
 * each already open, without a reload. Screenshots in Chinese and English land in /tmp/alarm-marks-*.png.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const HALL = 'E2E alarm hall';
const [ALARMED, CALM] = ['E2E-ALM-1', 'E2E-ALM-2'];

/** Signs in as the super administrator on the way to `path`, in a browser context of its own. */
const open = async (path: string): Promise<Page> => {
  const page = await e2e.browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent(path)}`);
  await fillSignIn(page, 'admin', 'Admin2026');
  await page.waitForURL(`**${path.split('?')[0] ?? path}**`);
  await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
  await page.evaluate(() => Object.assign(window, { e2eMarker: 'no reload' }));
  return page;
};

/** The oxygen monitor's table scrolled to its last column, the alarms, for the screenshot. */
const toAlarmsColumn = (page: Page) => page.locator(`tr[data-device="${ALARMED}"] td[data-column="alarms"]`).scrollIntoViewIfNeeded();

const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker);

const toEnglish = async (page: Page, shown: string) => {
  // The app bar hides while the page is scrolled down (the detail page after its alarms tab).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: '切换语言' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.getByText(shown).first().waitFor();
};

describe('alarms marked on the monitoring screens in Chromium against the real server', () => {
  it("shows a chamber's high O2 alarm on its row, its tile and its detail page as the engine raises it", async () => {
    const secrets = await registerHall(e2e.server.url, { hall: HALL, ids: [ALARMED, CALM], Type: 1, toClient: [] });
    const monitor = await open(`/list/oxygen-monitor?filter=${encodeURIComponent(JSON.stringify({ Location: HALL }))}`);
    await monitor.locator(`tr[data-device="${CALM}"]`).waitFor();
    const tiles = await open('/dashboard/monitor');
    // Only the chambers in alarm: none yet.
    await tiles.locator('[data-filter="inAlarm"]').click();
    await tiles.getByRole('menuitem', { name: '报警中' }).click();
    await tiles.getByText('没有符合条件的氧舱').waitFor();
    const detail = await open(`/devices/${ALARMED}/show`);
    await detail.getByText('该设备暂无报警').waitFor();
    expect(await detail.locator('[data-device-header] [data-alarm-count]').getAttribute('data-alarm-count')).toBe('0');

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: ALARMED, password: secrets.get(ALARMED), clientId: ALARMED, reconnectPeriod: 0 });
    try {
      // 23.8 % for four seconds of reading time: past the rule's 3 s on-delay. Each reading is acknowledged
      // (so stored and evaluated) before the next is sent.
      const start = Date.now() - 4_000;
      for (let second = 0; second <= 4; second += 1) {
        const reading = { Time: start + second * 1_000, SP: 1.3, RCP: 1.3, RCPi02: 23.8, RCT: 24, RCRH: 60, RAP: 101.3 };
        await chamber.publishAsync(`oc/${ALARMED}/telemetry`, JSON.stringify(reading), { qos: 1 });
      }

      const row = monitor.locator(`tr[data-device="${ALARMED}"]`);
      await row.locator('td[data-column="alarms"] [data-alarm-chip="high"]').waitFor({ timeout: 15_000 });
      expect(await row.getAttribute('data-alarm')).toBe('high');
      expect(await row.locator('td[data-column="alarms"]').textContent()).toBe('舱内氧浓度高 · 高优先级');
      expect(await monitor.locator(`tr[data-device="${CALM}"]`).getAttribute('data-alarm')).toBeNull();

      const tile = tiles.locator(`[data-device="${ALARMED}"]`);
      await tile.locator('[data-alarm-line="high"]').waitFor({ timeout: 15_000 });
      expect(await tile.getAttribute('data-alarm')).toBe('high');
      expect(await tile.getAttribute('data-unacked')).toBe('');
      expect(await tile.locator('[data-alarm-line]').textContent()).toMatch(/^舱内氧浓度高 23\.8 %（高，\d\d:\d\d）$/);
      // Under "in alarm" the calm chamber of the hall is not shown.
      expect(await tiles.locator(`[data-device="${CALM}"]`).count()).toBe(0);

      await detail.locator('[data-device-header] [data-alarm-count="1"]').waitFor({ timeout: 15_000 });
      expect(await detail.locator('[data-device-header] [data-alarm-chip]').textContent()).toBe('舱内氧浓度高 · 高优先级');
      const alarmRow = detail.locator('tr[data-alarm-row]');
      await alarmRow.waitFor({ timeout: 15_000 });
      expect(await alarmRow.textContent()).toContain('报警中，未确认');
      expect(await alarmRow.textContent()).toContain('23.8 % / 23.5 %');
    } finally {
      await chamber.endAsync();
    }
    for (const page of [monitor, tiles, detail]) expect(await notReloaded(page)).toBe('no reload');

    await toAlarmsColumn(monitor);
    await monitor.screenshot({ path: '/tmp/alarm-marks-monitor-zh.png', animations: 'disabled' });
    await tiles.screenshot({ path: '/tmp/alarm-marks-tiles-zh.png' });
    // The history of the alarm, then the screenshot of the page with it open.
    await detail.locator('tr[data-alarm-row]').click();
    await detail.getByText('产生 → 报警中，未确认').waitFor();
    await detail.screenshot({ path: '/tmp/alarm-marks-detail-zh.png', fullPage: true });

    await toEnglish(monitor, 'cabin oxygen high · High priority');
    await toAlarmsColumn(monitor);
    await monitor.screenshot({ path: '/tmp/alarm-marks-monitor-en.png' });
    await toEnglish(tiles, 'cabin oxygen high 23.8 %');
    await tiles.screenshot({ path: '/tmp/alarm-marks-tiles-en.png' });
    await toEnglish(detail, '1 alarm');

    // Acknowledged on the detail page: the tile stops pulsing, the row stays marked.
    // The alarms tab's own button: the banner above the page offers one too.
    await detail.getByRole('table', { name: 'Alarms' }).getByRole('button', { name: 'Acknowledge' }).click();
    await detail.locator('[data-device-header] [data-alarm-chip][title="23.8 % · acknowledged"]').waitFor();
    await detail.locator('tr[data-alarm-row]').getByText('active, acknowledged').waitFor();
    // Transitions finished, so the chip that turned from filled to outlined is not caught half way.
    await detail.screenshot({ path: '/tmp/alarm-marks-detail-en.png', fullPage: true, animations: 'disabled' });
    await expect.poll(() => tiles.locator(`[data-device="${ALARMED}"]`).getAttribute('data-unacked'), { timeout: 15_000 }).toBeNull();
    expect(await monitor.locator(`tr[data-device="${ALARMED}"]`).getAttribute('data-alarm')).toBe('high');

    // "In alarm only" narrows the oxygen monitor to the chambers in alarm: the calm one leaves.
    await monitor.getByLabel('In alarm only').check();
    await expect.poll(() => monitor.locator('tbody tr[data-device]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-device')))).toEqual([ALARMED]);
    for (const page of [monitor, tiles, detail]) await page.close();
  });
});
