import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles';
import { registerHall } from './chambers';
import { fillSignIn, freePort, serverAndBrowserForThisFile } from './harness';
import { DEMO_ACCOUNTS, goWithin, routesOf, settled } from './walk';

/**
 * The built console under the server's Content-Security-Policy (docs/security.md, "Headers and CSP"):
 * each role signs in and walks every route it may open, with the settings drawer, a dialog and the
 * alarm banner shown, and the help pages; any violation the browser reports (the page's
 * securitypolicyviolation events, or its console) fails the test. One server and one browser for all,
 * the roles walking side by side.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const CHAMBER = 'E2E-CSP-1';

interface Watched {
  page: Page;
  /** Violations reported so far, as `directive: blocked (source)` or the console's words. */
  violations: () => Promise<string[]>;
}

/** A page whose every document reports its CSP violations, through the event and the console. */
const watchedPage = async (): Promise<Watched> => {
  const page = await e2e.browser.newPage({ viewport: { width: 1366, height: 768 } });
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective}: ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber}) ${event.sample}`);
    });
  });
  return {
    page,
    violations: async () => [...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)), ...fromConsole],
  };
};

/** Signs in as `role` from the login page; answers the page's Content-Security-Policy. */
const signIn = async ({ page }: Watched, role: Role): Promise<string | undefined> => {
  const response = await page.goto(`${e2e.server.url}/login`);
  await fillSignIn(page, DEMO_ACCOUNTS[role].account, DEMO_ACCOUNTS[role].password);
  await page.waitForURL('**/dashboard/workplace');
  await settled(page);
  return response?.headers()['content-security-policy'];
};

/** The policy is there to be broken: the page carries it, with a nonce for its styles. */
const STRICT_PAGE_POLICY = /^default-src 'self';script-src 'self';.*style-src 'self' 'nonce-[^']+';/;

const openSettingsDrawer = async (page: Page) => {
  await page.getByRole('button', { name: '个人资料' }).click();
  await page.getByRole('menuitem', { name: '页面配置' }).click();
  await page.locator('[data-settings-drawer]').waitFor();
  await page.locator('[data-settings-close]').click();
  await page.locator('[data-settings-drawer]').waitFor({ state: 'detached' });
};

describe('the console under its Content-Security-Policy in Chromium', () => {
  beforeAll(async () => {
    // A standing high oxygen alarm on a chamber the client (and so the super administrator) sees.
    const secrets = await registerHall(e2e.server.url, { hall: 'E2E CSP hall', ids: [CHAMBER], Type: 1, toClient: [CHAMBER] });
    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: CHAMBER, password: secrets.get(CHAMBER), clientId: CHAMBER, reconnectPeriod: 0 });
    try {
      const start = Date.now() - 5000;
      for (let second = 0; second <= 4; second += 1) {
        await chamber.publishAsync(`oc/${CHAMBER}/telemetry`, JSON.stringify({ Time: start + second * 1000, RCPi02: 23.6 }), { qos: 1 });
      }
    } finally {
      await chamber.endAsync();
    }
  });

  // The roles at once, each in a browser context of its own: most of a walk is waiting on the server.
  // Concurrent tests assert with their own context's expect.
  it.concurrent.for(['admin', 'user', 'lowUser', 'client'] as const)('reports no violation to %s on any of its routes, the drawer, a dialog or the banner', async (role, { expect }) => {
    const watched = await watchedPage();
    const { page } = watched;
    expect(await signIn(watched, role)).toMatch(STRICT_PAGE_POLICY);
    if (role === 'admin' || role === 'client') await page.locator('[data-alarm-banner][data-priority="high"]').waitFor({ timeout: 20_000 });

    const routes = await routesOf(page, role);
    expect(routes.length).toBeGreaterThan(3);
    for (const path of routes) {
      await goWithin(page, path);
      expect(await watched.violations(), path).toEqual([]);
    }

    await openSettingsDrawer(page);
    expect(await watched.violations(), 'settings drawer').toEqual([]);

    if (role === 'admin') {
      // A dialog with a popup list in it: assigning devices to an account.
      await goWithin(page, '/other/manager');
      await page.getByRole('row').filter({ hasText: 'first' }).first().getByRole('button', { name: '分配设备' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('combobox').click();
      await page.getByRole('option').first().waitFor();
      expect(await watched.violations(), 'assign devices dialog').toEqual([]);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    await page.close();
  });

  it('reports none on the help pages, and does report an inline style or script someone slips in', async () => {
    const watched = await watchedPage();
    const { page } = watched;
    for (const address of ['/help/zh-CN/guide.html', '/help/zh-CN/faq.html', '/help/en-US/guide.html', '/help/en-US/faq.html']) {
      const response = await page.goto(`${e2e.server.url}${address}`);
      expect(response?.status(), address).toBe(200);
      // Styled by its stylesheet: the headings take its colour.
      expect(await page.locator('h1').evaluate((heading) => getComputedStyle(heading).color), address).toBe('rgb(22, 93, 255)');
      expect(await watched.violations(), address).toEqual([]);
    }

    // The watch itself sees what the policy blocks: a style and a script without the page's nonce.
    expect(await signIn(watched, 'client')).toMatch(STRICT_PAGE_POLICY);
    expect(await watched.violations()).toEqual([]);
    await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: red; }';
      document.head.append(style);
      const script = document.createElement('script');
      script.textContent = 'window.injected = true;';
      document.head.append(script);
    });
    await page.waitForFunction(() => (window as unknown as { cspViolations: string[] }).cspViolations.length >= 2);
    const reported = await watched.violations();
    expect(reported.some((violation) => violation.startsWith('style-src-elem: inline'))).toBe(true);
    expect(reported.some((violation) => violation.startsWith('script-src-elem: inline'))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    await page.close();
  });
});
