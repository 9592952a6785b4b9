import { describe, expect, it } from 'vitest';
import { mayOpenWithServerMenu, toServerMenu } from './serverMenuAccess';

const MENU = toServerMenu([
  { path: '/dashboard/workplace', name: 'app.menu.workplace', group: 'dashboard' },
  { path: '/list/device-manager', name: 'app.menu.deviceManager', group: 'list' },
]);

describe('mayOpenWithServerMenu', () => {
  it('keeps the label key and group of each entry', () => {
    expect(MENU[1]).toEqual({ path: '/list/device-manager', labelKey: 'app.menu.deviceManager', group: 'list' });
  });

  it('opens the pages the menu names and the pages of the resources they list', () => {
    expect(mayOpenWithServerMenu('/list/device-manager', MENU)).toBe(true);
    expect(mayOpenWithServerMenu('/devices/OC-0001/show', MENU)).toBe(true);
  });

  it('refuses any other page, even one the role may open', () => {
    expect(mayOpenWithServerMenu('/other/order-list', MENU)).toBe(false);
    expect(mayOpenWithServerMenu('/audit-log', MENU)).toBe(false);
    expect(mayOpenWithServerMenu('/orders/1/show', MENU)).toBe(false);
    expect(mayOpenWithServerMenu('/list/device-manager-x', MENU)).toBe(false);
  });

  it('always opens not-found, sign-in and the redirect', () => {
    expect(mayOpenWithServerMenu('/exception/404', [])).toBe(true);
    expect(mayOpenWithServerMenu('/login', [])).toBe(true);
    expect(mayOpenWithServerMenu('/redirect/other/order-list', MENU)).toBe(true);
  });
});
