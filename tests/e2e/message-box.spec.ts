import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { DEMO_ASSIGNMENTS } from '../../src/domain/demo';
import { ackSchema, commandSchema } from '../../src/domain/mqtt/payloads';
import { freePort, serverAndBrowserForThisFile } from './harness';

/**
 * The message box against the real server (docs/messages.md): an operator sends a command to a chamber that
 * acknowledges it over MQTT, and the outcome arrives in the operator's box from the live stream, without a
 * reload; reading it clears the count, and stays read after a reload.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const OPERATOR = { account: 'first', password: 'First2026' };
/** One of the operator's demo chambers. */
const DEVICE = DEMO_ASSIGNMENTS.first?.[0] ?? '';
const SCREENSHOT = process.env.MESSAGE_BOX_SCREENSHOT;

const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
  const response = await fetch(`${e2e.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { data: T }).data;
};

describe('the message box in Chromium against the real server', () => {
  it("shows a command's outcome as it arrives, and keeps it read after a reload", async () => {
    expect(DEVICE).not.toBe('');
    // The chamber gets credentials of its own (the super administrator's REST call), then acknowledges every command it is sent.
    const admin = await post<{ token: string }>('/upstream/login', { Account: 'admin', Code: 'Admin2026' });
    const response = await fetch(`${e2e.server.url}/api/v1/devices/${DEVICE}/secret`, { method: 'POST', headers: { Authorization: `Bearer ${admin.token}` } });
    expect(response.status).toBe(200);
    const rotated = (await response.json()) as { secret: string };
    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: DEVICE, password: rotated.secret, clientId: DEVICE, reconnectPeriod: 0 });
    chamber.on('message', (_topic, payload) => {
      const command = commandSchema.parse(JSON.parse(payload.toString()));
      void chamber.publishAsync(`oc/${DEVICE}/ack`, JSON.stringify(ackSchema.parse({ cmdId: command.cmdId, ok: true })), { qos: 1 });
    });
    await chamber.subscribeAsync(`oc/${DEVICE}/cmd`, { qos: 1 });

    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${e2e.server.url}/login`);
      await page.getByLabel('用户名', { exact: true }).fill(OPERATOR.account);
      await page.getByLabel('密码', { exact: true }).fill(OPERATOR.password);
      await page.getByRole('button', { name: '登录' }).click();
      await page.waitForURL('**/dashboard/workplace');
      await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
      const bell = page.locator('[data-message-box]');
      const unread = bell.locator('[data-unread]');
      await expect.poll(() => unread.getAttribute('data-unread')).toBe('0');
      await page.evaluate(() => Object.assign(window, { e2eMarker: 'no reload' }));

      // The operator's command, on the operator's session, exactly as the console sends it.
      const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
      const issued = await post<{ cmdId: string }>('/upstream/order/change_state', { Id: DEVICE, State: 'Repair' }, token);
      expect(issued.cmdId).toMatch(/^[\w-]+$/);

      await expect.poll(() => unread.getAttribute('data-unread'), { timeout: 10_000 }).toBe('1');
      expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('no reload');
      expect(await bell.getAttribute('aria-label')).toBe('消息通知，1 条未读');

      await bell.click();
      const panel = page.locator('[data-message-box-panel]');
      const item = panel.locator('[data-message-id]').first();
      await item.waitFor();
      expect(await item.getAttribute('data-message-status')).toBe('0');
      expect(await item.innerText()).toContain(`指令已执行：${DEVICE} 状态变更`);
      expect(await panel.getByRole('tab').first().innerText()).toBe('消息（1）');
      if (SCREENSHOT !== undefined) await page.screenshot({ path: SCREENSHOT });

      await item.click();
      await expect.poll(() => unread.getAttribute('data-unread')).toBe('0');
      await expect.poll(() => item.getAttribute('data-message-status')).toBe('1');

      await page.reload();
      await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
      await expect.poll(() => page.locator('[data-message-box] [data-unread]').getAttribute('data-unread')).toBe('0');
      await page.locator('[data-message-box]').click();
      const kept = page.locator('[data-message-box-panel] [data-message-id]');
      await kept.first().waitFor();
      expect(await kept.count()).toBe(1);
      expect(await kept.first().getAttribute('data-message-status')).toBe('1');
    } finally {
      await page.close();
      await chamber.endAsync();
    }
  });
});
