import { describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { fillSignIn, freePort, serverAndBrowserForThisFile } from './harness';

/**
 * An administrator's device work in Chromium against the real server, the chamber a real MQTT client of
 * the server's embedded broker: register a device in the console, connect it with the secret and broker
 * the console shows, see it come online; rotate its secret (the old one refused, the new one connects);
 * remove it (its connection ends).
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const Id = 'E2E-ADM-1';
const NAME = '海淀 1 号舱';

/** What the secret dialog shows: the secret and where the broker is, read off the screen as a person would. */
const shownCredentials = async (page: Page) => {
  const dialog = page.getByRole('dialog', { name: `设备 ${Id} 的密钥` });
  await dialog.waitFor();
  const secret = (await dialog.getByTestId('device-secret').textContent()) ?? '';
  const host = (await dialog.getByTestId('broker-host').textContent()) ?? '';
  const port = Number(await dialog.getByTestId('broker-port').textContent());
  expect(await dialog.getByTestId('mosquitto-pub').textContent()).toBe(
    `mosquitto_pub -h ${host} -p ${port} -u ${Id} -P '${secret}' -q 1 -r -t oc/${Id}/status -m online`,
  );
  return { dialog, secret, host, port };
};

const connect = (host: string, port: number, password: string): Promise<MqttClient> =>
  mqtt.connectAsync(`mqtt://${host}:${port}`, { username: Id, password, clientId: Id, reconnectPeriod: 0, connectTimeout: 5000 });

const closed = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));

describe('device administration in Chromium against the real server and its broker', () => {
  it('registers a device, connects it with the secret shown, rotates the secret and removes the device', async () => {
    const page = await e2e.browser.newPage();
    const clients: MqttClient[] = [];
    try {
      await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent('/devices')}`);
      await fillSignIn(page, 'admin', 'Admin2026');
      await page.waitForURL('**/devices');
      await page.getByRole('link', { name: '新建' }).click();
      const form = page.locator('form');
      // Once the type's choices are loaded, the form is complete and keeps what is typed.
      await form.getByRole('combobox', { name: '类型' }).waitFor();
      await form.getByRole('textbox', { name: '设备编号', exact: true }).fill(Id);
      await form.getByRole('textbox', { name: '名称', exact: true }).fill(NAME);
      await page.getByRole('combobox', { name: '类型' }).click();
      await page.getByRole('option').filter({ hasText: /\S/ }).first().click();
      await form.getByRole('textbox', { name: '位置', exact: true }).fill('E2E admin hall');
      await page.getByRole('button', { name: '保存' }).click();

      const registered = await shownCredentials(page);
      // The broker the server named: its embedded broker, on the host the console was reached by.
      expect({ host: registered.host, port: registered.port }).toEqual({ host: '127.0.0.1', port: mqttPort });
      await page.screenshot({ path: '/tmp/device-admin-secret.png' });
      await registered.dialog.getByRole('button', { name: '我已复制' }).click();
      await page.waitForURL(`**/devices/${Id}/show`);
      const header = page.locator('[data-device-header]');
      await header.getByText('离线', { exact: true }).waitFor();

      // The chamber connects with what the screen showed and says it is online: the console shows it.
      const chamber = await connect(registered.host, registered.port, registered.secret);
      clients.push(chamber);
      await chamber.publishAsync(`oc/${Id}/status`, 'online', { qos: 1, retain: true });
      await header.getByText('在线', { exact: true }).waitFor({ timeout: 10_000 });

      // Rotation asks first, naming the device; the old secret's connection ends and is refused from then on.
      const cut = closed(chamber);
      await header.getByRole('button', { name: '重新生成密钥' }).click();
      const question = page.getByRole('dialog', { name: `重新生成设备 ${Id}（${NAME}）的密钥？` });
      await question.getByRole('button', { name: '确认' }).click();
      const rotated = await shownCredentials(page);
      expect(rotated.secret).not.toBe(registered.secret);
      await cut;
      await expect(connect(registered.host, registered.port, registered.secret)).rejects.toMatchObject({ code: 4 });
      const renewed = await connect(rotated.host, rotated.port, rotated.secret);
      clients.push(renewed);
      await rotated.dialog.getByRole('button', { name: '我已复制' }).click();

      // Removal names the device; the list no longer has it, and its connection ends.
      const ended = closed(renewed);
      await header.getByRole('button', { name: '删除' }).click();
      const removal = page.getByRole('dialog', { name: `删除设备 ${Id}（${NAME}）` });
      await removal.getByText(/已有的订单和状态记录保留/).waitFor();
      await removal.getByRole('button', { name: '确认' }).click();
      await page.waitForURL('**/devices');
      await ended;
      await page.getByText('设备编号', { exact: true }).first().waitFor();
      expect(await page.getByText(Id, { exact: true }).count()).toBe(0);
      await expect(connect(rotated.host, rotated.port, rotated.secret)).rejects.toMatchObject({ code: 4 });
    } finally {
      await Promise.all(clients.map((client) => client.endAsync(true)));
      await page.close();
    }
  });
});
