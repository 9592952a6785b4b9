import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { freePort, postTo, serverAndBrowserForThisFile } from './harness';

/**
 * The oxygen monitor against the real server in Chromium: a chamber publishes over MQTT as itself and its
 * row's readings change from the live stream, no reload and no refetch; a high cabin O2 gets its mark;
 * a client sees its own chambers only.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const HALL = 'E2E monitor hall';
const [WATCHED, OTHER] = ['E2E-MON-1', 'E2E-MON-2'];

const post = <T>(path: string, body: unknown, token?: string): Promise<T> => postTo<T>(e2e.server.url, path, body, token);

const openMonitor = async (page: Page, account: string, password: string) => {
  const filter = encodeURIComponent(JSON.stringify({ Location: HALL }));
  await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent(`/list/oxygen-monitor?filter=${filter}`)}`);
  await page.getByLabel('用户名', { exact: true }).fill(account);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL('**/list/oxygen-monitor**');
};

const cell = (page: Page, deviceId: string, field: string) => page.locator(`tr[data-device="${deviceId}"] td[data-column="${field}"]`);

describe('the oxygen monitor in Chromium against the real server', () => {
  it('follows a chamber live, marks a high O2 and shows a client only its own chambers', async () => {
    const { token } = await post<{ token: string }>('/upstream/login', { Account: 'admin', Code: 'Admin2026' });
    const secrets = new Map<string, string>();
    for (const Id of [WATCHED, OTHER]) {
      const { secret } = await post<{ secret: string }>('/api/v1/devices', { Id, name: Id, Type: 1, Location: HALL }, token);
      secrets.set(Id, secret);
    }
    await post('/upstream/assign_Devices', { Account: 'client', DeviceIds: [WATCHED] }, token);

    const page = await e2e.browser.newPage();
    await openMonitor(page, 'admin', 'Admin2026');
    await cell(page, OTHER, 'Id').waitFor();
    await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
    expect(await cell(page, WATCHED, 'RCPi02').textContent()).toBe('');
    await page.evaluate(() => Object.assign(window, { e2eMarker: 'no reload' }));
    let listCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/list/get_OCProperty')) listCalls += 1;
    });

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: WATCHED, password: secrets.get(WATCHED), clientId: WATCHED, reconnectPeriod: 0 });
    try {
      const reading = { Time: Date.now(), SP: 1.3, RCP: 1.28, RCPi02: 22.1, RCT: 24, RAP: 101.3 };
      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify(reading), { qos: 1 });
      await page.waitForFunction(
        ([id]) => document.querySelector(`tr[data-device="${id}"] td[data-column="RCPi02"]`)?.textContent === '22.1',
        [WATCHED],
        { timeout: 10_000 },
      );
      expect(await cell(page, WATCHED, 'RAP').textContent()).toBe('101.3');
      expect(await cell(page, WATCHED, 'RCPi02').locator('[data-mark]').count()).toBe(0);

      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify({ ...reading, Time: reading.Time + 1000, RCPi02: 23.8 }), { qos: 1 });
      await cell(page, WATCHED, 'RCPi02').locator('[data-mark="high"]').waitFor({ timeout: 10_000 });
      expect(await cell(page, WATCHED, 'RCPi02').textContent()).toBe('23.8');
      expect(await cell(page, WATCHED, 'Online').textContent()).toMatch(/^在线/);
    } finally {
      await chamber.endAsync();
    }
    expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('no reload');
    expect(listCalls).toBe(0);
    await page.close();

    const client = await e2e.browser.newPage();
    await openMonitor(client, 'client', 'Client2026');
    await cell(client, WATCHED, 'Id').waitFor();
    expect(await client.locator('tbody tr[data-device]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-device')))).toEqual([WATCHED]);
    expect(await cell(client, WATCHED, 'RCPi02').textContent()).toBe('23.8');
    await client.close();
  });
});
