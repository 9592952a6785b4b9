import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { DEMO_ASSIGNMENTS } from '../../src/domain/demo';
import { ackSchema, commandSchema } from '../../src/domain/mqtt/payloads';
import { tokenOf } from './chambers';
import { freePort, postTo, serverAndBrowserForThisFile, signIn } from './harness';

/**
 * Parameter approval against the real server (docs/approval.md): a second-level administrator's request,
 * the first-level administrator's signature on the basic profile (password again, meaning), the settings
 * command sent to a chamber that acknowledges it over MQTT, and the signed, acknowledged request as the page
 * shows it, signer, date and meaning.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

/** A chamber both the requester (second) and the approver (first) manage. */
const DEVICE = DEMO_ASSIGNMENTS.second?.[0] ?? '';

describe('parameter approval in Chromium against the real server', () => {
  it('takes a request through a signature to the chamber acknowledging the settings', async () => {
    expect(DEVICE).not.toBe('');
    const admin = await tokenOf(e2e.server.url, 'admin', 'Admin2026');
    const { secret } = await postTo<{ secret: string }>(e2e.server.url, `/api/v1/devices/${DEVICE}/secret`, {}, admin);
    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: DEVICE, password: secret, clientId: DEVICE, reconnectPeriod: 0 });
    const received: unknown[] = [];
    chamber.on('message', (_topic, payload) => {
      const command = commandSchema.parse(JSON.parse(payload.toString()));
      received.push(command);
      void chamber.publishAsync(`oc/${DEVICE}/ack`, JSON.stringify(ackSchema.parse({ cmdId: command.cmdId, ok: true })), { qos: 1 });
    });
    await chamber.subscribeAsync(`oc/${DEVICE}/cmd`, { qos: 1 });
    const requester = await tokenOf(e2e.server.url, 'second', 'Second2026');
    const request = await postTo<{ id: number }>(e2e.server.url, '/api/v1/setting-requests', { Id: DEVICE, ST: 45 }, requester);

    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await signIn(page, e2e.server.url, 'first', 'First2026');
      await page.goto(`${e2e.server.url}/profile/basic?id=${request.id}`);
      const profile = page.locator(`[data-approval-profile="${request.id}"]`);
      await profile.waitFor();
      expect(await profile.locator('[data-setting="ST"]').innerText()).toContain('45');
      expect(await profile.locator('[data-signature]').count()).toBe(0);

      await profile.locator('[data-decision="approve"]').click();
      const dialog = page.getByRole('dialog');
      // A wrong password is refused under the form, and nothing is signed.
      await dialog.getByLabel('您的密码').fill('Wrong2026');
      await dialog.getByRole('button', { name: '批准' }).click();
      await dialog.getByText('密码错误，签名被拒绝（password）').waitFor();
      await dialog.getByLabel('您的密码').fill('First2026');
      await dialog.getByRole('button', { name: '批准' }).click();
      await dialog.waitFor({ state: 'hidden' });

      const signature = profile.locator('[data-signature="approval"]');
      await signature.waitFor();
      const signed = await signature.innerText();
      expect(signed).toContain('签名人: first');
      expect(signed).toContain('签名含义: 批准');
      expect(signed).toContain('参数与签名时一致');
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      expect(received[0]).toMatchObject({ type: 'settings', ST: 45 });
      // The chamber's acknowledgement, on the page once it is read again.
      await expect
        .poll(
          async () => {
            await page.reload();
            return profile.locator('[data-command-status]').getAttribute('data-command-status');
          },
          { timeout: 15_000 },
        )
        .toBe('acked');
      const log = await profile.locator('[data-operation-log] [data-action]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
      expect(log).toEqual(['settingRequest.request', 'settingRequest.signatureRefused', 'settingRequest.approve', 'device.changeSettings', 'device.commandAcked']);
      if (process.env.APPROVAL_SCREENSHOT !== undefined) await page.screenshot({ path: process.env.APPROVAL_SCREENSHOT, fullPage: true });
    } finally {
      await page.close();
      await chamber.endAsync();
    }
  });
});
