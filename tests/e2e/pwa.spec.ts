import { describe, expect, it } from 'vitest';
import { serverAndBrowserForThisFile, signIn } from './harness';

/**
 * The console as an installable web app against the real server: its manifest and icons, and the service
 * worker of the production build, which keeps the shell (the page, the build's files) so the console opens
 * without a network, and never answers the APIs: offline, an API call fails rather than showing a stale answer.
 */

const e2e = serverAndBrowserForThisFile();

interface Manifest {
  start_url: string;
  display: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ png: bytes.subarray(1, 4).toString('latin1') === 'PNG', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

describe('the console as a web app', () => {
  it('has a manifest whose PNG icons are 192 and 512 px, each also maskable', async () => {
    const response = await fetch(`${e2e.server.url}/manifest.webmanifest`);
    expect(response.headers.get('content-type')).toContain('application/manifest+json');
    const manifest = (await response.json()) as Manifest;
    expect(manifest).toMatchObject({ start_url: '/dashboard/workplace', display: 'standalone' });
    for (const size of [192, 512]) {
      const icons = manifest.icons.filter(({ sizes }) => sizes === `${size}x${size}`);
      expect(icons.map(({ purpose }) => purpose).sort()).toEqual(['any', 'maskable']);
      for (const icon of icons) {
        const file = await fetch(`${e2e.server.url}${icon.src}`);
        expect(file.ok).toBe(true);
        expect(pngSize(Buffer.from(await file.arrayBuffer()))).toEqual({ png: true, width: size, height: size });
      }
    }
  });

  it('keeps the shell for offline use and never answers an API call from its cache', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    await signIn(page, e2e.server.url, 'client', 'Client2026');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    // Under the worker's control from the next page on: the page, its files and its API calls pass through it.
    const apiAnswers: { url: string; fromWorker: boolean }[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/api/') || pathname.startsWith('/upstream/')) apiAnswers.push({ url: pathname, fromWorker: response.fromServiceWorker() });
    });
    const alarmList = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/alarms');
    await page.goto(`${e2e.server.url}/alarms`);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await alarmList;
    expect(apiAnswers.length).toBeGreaterThan(0);
    expect(apiAnswers.filter(({ fromWorker }) => fromWorker)).toEqual([]);

    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const key of await caches.keys()) {
        for (const request of await (await caches.open(key)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(kept).toContain('/index.html');
    expect(kept.some((path) => path.startsWith('/assets/'))).toBe(true);
    expect(kept.filter((path) => !path.startsWith('/assets/') && path !== '/index.html')).toEqual([]);

    // Offline: the console still opens (its shell from the cache), but what the APIs said is not kept, so
    // it cannot confirm who is signed in and shows the sign-in form rather than stale figures.
    const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
    await context.setOffline(true);
    await page.goto(`${e2e.server.url}/dashboard/workplace`);
    await page.getByLabel('用户名', { exact: true }).waitFor();
    const offlineCall = await page.evaluate((bearer) =>
      fetch('/api/v1/alarms', { headers: { Authorization: `Bearer ${bearer}` } }).then(
        (response) => `answered ${response.status}`,
        () => 'failed',
      ),
    token);
    expect(offlineCall).toBe('failed');
    expect(violations).toEqual([]);
    await context.close();
  });
});
