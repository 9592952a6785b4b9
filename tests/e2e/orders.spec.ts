import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { localInputValue } from '../../src/domain/time';
import { freePort, serverAndBrowserForThisFile } from './harness';

/**
 * Bookings against the real server in Chromium, a chamber publishing over real MQTT: an operator books a
 * chamber in the order manager, the chamber starts a session with the booking's code, reports and ends
 * it; the order shows finished and its report holds the session's readings and the alarm they raised. A client sees only its own
 * chambers' orders and cannot open another chamber's report.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const [BOOKED, OTHER] = ['E2E-ORD-1', 'E2E-ORD-2'];
const OC = '246810';
const MINUTE = 60_000;

const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<T> => {
  const response = await fetch(`${e2e.server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  const answer = (await response.json()) as { data?: T } & T;
  return path.startsWith('/upstream') ? (answer.data as T) : answer;
};

const signInTo = async (page: Page, path: string, account: string, password: string) => {
  await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent(path)}`);
  await page.getByLabel('用户名', { exact: true }).fill(account);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(`**${path}`);
};

interface ListedOrder {
  id: number;
  OrderNum: string;
  Id: string;
  IsUsed: boolean;
  FinishTime: number | null;
}

describe('bookings and session reports in Chromium against the real server', () => {
  it('books a chamber, follows its session over MQTT to the report, and shows a client only its own chambers', async () => {
    const { token } = await call<{ token: string }>('POST', '/upstream/login', { Account: 'admin', Code: 'Admin2026' });
    const secrets = new Map<string, string>();
    for (const Id of [BOOKED, OTHER]) {
      const { secret } = await call<{ secret: string }>('POST', '/api/v1/devices', { Id, name: Id, Type: 1, Location: 'E2E orders hall' }, token);
      secrets.set(Id, secret);
    }
    await call('POST', '/upstream/assign_Devices', { Account: 'client', DeviceIds: [BOOKED] }, token);

    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signInTo(page, '/other/order-manager', 'admin', 'Admin2026');
    await page.getByRole('button', { name: '预约舱位' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('设备').fill(BOOKED);
    await page.getByRole('option', { name: new RegExp(BOOKED) }).click();
    await dialog.getByLabel('预约时间').fill(localInputValue(Date.now() + 5 * MINUTE));
    await dialog.getByLabel('用户 OpenID').fill('oGuest-e2e-1');
    await dialog.getByLabel('操作码').fill(OC);
    await page.screenshot({ path: '/tmp/orders-book.png' });
    await dialog.getByRole('button', { name: '预约舱位' }).click();
    const booked = await page.getByText(/^已预约 \S+，操作码 246810$/).textContent();
    const orderNum = /^已预约 (\S+)，/.exec(booked ?? '')?.[1] ?? '';
    expect(orderNum).not.toBe('');

    // A second booking of the same chamber within the first one's window is refused, naming it, under the time.
    // The first dialog is gone before the next opens (while it closes, the page's button is behind it).
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '预约舱位' }).click();
    await dialog.getByLabel('设备').fill(BOOKED);
    await page.getByRole('option', { name: new RegExp(BOOKED) }).click();
    await dialog.getByLabel('预约时间').fill(localInputValue(Date.now() + 15 * MINUTE));
    await dialog.getByLabel('用户 OpenID').fill('oGuest-e2e-2');
    await dialog.getByRole('button', { name: '预约舱位' }).click();
    await dialog.getByText(`预约时间与设备 ${BOOKED} 的订单 ${orderNum} 冲突（SetT）`).waitFor();
    await page.screenshot({ path: '/tmp/orders-overlap.png' });
    await dialog.getByRole('button', { name: '取消' }).click();

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: BOOKED, password: secrets.get(BOOKED), clientId: BOOKED, reconnectPeriod: 0 });
    const start = Date.now();
    try {
      await chamber.publishAsync(`oc/${BOOKED}/event`, JSON.stringify({ type: 'sessionStart', Time: start, OC }), { qos: 1 });
      // Cabin oxygen at 23.8 % from the first reading to the fourth, longer than the rule's 3 s on-delay: a high alarm.
      for (const [second, RCP] of [[1, 1.12], [2, 1.25], [3, 1.38], [4, 1.45]] as const) {
        const reading = { Time: start + second * 1000, SP: 1.5, ST: 60, RCP, RCPi02: 23.8, RCT: 24, RCRH: 58, HmHR: 72, HmSP02: 98, HmBP: '118/76' };
        await chamber.publishAsync(`oc/${BOOKED}/telemetry`, JSON.stringify(reading), { qos: 1 });
      }
      await chamber.publishAsync(`oc/${BOOKED}/event`, JSON.stringify({ type: 'sessionEnd', Time: start + 5000 }), { qos: 1 });
    } finally {
      await chamber.endAsync();
    }

    // The broker acknowledges after the commit: the order is finished by now.
    const { list } = await call<{ list: ListedOrder[] }>('POST', '/upstream/list/get_Records', { current: 1, pageSize: 10, filter: { OrderNum: orderNum } }, token);
    expect(list[0]).toMatchObject({ OrderNum: orderNum, Id: BOOKED, IsUsed: true, FinishTime: start + 5000 });
    const orderId = list[0]?.id;

    await page.goto(`${e2e.server.url}/other/order-list`);
    await page.getByRole('cell', { name: orderNum }).click();
    await page.waitForURL(`**/orders/${String(orderId)}/show`);
    const report = page.getByTestId('session-report');
    await report.waitFor();
    expect(await report.getByTestId('order-state').textContent()).toBe('已完成');
    await report.getByText('疗程 · 共 4 条读数').waitFor();
    await report.getByText('舱压与设定压力').waitFor();
    await report.getByText('疗程中的报警（1 条）').waitFor();
    const alarmRow = report.getByTestId('report-alarms').locator('tbody tr');
    expect(await alarmRow.locator('td').allTextContents()).toEqual(expect.arrayContaining(['舱内氧浓度高', '高', '23.8 / 23.5', '—']));
    await page.screenshot({ path: '/tmp/orders-report-zh.png', fullPage: true });
    await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
    await page.reload();
    await page.getByText('Cabin pressure and set point').waitFor();
    expect(await page.getByTestId('order-state').textContent()).toBe('finished');
    await page.getByText('Alarms raised during the session (1)').waitFor();
    await page.getByRole('cell', { name: 'cabin oxygen high' }).waitFor();
    await page.screenshot({ path: '/tmp/orders-report-en.png', fullPage: true });
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: '/tmp/orders-report-print.png', fullPage: true });
    expect(await page.locator('.MuiAppBar-root').isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Order list' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.getByText('Cabin pressure and set point').isVisible()).toBe(true);
    expect(await page.getByRole('cell', { name: 'cabin oxygen high' }).isVisible()).toBe(true);
    await page.close();

    // Another chamber's booking, newest of all: a client managing only BOOKED sees neither it nor its report.
    const other = await call<ListedOrder>('POST', '/api/v1/orders', { Id: OTHER, SetT: Date.now() + 60 * MINUTE, OpenId: 'oGuest-e2e-3' }, token);
    const client = await e2e.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signInTo(client, '/other/order-list', 'client', 'Client2026');
    await client.getByRole('cell', { name: orderNum }).waitFor();
    expect(await client.getByRole('cell', { name: other.OrderNum }).count()).toBe(0);
    await client.screenshot({ path: '/tmp/orders-client-list.png' });
    await client.goto(`${e2e.server.url}/orders/${String(other.id)}/show`);
    await client.getByRole('alert').filter({ hasText: '请求的资源不存在' }).waitFor();
    expect(await client.getByTestId('session-report').count()).toBe(0);
    await client.close();
  });
});
