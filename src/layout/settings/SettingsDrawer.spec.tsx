import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useTheme } from '@mui/material/styles';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, memoryStore, Notification, type Store } from 'react-admin';
import { chinese } from '../../i18n';
import { APP_SETTINGS_STORE_KEY, DEFAULT_APP_SETTINGS } from './appSettings';
import { ConsoleTheme } from './ConsoleTheme';
import { SettingsDrawer } from './SettingsDrawer';
import { SettingsFixedButton } from './SettingsOpeners';

/** The primary colour of the theme in force, as every MUI component gets it. */
const PrimaryProbe = () => <output data-testid="primary">{useTheme().palette.primary.main}</output>;

const renderDrawer = (stored: Record<string, unknown> = {}) => {
  const store: Store = memoryStore({ 'consoleSettings.drawerOpen': true, ...stored });
  render(
    <CoreAdminContext i18nProvider={polyglotI18nProvider(() => chinese, 'zh-CN')} store={store}>
      <ConsoleTheme>
        <PrimaryProbe />
        <SettingsFixedButton />
        <SettingsDrawer />
        <Notification />
      </ConsoleTheme>
    </CoreAdminContext>,
  );
  return store;
};

const control = (key: string) => {
  const found = document.querySelector<HTMLInputElement>(`[data-settings-drawer] [data-setting="${key}"]`);
  if (!found) throw new Error(`no control for ${key}`);
  return found;
};

const SWITCHES = ['navbar', 'menu', 'topMenu', 'menuCollapse', 'footer', 'tabBar', 'menuFromServer', 'colorWeak'] as const;

afterEach(() => {
  document.body.removeAttribute('dark');
  document.documentElement.style.filter = '';
  vi.unstubAllGlobals();
});

describe('the settings drawer', () => {
  it('shows the spec defaults, titled and explained in Chinese', () => {
    renderDrawer();
    const drawer = within(screen.getByRole('presentation'));
    expect(drawer.getByRole('heading', { name: '页面配置' })).toBeTruthy();
    expect(drawer.getByText(/这些配置只在当前浏览器中生效/)).toBeTruthy();
    expect(Object.fromEntries(SWITCHES.map((key) => [key, control(key).checked]))).toEqual({
      navbar: true, menu: true, topMenu: false, menuCollapse: false, footer: true, tabBar: false, menuFromServer: false, colorWeak: false,
    });
    expect(control('theme').checked).toBe(false);
    expect(control('menuWidth').value).toBe('220');
    expect(control('themeColor').value).toBe('#165dff');
    expect(screen.getByTestId('primary').textContent).toBe('#165DFF');
  });

  it('stores a change at once in the Store, and only what was changed', () => {
    const store = renderDrawer();
    fireEvent.click(control('footer'));
    expect(control('footer').checked).toBe(false);
    expect(store.getItem(APP_SETTINGS_STORE_KEY)).toEqual({ footer: false });
  });

  it('uncollapses the menu when the top menu is turned on', () => {
    const store = renderDrawer({ 'sidebar.open': false });
    expect(control('menuCollapse').checked).toBe(true);
    fireEvent.click(control('topMenu'));
    expect(control('menuCollapse').checked).toBe(false);
    expect(store.getItem('sidebar.open')).toBe(true);
  });

  it('applies a width between 160 and 400 as typed, and nothing outside it', () => {
    const store = renderDrawer();
    fireEvent.change(control('menuWidth'), { target: { value: '90' } });
    expect(store.getItem(APP_SETTINGS_STORE_KEY)).toBeUndefined();
    expect(control('menuWidth').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(control('menuWidth'), { target: { value: '300' } });
    expect(store.getItem(APP_SETTINGS_STORE_KEY)).toEqual({ menuWidth: 300 });
  });

  it('falls back to the default colour and clamps the width when the Store holds what cannot be drawn', () => {
    renderDrawer({ [APP_SETTINGS_STORE_KEY]: { themeColor: 'red; x', menuWidth: 5000 } });
    expect(control('themeColor').value).toBe('#165dff');
    expect(control('menuWidth').value).toBe('400');
  });

  it('switches the page to dark (body attribute), colour-weak (80 % inversion) and the chosen theme colour', () => {
    renderDrawer();
    fireEvent.click(control('theme'));
    expect(document.body.hasAttribute('dark')).toBe(true);
    fireEvent.click(control('colorWeak'));
    expect(document.documentElement.style.filter).toBe('invert(80%)');
    fireEvent.input(control('themeColor'), { target: { value: '#ff5722' } });
    expect(screen.getByTestId('primary').textContent).toBe('#ff5722');

    fireEvent.click(control('theme'));
    fireEvent.click(control('colorWeak'));
    expect(document.body.hasAttribute('dark')).toBe(false);
    expect(document.documentElement.style.filter).toBe('');
  });

  it('shows the fixed opening button only while the navigation bar is hidden', () => {
    renderDrawer();
    expect(document.querySelector('button[data-settings-open]')).toBeNull();
    fireEvent.click(control('navbar'));
    expect(document.querySelector('button[data-settings-open]')).not.toBeNull();
  });

  it('copies the settings in force as JSON and says so', async () => {
    const writeText = vi.fn((_text: string) => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderDrawer({ theme: 'dark', [APP_SETTINGS_STORE_KEY]: { menuWidth: 260 } });
    fireEvent.click(control('footer'));
    fireEvent.click(screen.getByRole('button', { name: '复制配置' }));
    expect(await screen.findByText('配置已复制到剪贴板')).toBeTruthy();
    expect(writeText).toHaveBeenCalledTimes(1);
    expect(JSON.parse(writeText.mock.calls[0]?.[0] ?? '')).toEqual({ ...DEFAULT_APP_SETTINGS, theme: 'dark', menuWidth: 260, footer: false });
  });

  it('says so when the browser refuses the clipboard', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: '复制配置' }));
    await waitFor(() => expect(screen.getByText('浏览器不允许访问剪贴板，配置未复制')).toBeTruthy());
  });
});
