import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { DAY_MS, localInputValue, MINUTE_MS } from '../../src/domain/time';
import { fillSignIn, freePort, postTo, serverAndBrowserForThisFile } from './harness';

/**
 * The device detail against the real server in Chromium, a chamber publishing over real MQTT as itself:
 * its live chart grows as readings arrive; closing its permission during a session asks first, naming the
 * chamber; a client opens its own chamber's detail but not another's.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const [WATCHED, OTHER] = ['E2E-DET-1', 'E2E-DET-2'];
const NAME = '朝阳 1 号舱';

const post = <T>(path: string, body: unknown, token?: string) => postTo<T>(e2e.server.url, path, body, token);

const openDetail = async (page: Page, account: string, password: string, Id: string) => {
  await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent(`/devices/${Id}/show`)}`);
  await fillSignIn(page, account, password);
  await page.waitForURL(`**/devices/${Id}/show`);
};

/** How many pressure points the live chart draws. */
const pressurePoints = (page: Page) => page.locator('[data-chart="舱压与设定压力"]').getAttribute('data-points').then(Number);

describe('the device detail in Chromium against the real server', () => {
  it('grows its live chart, asks before closing a chamber in session, and shows a client only its chambers', async () => {
    const { token } = await post<{ token: string }>('/upstream/login', { Account: 'admin', Code: 'Admin2026' });
    const secrets = new Map<string, string>();
    for (const Id of [WATCHED, OTHER]) {
      const { secret } = await post<{ secret: string }>('/api/v1/devices', { Id, name: Id === WATCHED ? NAME : Id, Type: 1, Location: 'E2E detail hall' }, token);
      secrets.set(Id, secret);
    }
    await post('/upstream/assign_Devices', { Account: 'client', DeviceIds: [WATCHED] }, token);
    await post('/upstream/order/change_permission', { Id: WATCHED, Permission: 'Open' }, token);

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: WATCHED, password: secrets.get(WATCHED), clientId: WATCHED, reconnectPeriod: 0 });
    try {
      const start = Date.now();
      const reading = (seconds: number, RCP: number) => ({ Time: start + seconds * 1000, SP: 1.5, ST: 60, RCP, RCPi02: 22.1, RCT: 24, RCRH: 60, RAP: 101.3 });
      await chamber.publishAsync(`oc/${WATCHED}/event`, JSON.stringify({ type: 'sessionStart', Time: start, OC: 'E2E-OC-1' }), { qos: 1 });
      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify(reading(0, 1.1)), { qos: 1 });

      const page = await e2e.browser.newPage();
      await openDetail(page, 'admin', 'Admin2026', WATCHED);
      await page.getByRole('heading', { level: 1, name: WATCHED }).waitFor();
      await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
      // Seeded from the state records: the reading sent before the page opened is drawn.
      await page.waitForFunction(() => Number(document.querySelector('[data-chart="舱压与设定压力"]')?.getAttribute('data-points')) >= 2, null, { timeout: 10_000 });
      const before = await pressurePoints(page);

      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify(reading(1, 1.2)), { qos: 1 });
      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify(reading(2, 1.3)), { qos: 1 });
      await page.waitForFunction((count) => Number(document.querySelector('[data-chart="舱压与设定压力"]')?.getAttribute('data-points')) >= count + 4, before, { timeout: 10_000 });
      expect(await page.locator('[data-reading="RCP"] dd').textContent()).toBe('1.30 / 1.50');
      await page.screenshot({ path: '/tmp/detail-zh.png', fullPage: true });
      const pressureMarks = page.locator('[data-chart="舱压与设定压力"] .MuiLineChart-mark');
      expect(await pressureMarks.count()).toBe(0);

      // A year of a chamber that reported only today is one day's bucket: no line joins it, so it is marked.
      await page.getByRole('button', { name: '自定义' }).click();
      await page.getByLabel('开始时间').fill(localInputValue(Date.now() - 365 * DAY_MS));
      await page.getByLabel('结束时间').fill(localInputValue(Date.now() + 2 * MINUTE_MS));
      await page.getByRole('button', { name: '查看', exact: true }).click();
      await page.getByRole('button', { name: '导出本时段 CSV' }).waitFor();
      expect(await pressurePoints(page)).toBe(2);
      expect(await pressureMarks.count()).toBe(2);
      await page.getByRole('button', { name: '15 分钟（实时）' }).click();

      // In session: closing the permission asks first, naming the chamber, and sends nothing until confirmed.
      let permissionCalls = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/order/change_permission')) permissionCalls += 1;
      });
      await page.getByText('会话中：E2E-OC-1', { exact: false }).waitFor();
      await page.locator('[data-device-header]').getByRole('button', { name: '关闭权限' }).click();
      const question = page.getByRole('dialog', { name: '氧舱正在会话中' });
      await question.getByText(`${WATCHED}（${NAME}）正在会话中，确定关闭其开关权限吗？`).waitFor();
      expect(permissionCalls).toBe(0);
      await question.getByRole('button', { name: '确定执行' }).click();
      await page.locator('[data-device-header]').getByText('开关权限：关闭').waitFor({ timeout: 10_000 });
      expect(permissionCalls).toBe(1);
      await page.close();
    } finally {
      await chamber.endAsync();
    }

    const client = await e2e.browser.newPage();
    await openDetail(client, 'client', 'Client2026', WATCHED);
    await client.getByRole('heading', { level: 1, name: WATCHED }).waitFor();
    expect(await client.locator('[data-device-header]').getByRole('button').count()).toBe(0);
    await client.goto(`${e2e.server.url}/devices/${OTHER}/show`);
    // The server answers no such device to this client: the console says so and leaves for the list.
    await client.getByText('记录不存在').waitFor({ timeout: 10_000 });
    await client.waitForURL((url) => !url.pathname.endsWith('/show'));
    expect(await client.getByRole('heading', { level: 1, name: OTHER }).count()).toBe(0);
    await client.close();
  });
});
