import { afterEach, describe, expect, it } from 'vitest';
import { APP_SETTINGS_STORE_KEY } from './appSettings';
import { consoleStore } from './consoleStore';

afterEach(() => localStorage.clear());

describe('consoleStore on sign-out', () => {
  it("keeps the browser's choices and forgets the account's: its tabs, list state and server menu", () => {
    const store = consoleStore();
    store.setup();
    store.setItem('locale', 'en-US');
    store.setItem('theme', 'dark');
    store.setItem(APP_SETTINGS_STORE_KEY, {
      themeColor: '#00B42A',
      menuFromServer: true,
      serverMenu: [{ path: '/list/devices', labelKey: 'menu.devices', group: 'list' }],
    });
    store.setItem('consoleTabs', [{ name: '/list/devices' }]);
    store.setItem('devices.listParams', { filter: { Name: 'ward 3' } });

    store.reset();

    const fresh = consoleStore();
    fresh.setup();
    expect(fresh.getItem('locale')).toBe('en-US');
    expect(fresh.getItem('theme')).toBe('dark');
    expect(fresh.getItem(APP_SETTINGS_STORE_KEY)).toEqual({ themeColor: '#00B42A', menuFromServer: true });
    expect(fresh.getItem('consoleTabs')).toBeUndefined();
    expect(fresh.getItem('devices.listParams')).toBeUndefined();
    expect(Object.keys(localStorage).filter((key) => localStorage.getItem(key)?.includes('/list/devices'))).toEqual([]);
  });
});
