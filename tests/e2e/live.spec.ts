import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { freePort, serverAndBrowserForThisFile } from './harness';

/**
 * Against the real server: the device list in Chromium follows a chamber live. A
 * device is registered (its MQTT secret), the list shows it offline, the chamber sends one telemetry
 * message over MQTT as itself, and the row turns online from the live stream: no reload, no refetch.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  // Our own port for the embedded broker, so the chamber knows where to connect.
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const DEVICE = 'E2E-LIVE-1';

/** The super administrator's token, through the upstream's sign-in. */
const adminToken = async (): Promise<string> => {
  const response = await fetch(`${e2e.server.url}/upstream/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ Account: 'admin', Code: 'Admin2026' }),
  });
  const { data } = (await response.json()) as { data: { token: string } };
  return data.token;
};

/** Registers the device through the REST API; answers its MQTT secret. */
const register = async (token: string): Promise<string> => {
  const response = await fetch(`${e2e.server.url}/api/v1/devices`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ Id: DEVICE, name: 'Live chamber', Type: 1, Location: 'E2E hall' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { secret: string }).secret;
};

describe('live updates in Chromium against the real server', () => {
  it('turns a device row online when the chamber reports, without a reload', async () => {
    const secret = await register(await adminToken());

    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.server.url}/login?redirect=${encodeURIComponent(`/list/device-manager?filter=${JSON.stringify({ Id: DEVICE })}`)}`);
    await page.getByLabel('用户名', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill('Admin2026');
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL('**/list/device-manager**');
    const row = page.locator('tbody tr').filter({ hasText: DEVICE });
    await row.locator('td.column-Online').filter({ hasText: '否' }).waitFor();
    await page.getByRole('status').filter({ hasText: '实时' }).waitFor();
    // A reload would lose this; a refetch of the list would show in `listCalls`.
    await page.evaluate(() => Object.assign(window, { e2eMarker: 'no reload' }));
    let listCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/list/get_OCProperty')) listCalls += 1;
    });

    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: DEVICE, password: secret, clientId: DEVICE, reconnectPeriod: 0 });
    try {
      await chamber.publishAsync(`oc/${DEVICE}/telemetry`, JSON.stringify({ Time: Date.now(), RCP: 1.25, RCPi02: 22.1, RCT: 24 }), { qos: 1 });
      await row.locator('td.column-Online').filter({ hasText: '是' }).waitFor({ timeout: 10_000 });
    } finally {
      await chamber.endAsync();
    }
    expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('no reload');
    expect(listCalls).toBe(0);
    await page.close();
  });
});
