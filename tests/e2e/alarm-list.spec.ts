import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { registerHall } from './chambers';
import { fillSignIn, freePort, serverAndBrowserForThisFile } from './harness';

/**
 * The alarm list and an alarm's page against the real server (docs/alarms.md, "In the console"): a chamber
 * publishes oxygen above 23.5 % over MQTT for longer than the rule's on-delay, the alarm appears in the
 * operator's list without a reload, is shelved with a reason, shows shelved, is unshelved, a client is
 * offered Acknowledge only, the operator acknowledges, and the alarm's page lists every transition.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const CHAMBER = 'E2E-ALARM-1';
/** Where the screenshots of the list and the page go, in both languages (a directory; unset: none). */
const SCREENSHOTS = process.env.ALARM_SCREENSHOTS;

const shoot = async (page: Page, name: string) => {
  if (SCREENSHOTS !== undefined) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
};

const signedIn = async (account: string, password: string) => {
  const page = await e2e.browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(`${e2e.server.url}/login`);
  await fillSignIn(page, account, password);
  await page.waitForURL('**/dashboard/workplace');
  return page;
};

/** The alarm list's row of the test chamber's alarm. */
const rowOf = (page: Page) => page.locator('tbody tr', { has: page.locator(`td.column-deviceId`, { hasText: CHAMBER }) });

describe('the alarm list in Chromium against the real server', () => {
  it('shows a chamber’s alarm as it is raised; shelve, unshelve, acknowledge; a client acknowledges only; the page keeps the history', async () => {
    const secrets = await registerHall(e2e.server.url, { hall: 'E2E 报警厅', ids: [CHAMBER], Type: 1, toClient: [CHAMBER] });
    const operator = await signedIn('admin', 'Admin2026');
    await operator.getByTestId('console-menu').getByRole('menuitem', { name: '报警', exact: true }).click();
    await operator.waitForURL('**/alarms**');
    await operator.getByRole('status').filter({ hasText: '实时' }).waitFor();
    expect(await rowOf(operator).count()).toBe(0);

    // Oxygen at 23.8 % for four seconds of the chamber's clock: past the 3 s on-delay, in the high band.
    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: CHAMBER, password: secrets.get(CHAMBER), clientId: CHAMBER, reconnectPeriod: 0 });
    const start = Date.now();
    for (let second = 0; second <= 4; second += 1) {
      // Each reading acknowledged (stored) before the next is sent: each is evaluated in its own batch.
      await chamber.publishAsync(`oc/${CHAMBER}/telemetry`, JSON.stringify({ Time: start + second * 1000, SP: 1.3, RCP: 1.3, RCPi02: 23.8, RCT: 24 }), { qos: 1 });
    }
    await chamber.endAsync();

    const row = rowOf(operator);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.locator('td.column-kind').innerText()).toBe('舱内氧浓度高');
    expect(await row.locator('td.column-priority').innerText()).toBe('高');
    expect(await row.locator('td.column-value').innerText()).toBe('23.8 %');
    expect(await row.locator('td.column-threshold').innerText()).toBe('23.5 %');
    expect(await row.locator('td.column-state').innerText()).toBe('报警中，未确认');

    await row.getByRole('button', { name: '搁置' }).click();
    const shelve = operator.getByRole('dialog', { name: /^搁置报警 / });
    await shelve.getByLabel('原因').fill('传感器校准中');
    await shelve.getByRole('button', { name: '搁置' }).click();
    await expect.poll(() => row.locator('td.column-state').innerText()).toBe('已搁置');
    await shoot(operator, 'alarm-list-zh');

    await row.getByRole('button', { name: '取消搁置' }).click();
    // The oxygen is still high: back to active and unacknowledged.
    await expect.poll(() => row.locator('td.column-state').innerText()).toBe('报警中，未确认');

    const client = await signedIn('client', 'Client2026');
    await client.goto(`${e2e.server.url}/alarms`);
    const clientRow = rowOf(client);
    await clientRow.getByRole('button', { name: '确认' }).waitFor();
    expect(await clientRow.locator('button[aria-label]').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')))).toEqual(['确认']);
    await client.close();

    await row.getByRole('button', { name: '确认' }).click();
    const ack = operator.getByRole('dialog', { name: /^确认报警 / });
    await ack.getByLabel('备注').fill('已通风，正在观察');
    await ack.getByRole('button', { name: '确认' }).click();
    await expect.poll(() => row.locator('td.column-state').innerText()).toBe('报警中，已确认');

    await row.locator('td.column-kind').click();
    await operator.waitForURL('**/alarms/*/show');
    const history = operator.getByRole('table', { name: '状态变化记录' });
    await expect.poll(() => history.locator('tbody tr').count()).toBe(4);
    const changes = await history.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(changes).toEqual(['产生 → 报警中，未确认', '报警中，未确认 → 已搁置', '已搁置 → 报警中，未确认', '报警中，未确认 → 报警中，已确认']);
    expect(await history.locator('tbody tr td:nth-child(3)').allInnerTexts()).toEqual(['系统', 'admin', 'admin', 'admin']);
    expect(await operator.getByRole('link', { name: CHAMBER }).getAttribute('href')).toBe(`/devices/${CHAMBER}/show`);
    await shoot(operator, 'alarm-show-zh');

    await operator.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
    await operator.reload();
    await operator.getByRole('table', { name: 'State changes' }).waitFor();
    await operator.getByRole('button', { name: 'Shelve', exact: true }).waitFor();
    await shoot(operator, 'alarm-show-en');
    await operator.goto(`${e2e.server.url}/alarms`);
    await expect.poll(() => rowOf(operator).locator('td.column-state').innerText()).toBe('active, acknowledged');
    await shoot(operator, 'alarm-list-en');
    await operator.close();
  });
});
