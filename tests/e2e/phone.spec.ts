import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Locator, Page } from 'playwright-core';
import type { AlarmRecord } from '../../src/domain/alarms/record';
import { registerHall, tokenOf } from './chambers';
import { freePort, serverAndBrowserForThisFile, signIn } from './harness';

/**
 * The operator's screens on a phone (360 × 740 CSS px, touch, Chromium's mobile emulation) against the real
 * server, in both languages: nothing wider than the screen, the app bar on one line with its alarm counts,
 * the banner readable, every alarm control a thumb's size (44 × 44), and an alarm acknowledged by tap —
 * from the banner in Chinese, from the alarm list's card and its dialog in English.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;
const CHAMBERS = ['E2E-PH-1', 'E2E-PH-2'];
const BANNER = '[data-alarm-banner]';
const THUMB = 44;

/** Each chamber, as itself over MQTT, holds cabin oxygen at 23.6 % past the rule's on-delay: a high alarm each. */
const raiseAlarms = async (secrets: Map<string, string>) => {
  for (const id of CHAMBERS) {
    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: id, password: secrets.get(id), clientId: id, reconnectPeriod: 0 });
    try {
      const start = Date.now() - 5000;
      for (let second = 0; second <= 4; second += 1) {
        await chamber.publishAsync(`oc/${id}/telemetry`, JSON.stringify({ Time: start + second * 1000, RCPi02: 23.6 }), { qos: 1 });
      }
    } finally {
      await chamber.endAsync();
    }
  }
};

const alarmsOf = async (token: string): Promise<AlarmRecord[]> => {
  const response = await fetch(`${e2e.server.url}/api/v1/alarms`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok).toBe(true);
  return ((await response.json()) as AlarmRecord[]).filter(({ deviceId }) => CHAMBERS.includes(deviceId));
};

const waitForState = async (token: string, id: AlarmRecord['id'], state: AlarmRecord['state']) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const alarm = (await alarmsOf(token)).find((entry) => entry.id === id);
    if (alarm?.state === state) return alarm;
    if (Date.now() > deadline) throw new Error(`alarm ${String(id)} is ${String(alarm?.state)}, not ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** Nothing scrolls sideways; the app bar is one line (48–64 px) with the counts inside the screen. */
const expectFits = async (page: Page, screen: string) => {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen}: page width`).toBeLessThanOrEqual(PHONE.viewport.width);
  const bar = await page.locator('header.MuiAppBar-root').boundingBox();
  expect(bar?.height, `${screen}: app bar height`).toBeLessThanOrEqual(64);
  const counts = await page.locator('[data-alarm-counts]').boundingBox();
  expect((counts?.x ?? 0) + (counts?.width ?? Infinity), `${screen}: alarm counts in sight`).toBeLessThanOrEqual(PHONE.viewport.width);
};

/** Every control `locator` finds is at least a thumb's size. */
const expectThumbSized = async (locator: Locator, what: string) => {
  const boxes = await locator.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect()).map(({ width, height }) => ({ width, height })));
  expect(boxes.length, what).toBeGreaterThan(0);
  for (const box of boxes) {
    expect(box.width, `${what}: width`).toBeGreaterThanOrEqual(THUMB);
    expect(box.height, `${what}: height`).toBeGreaterThanOrEqual(THUMB);
  }
};

/** The banner is inside the screen and the chamber it names is in sight. */
const expectBannerReadable = async (page: Page) => {
  const banner = await page.locator(BANNER).boundingBox();
  expect((banner?.x ?? 0) + (banner?.width ?? Infinity)).toBeLessThanOrEqual(PHONE.viewport.width);
  const device = await page.locator(`${BANNER} [data-alarm-device]`).boundingBox();
  expect(device?.y ?? -1).toBeGreaterThanOrEqual(48);
  expect((device?.x ?? 0) + (device?.width ?? Infinity)).toBeLessThanOrEqual(PHONE.viewport.width);
  await expectThumbSized(page.locator(`${BANNER} button, ${BANNER} a`), 'banner buttons');
  await expectThumbSized(page.locator('[data-alarm-counts] a'), 'alarm counts');
};

interface Words {
  acknowledge: string;
  signOut: string;
}

/** Opens each screen the operator uses on a phone and checks it fits; answers the alarms' ids. */
const walkScreens = async (page: Page, locale: string, alarms: AlarmRecord[]) => {
  const visit = async (path: string, ready: Locator, screen: string) => {
    await page.goto(`${e2e.server.url}${path}`);
    await ready.first().waitFor({ timeout: 20_000 });
    await expectFits(page, screen);
    await page.screenshot({ path: `/tmp/phone-${locale}-${screen}.png` });
  };
  const [first] = alarms;
  await visit('/dashboard/workplace', page.getByTestId('figure-online-value'), 'workplace');
  await expectBannerReadable(page);
  await visit('/dashboard/monitor', page.getByTestId('tile-grid'), 'monitor');
  await visit('/list/oxygen-monitor', page.locator(`[data-monitor-cards] [data-device="${CHAMBERS[0] ?? ''}"]`), 'oxygen-monitor');
  await visit('/alarms', page.locator('[data-phone-card]'), 'alarms');
  await expectThumbSized(page.locator('[data-phone-card] button'), 'alarm card actions');
  await visit(`/alarms/${String(first?.id)}/show`, page.locator('.RaShow-card'), 'alarm');
  await visit(`/devices/${CHAMBERS[0] ?? ''}/show`, page.locator('[data-device-header]'), 'device');
  // The message box opens inside the screen.
  await page.locator('[data-message-box]').tap();
  const panel = await page.locator('[data-message-box-panel]').boundingBox();
  expect(panel?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((panel?.x ?? 0) + (panel?.width ?? Infinity)).toBeLessThanOrEqual(PHONE.viewport.width);
  await page.screenshot({ path: `/tmp/phone-${locale}-message-box.png` });
};

const signOut = async (page: Page, words: Words) => {
  await page.locator('[data-message-box-panel]').getByText(words.signOut).tap();
  await page.waitForURL('**/login');
};

describe('the console on a phone', () => {
  it('fits every operator screen at 360 px in both languages and acknowledges alarms by tap', async () => {
    const secrets = await registerHall(e2e.server.url, { hall: 'E2E phone hall', ids: CHAMBERS, Type: 1, toClient: CHAMBERS });
    const token = await tokenOf(e2e.server.url, 'client', 'Client2026');
    await raiseAlarms(secrets);

    // Chinese: the banner's Acknowledge, one tap.
    const zh = await e2e.browser.newContext(PHONE);
    const page = await zh.newPage();
    await signIn(page, e2e.server.url, 'client', 'Client2026');
    await page.locator('[data-alarm-counts][data-high="2"]').waitFor({ timeout: 20_000 });
    const alarms = await alarmsOf(token);
    expect(alarms.map(({ state }) => state)).toEqual(['active-unacked', 'active-unacked']);
    await walkScreens(page, 'zh-CN', alarms);
    await page.keyboard.press('Escape');
    await page.goto(`${e2e.server.url}/dashboard/workplace`);
    const banner = page.locator(`${BANNER}[data-priority="high"]`);
    const named = Number(await banner.getAttribute('data-alarm-id'));
    await banner.getByRole('button', { name: '确认' }).tap();
    await waitForState(token, named, 'active-acked');
    await page.locator('[data-message-box]').tap();
    await signOut(page, { acknowledge: '确认', signOut: '退出登录' });
    await zh.close();

    // English: the other alarm from its card in the alarm list, through the full-screen dialog.
    const en = await e2e.browser.newContext(PHONE);
    const english = await en.newPage();
    await signIn(english, e2e.server.url, 'client', 'Client2026');
    await english.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
    await walkScreens(english, 'en-US', alarms);
    await english.keyboard.press('Escape');
    const other = alarms.find(({ id }) => id !== named);
    await english.goto(`${e2e.server.url}/alarms`);
    await english.locator(`[data-phone-card="${String(other?.id)}"]`).getByRole('button', { name: 'Acknowledge' }).tap();
    const dialog = english.getByRole('dialog');
    await dialog.waitFor();
    const sheet = await dialog.boundingBox();
    expect(sheet).toMatchObject({ x: 0, width: PHONE.viewport.width });
    await expectThumbSized(dialog.getByRole('button'), 'dialog buttons');
    await english.screenshot({ path: '/tmp/phone-en-US-ack-dialog.png' });
    await dialog.getByRole('button', { name: 'Acknowledge' }).tap();
    await waitForState(token, other?.id ?? -1, 'active-acked');
    await english.locator('[data-message-box]').tap();
    await signOut(english, { acknowledge: 'Acknowledge', signOut: 'Sign out' });
    await en.close();
  });
});
