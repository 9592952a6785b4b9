import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { AlarmRecord } from '../../src/domain/alarms/record';
import { tokenOf } from './chambers';
import { freePort, serverAndBrowserForThisFile, signIn } from './harness';

/**
 * Alarms in the message box against the real server (docs/messages.md, "Alarms"): a chamber publishes a high
 * oxygen level over MQTT; the client who sees it gets a notice and a todo without a reload; another account
 * acknowledges the alarm and the client's todo is done at once, still without a reload.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

/** A working demo chamber of the client's (and so of second's, first's and the super administrator's). */
const DEVICE = 'OC-BJ-002';
const SCREENSHOTS = process.env.ALARM_MESSAGES_SCREENSHOTS;

describe('alarms in the message box, in Chromium against the real server', () => {
  it('a raised alarm arrives as a notice and a todo, and the todo is done when someone acknowledges it', async () => {
    const admin = await tokenOf(e2e.server.url, 'admin', 'Admin2026');
    const response = await fetch(`${e2e.server.url}/api/v1/devices/${DEVICE}/secret`, { method: 'POST', headers: { Authorization: `Bearer ${admin}` } });
    expect(response.status).toBe(200);
    const { secret } = (await response.json()) as { secret: string };
    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: DEVICE, password: secret, clientId: DEVICE, reconnectPeriod: 0 });

    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await signIn(page, e2e.server.url, 'client', 'Client2026');
      await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
      const bell = page.locator('[data-message-box]');
      const unread = bell.locator('[data-unread]');
      await expect.poll(() => unread.getAttribute('data-unread')).toBe('0');

      // Oxygen at 23.6 % for four readings a second apart: past the 3 s on-delay, a high alarm.
      const start = Date.now();
      for (let second = 0; second < 4; second += 1) {
        await chamber.publishAsync(`oc/${DEVICE}/telemetry`, JSON.stringify({ Time: start + second * 1000, RCPi02: 23.6 }), { qos: 1 });
      }
      await expect.poll(() => unread.getAttribute('data-unread'), { timeout: 10_000 }).toBe('2');

      await bell.click();
      const panel = page.locator('[data-message-box-panel]');
      await panel.getByRole('tab', { name: '待办（1）' }).click();
      const todo = panel.locator('[data-message-id]').first();
      await todo.waitFor();
      expect(await todo.innerText()).toContain(`待确认：${DEVICE} 舱内氧浓度高（高优先级）`);
      expect(await todo.getAttribute('data-message-status')).toBe('0');
      if (SCREENSHOTS !== undefined) await page.screenshot({ path: `${SCREENSHOTS}/alarm-todo.zh-CN.png` });

      // first acknowledges it on its own session: the client's todo is done, live.
      const first = await tokenOf(e2e.server.url, 'first', 'First2026');
      const listed = await fetch(`${e2e.server.url}/api/v1/alarms?filter=${encodeURIComponent(JSON.stringify({ deviceId: DEVICE }))}`, { headers: { Authorization: `Bearer ${first}` } });
      const [alarm] = (await listed.json()) as AlarmRecord[];
      expect(alarm).toMatchObject({ kind: 'o2-high', priority: 'high', state: 'active-unacked' });
      const acked = await fetch(`${e2e.server.url}/api/v1/alarms/${alarm?.id}/ack`, { method: 'POST', headers: { Authorization: `Bearer ${first}`, 'Content-Type': 'application/json' }, body: '{}' });
      expect(acked.status).toBe(200);
      await expect.poll(() => unread.getAttribute('data-unread'), { timeout: 10_000 }).toBe('1');
      await expect.poll(() => todo.getAttribute('data-message-status')).toBe('1');

      if (SCREENSHOTS !== undefined) {
        await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
        await page.reload();
        await page.locator('[data-message-box]').click();
        await page.locator('[data-message-box-panel]').getByRole('tab', { name: 'Notices (1)' }).click();
        await page.locator('[data-message-box-panel] [data-message-id]').first().waitFor();
        await page.screenshot({ path: `${SCREENSHOTS}/alarm-notice.en-US.png` });
      }
      await page.locator('[data-message-box-panel] [data-message-id]').first().click();
      await page.waitForURL(`**/alarms/${alarm?.id}/show`);
    } finally {
      await page.close();
      await chamber.endAsync();
    }
  });
});
