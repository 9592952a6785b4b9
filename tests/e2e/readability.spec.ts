import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEFAULT_DEVICE_TYPES } from '../../src/domain/deviceTypes';
import { serverAndBrowserForThisFile, signIn } from './harness';

/**
 * The device manager at a laptop's 1366 px, in Chromium against the real demo server, in both languages:
 * each row's actions on one line (their tops within a few pixels), device Ids on one line, types by name, and
 * the table as wide as the page: nothing to scroll sideways.
 */

const e2e = serverAndBrowserForThisFile();
const TYPE_NAMES = DEFAULT_DEVICE_TYPES.map(({ name }) => name);

/** The tops of one row's action buttons and the number of lines its device Id takes, for every row shown. */
const rowsAsLaidOut = (page: Page) =>
  page.locator('tbody tr.RaDatagrid-row').evaluateAll((rows) =>
    rows.map((row) => {
      const actions = [...row.querySelectorAll('td:last-child button, td:last-child a')].map((button) => Math.round(button.getBoundingClientRect().top));
      const id = row.querySelector('td.column-Id span');
      return { actions, idLines: id ? id.getClientRects().length : 0, idText: id?.textContent ?? '' };
    }),
  );

/** `lastAction` names the row's last action, which shows once the policy has answered and the commands' chunk has loaded. */
const checkDeviceManager = async (page: Page, perRow: number, lastAction: string) => {
  const firstRow = page.locator('tbody tr.RaDatagrid-row').first();
  await firstRow.getByRole('link', { name: lastAction }).waitFor();
  await page.locator('td.column-Type').filter({ hasText: TYPE_NAMES[0] }).first().waitFor();
  const rows = await rowsAsLaidOut(page);
  expect(rows.length).toBeGreaterThan(5);
  for (const { actions, idLines, idText } of rows) {
    expect(actions, idText).toHaveLength(perRow);
    // One line: a wrapped action sits a row's height lower; a few pixels are the icon buttons' own offsets.
    expect(Math.max(...actions) - Math.min(...actions), `${idText}: ${actions.join(', ')}`).toBeLessThanOrEqual(8);
    expect(idLines, idText).toBe(1);
  }
  const types = await page.locator('td.column-Type').allTextContents();
  for (const type of types) expect(TYPE_NAMES).toContain(type);
  // The whole table fits: nothing scrolls sideways, neither the table's own box nor the page.
  const overflow = await page.evaluate(() => {
    const box = document.querySelector('table')?.parentElement;
    return { table: (box?.scrollWidth ?? 0) - (box?.clientWidth ?? 0), page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
  });
  expect(overflow).toEqual({ table: 0, page: 0 });
};

describe('the device manager is readable at 1366 px', () => {
  it('keeps each row on one line in Chinese and in English, with type names', async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1366, height: 768 } });
    await signIn(page, e2e.server.url, 'admin', 'Admin2026');
    await page.goto(`${e2e.server.url}/list/device-manager`);
    // The admin's row: open/close, set state, settings, edit, a new secret, remove.
    await checkDeviceManager(page, 6, '编辑');
    await page.screenshot({ path: '/tmp/types-device-manager-zh.png' });

    await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
    await page.reload();
    await page.getByRole('columnheader', { name: 'Device ID' }).waitFor();
    await checkDeviceManager(page, 6, 'Edit');
    await page.screenshot({ path: '/tmp/types-device-manager-en.png' });
    await page.close();
  });
});
