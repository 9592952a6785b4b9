import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { fillSignIn, freePort, serverAndBrowserForThisFile } from './harness';

/**
 * The device status page (`/list/device-atts`) against the real server in Chromium: the attribute table with
 * the labels of the product's spec, the card view it switches to (where `/list/card` leads), a card changing
 * when its chamber publishes over MQTT, a client's chambers only; the readings history under its own entry.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const HALL = 'E2E status hall';
const [WATCHED, SECOND, HIDDEN] = ['E2E-ATT-1', 'E2E-ATT-2', 'E2E-ATT-3'];
const secrets = new Map<string, string>();

const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
  const response = await fetch(`${e2e.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  const answer = (await response.json()) as { data?: T } & T;
  return path.startsWith('/upstream') ? (answer.data as T) : answer;
};

const signInAs = async (account: string, password: string) => (await post<{ token: string }>('/upstream/login', { Account: account, Code: password })).token;

/** Three chambers in a hall of their own, the first two assigned to the demo client. */
const seedHall = async () => {
  if (secrets.size > 0) return;
  const token = await signInAs('admin', 'Admin2026');
  for (const Id of [WATCHED, SECOND, HIDDEN]) {
    const { secret } = await post<{ secret: string }>('/api/v1/devices', { Id, name: `${Id} 舱`, Type: 3, Location: HALL }, token);
    secrets.set(Id, secret);
  }
  await post('/upstream/assign_Devices', { Account: 'client', DeviceIds: [WATCHED, SECOND] }, token);
};

const open = async (page: Page, path: string, account: string, password: string) => {
  await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent(path)}`);
  await fillSignIn(page, account, password);
};

const hallFilter = `filter=${encodeURIComponent(JSON.stringify({ Location: HALL }))}`;
const shownIds = (page: Page, selector: string) => page.locator(selector).evaluateAll((elements) => elements.map((element) => element.getAttribute('data-device')));

describe('the device status page in Chromium against the real server', () => {
  it('lists the device attributes under the spec labels, switches to cards and follows a chamber live there', async () => {
    await seedHall();
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await open(page, `/list/device-atts?${hallFilter}`, 'admin', 'Admin2026');
    await page.waitForURL('**/list/device-atts**');
    await page.locator('tbody tr').nth(2).waitFor();
    const headers = await page.locator('thead th').allInnerTexts();
    expect(headers.map((text) => text.trim()).filter(Boolean)).toEqual(['设备编号', '名称', '位置', '类型', '状态', '开关权限', '更新时间', '当前运行订单', '操作']);
    expect(await page.locator('tbody tr td.column-Id').allInnerTexts()).toEqual([WATCHED, SECOND, HIDDEN]);
    await page.screenshot({ path: '/tmp/tiles-device-atts-table-zh.png' });

    await page.getByRole('button', { name: '卡片视图' }).click();
    await page.getByTestId('device-cards').waitFor();
    expect(await shownIds(page, '[data-testid="device-cards"] [data-device]')).toEqual([WATCHED, SECOND, HIDDEN]);
    await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
    await page.evaluate(() => Object.assign(window, { e2eMarker: 'no reload' }));

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: WATCHED, password: secrets.get(WATCHED), clientId: WATCHED, reconnectPeriod: 0 });
    try {
      await chamber.publishAsync(`oc/${WATCHED}/telemetry`, JSON.stringify({ Time: Date.now(), SP: 1.3, RCP: 1.27, RCPi02: 21.4, RCT: 23.9 }), { qos: 1 });
      const card = page.locator(`[data-device="${WATCHED}"]`);
      await card.locator('[data-field="RCPi02"]').getByText('21.4 %').waitFor({ timeout: 10_000 });
      expect(await card.locator('[data-field="RCP"]').innerText()).toContain('1.27 / 1.30 ATA');
      expect(await card.locator('[data-look]').getAttribute('data-look')).toBe('Stop');
    } finally {
      await chamber.endAsync();
    }
    expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('no reload');
    // The chambers' commands are on each card, as in the table's rows.
    expect(await page.locator(`[data-device="${WATCHED}"]`).getByRole('button', { name: '设置状态' }).count()).toBe(1);
    await page.screenshot({ path: '/tmp/tiles-device-atts-cards-zh.png' });
    await page.close();
  });

  it("leads /list/card to the card view and shows a client its chambers and no other's", async () => {
    await seedHall();
    const token = await signInAs('client', 'Client2026');
    const scope = await post<{ list: { Id: string }[] }>('/upstream/list/get_OCProperty', { current: 1, pageSize: 1000 }, token);
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await open(page, '/list/card', 'client', 'Client2026');
    await page.waitForURL('**/list/device-atts**');
    await page.getByTestId('device-cards').waitFor();
    await page.locator(`[data-device="${WATCHED}"]`).waitFor();
    expect((await shownIds(page, '[data-testid="device-cards"] [data-device]')).sort()).toEqual(scope.list.map(({ Id }) => Id).sort());
    expect(await page.locator(`[data-device="${HIDDEN}"]`).count()).toBe(0);
    // A client gives no commands.
    expect(await page.getByRole('button', { name: '设置状态' }).count()).toBe(0);

    await page.getByRole('button', { name: '切换语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.locator(`tbody tr td.column-Id`).first().waitFor();
    expect((await page.locator('tbody tr td.column-Id').allInnerTexts()).sort()).toEqual(scope.list.map(({ Id }) => Id).sort());
    await page.screenshot({ path: '/tmp/tiles-device-atts-table-en.png' });
    await page.getByRole('button', { name: 'Card view' }).click();
    await page.getByTestId('device-cards').waitFor();
    await page.screenshot({ path: '/tmp/tiles-device-atts-cards-en.png' });
    await page.close();
  });

  it('keeps the readings history under a menu entry of its own', async () => {
    const page = await e2e.browser.newPage();
    await open(page, '/dashboard/workplace', 'admin', 'Admin2026');
    await page.waitForURL('**/dashboard/workplace');
    await page.getByTestId('console-menu').getByRole('menuitem', { name: '读数历史' }).click();
    await page.waitForURL('**/list/readings');
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('thead th').allInnerTexts()).toContain('舱内压力 (ATA)');
    await page.close();
  });
});
