import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

/**
 * Draws the web app's PNG icons (192 and 512 px, maskable: the mark keeps to the central 60 %) from
 * public/icons/icon.svg with Debian's Chromium, the browser the tests use: no image library needed.
 * `node --import tsx scripts/icons.ts`, then commit public/icons/*.png.
 */
const svg = await readFile('public/icons/icon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<html><body style="margin:0">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    await page.screenshot({ path: `public/icons/icon-${size}.png`, omitBackground: false });
    await page.close();
  }
} finally {
  await browser.close();
}
