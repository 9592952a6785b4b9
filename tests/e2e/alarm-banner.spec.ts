import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import type { AlarmRecord } from '../../src/domain/alarms/record';
import { registerHall, tokenOf } from './chambers';
import { freePort, serverAndBrowserForThisFile, signIn } from './harness';

/**
 * The alarm banner in Chromium against the real server, a chamber publishing over real MQTT as itself:
 * cabin oxygen at 23.6 % held past the rule's 3 s on-delay raises a high alarm, which a client (the least
 * of the roles) sees as the red banner with its sound's state on every page; a click lets the sound play;
 * acknowledging takes the banner away while the app bar still counts the alarm standing.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const CHAMBER = 'E2E-ALM-1';
const BANNER = '[data-alarm-banner]';

const soundOf = (page: Page) => page.locator(BANNER).getAttribute('data-sound');

/** The chamber's one alarm as the client reads it from the REST API. */
const alarmOf = async (token: string): Promise<AlarmRecord> => {
  const query = new URLSearchParams({ filter: JSON.stringify({ deviceId: CHAMBER }) });
  const response = await fetch(`${e2e.server.url}/api/v1/alarms?${query.toString()}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok).toBe(true);
  const alarms = (await response.json()) as AlarmRecord[];
  expect(alarms).toHaveLength(1);
  return alarms[0] as AlarmRecord;
};

describe('the alarm banner in Chromium against the real server', () => {
  it('shows a high oxygen alarm in red with its sound, and goes once the client acknowledges it', async () => {
    const secrets = await registerHall(e2e.server.url, { hall: 'E2E alarm hall', ids: [CHAMBER], Type: 1, toClient: [CHAMBER] });
    const page = await e2e.browser.newPage({ viewport: { width: 1366, height: 768 } });
    await signIn(page, e2e.server.url, 'client', 'Client2026');
    await page.locator('[data-alarm-counts][data-high="0"]').waitFor();
    expect(await page.locator(BANNER).count()).toBe(0);

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: CHAMBER, password: secrets.get(CHAMBER), clientId: CHAMBER, reconnectPeriod: 0 });
    try {
      // QoS 1 is acknowledged once stored, so each reading is its own batch, evaluated in order.
      const start = Date.now() - 5000;
      for (let second = 0; second <= 4; second += 1) {
        await chamber.publishAsync(`oc/${CHAMBER}/telemetry`, JSON.stringify({ Time: start + second * 1000, RCPi02: 23.6 }), { qos: 1 });
      }
    } finally {
      await chamber.endAsync();
    }

    const banner = page.locator(`${BANNER}[data-priority="high"]`);
    await banner.waitFor({ timeout: 20_000 });
    const token = await tokenOf(e2e.server.url, 'client', 'Client2026');
    const raised = await alarmOf(token);
    expect(raised).toMatchObject({ kind: 'o2-high', priority: 'high', state: 'active-unacked', value: 23.6, threshold: 23.5 });
    expect(await banner.getAttribute('data-alarm-id')).toBe(String(raised.id));
    expect(await page.locator('[data-alarm-counts]').getAttribute('data-newest-alarm')).toBe(String(raised.id));
    await banner.getByText('高优先级报警（1）').waitFor();
    await banner.getByText('舱内氧浓度高').waitFor();
    await banner.getByText('23.6 % ≥ 23.5 %').waitFor();
    expect(['blocked', 'playing']).toContain(await soundOf(page));
    await page.screenshot({ path: '/tmp/alarm-banner-zh.png' });

    // Any click on the page lets the browser play the sound.
    await banner.getByRole('alert').click();
    await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('data-sound') === 'playing', BANNER);

    // On every page: the device list too, and in English.
    await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
    await page.goto(`${e2e.server.url}/list/oxygen-monitor`);
    await banner.getByText('High-priority alarms (1)').waitFor({ timeout: 20_000 });
    await banner.getByText('cabin oxygen high').waitFor();
    // A new page has had no click yet.
    expect(['blocked', 'playing']).toContain(await soundOf(page));
    await page.screenshot({ path: '/tmp/alarm-banner-en.png' });

    await banner.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator(BANNER).waitFor({ state: 'detached', timeout: 10_000 });
    const acked = await alarmOf(token);
    expect(acked).toMatchObject({ id: raised.id, state: 'active-acked', ackedBy: 'client' });
    // Acknowledged, still standing: counted until the oxygen is back to normal.
    expect(await page.locator('[data-alarm-counts]').getAttribute('data-high')).toBe('1');
    await page.close();
  });
});
