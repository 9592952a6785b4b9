import { useCallback, useMemo } from 'react';
import { useSidebarState, useStore, useStoreContext, useTheme } from 'react-admin';

/** One entry of the menu the server sends when `menuFromServer` is on (`POST /api/user/menu`). */
export interface ServerMenuEntry {
  path: string;
  labelKey: string;
  group: string;
}

/** The console's frame settings: the settings drawer edits them, the layout follows them. */
export interface AppSettings {
  theme: 'light' | 'dark';
  colorWeak: boolean;
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  hideMenu: boolean;
  menuCollapse: boolean;
  footer: boolean;
  themeColor: string;
  menuWidth: number;
  globalSettings: boolean;
  device: 'desktop' | 'mobile';
  tabBar: boolean;
  menuFromServer: boolean;
  serverMenu: ServerMenuEntry[];
  /** The template's route groups (src/domain/menu.ts, TEMPLATE_GROUPS): an admin's switch; other roles get the build's. */
  templatePages: boolean;
}

/** The build's switch of the template's route groups: `VITE_TEMPLATE_PAGES=true` (README, "Configuration"). */
export const TEMPLATE_PAGES_BUILT_ON = ['true', '1'].includes(import.meta.env.VITE_TEMPLATE_PAGES ?? '');

/** The old console's defaults, exactly (docs/console.md, "Settings"). */
export const DEFAULT_APP_SETTINGS: AppSettings = {
  theme: 'light',
  colorWeak: false,
  navbar: true,
  menu: true,
  topMenu: false,
  hideMenu: false,
  menuCollapse: false,
  footer: true,
  themeColor: '#165DFF',
  menuWidth: 220,
  globalSettings: false,
  device: 'desktop',
  tabBar: false,
  menuFromServer: false,
  serverMenu: [],
  templatePages: TEMPLATE_PAGES_BUILT_ON,
};

/** react-admin's Store keeps them (localStorage), so every change survives a reload. */
export const APP_SETTINGS_STORE_KEY = 'consoleSettings';

/**
 * The stored settings less what belongs to the account signed in rather than to the browser: the menu the
 * server sent is that account's, so the next account to sign in on this browser must not inherit it.
 */
export const browserSettings = (stored: Partial<AppSettings>): Partial<AppSettings> =>
  Object.fromEntries(Object.entries(stored).filter(([key]) => key !== 'serverMenu'));

/** The narrowest and widest side menu the console draws, whatever a stored or hand-edited value says. */
export const MENU_WIDTH_RANGE = { min: 160, max: 400 } as const;

const COLOUR = /^#[0-9a-f]{6}$/i;

/** A stored value the frame cannot draw (a hand-edited Store, an old release's) falls back to its default. */
const drawable = (settings: AppSettings): AppSettings => ({
  ...settings,
  themeColor: COLOUR.test(settings.themeColor) ? settings.themeColor : DEFAULT_APP_SETTINGS.themeColor,
  menuWidth: Number.isFinite(settings.menuWidth)
    ? Math.min(MENU_WIDTH_RANGE.max, Math.max(MENU_WIDTH_RANGE.min, Math.round(settings.menuWidth)))
    : DEFAULT_APP_SETTINGS.menuWidth,
});

/** The settings kept in the console's own Store entry, over the defaults: all but the two react-admin keeps. */
const useOwnSettings = () => {
  const [stored, setStored] = useStore<Partial<AppSettings>>(APP_SETTINGS_STORE_KEY, {});
  const settings = useMemo(() => drawable({ ...DEFAULT_APP_SETTINGS, ...stored }), [stored]);
  return [settings, setStored] as const;
};

/** What the themes are built from; unlike useAppSettings, usable outside MUI's theme (it builds it). */
export const useBrand = () => {
  const [{ themeColor, menuWidth }] = useOwnSettings();
  return useMemo(() => ({ themeColor, menuWidth }), [themeColor, menuWidth]);
};

/**
 * The settings in force and a setter taking a partial change. Only what was changed is stored, over the
 * defaults, so a default changed in a later release reaches users who never touched that setting.
 * Two of them belong to react-admin and are read from its own Store keys, so its controls and the
 * drawer never disagree: `theme` is the theme mode its ToggleThemeButton switches, and `menuCollapse`
 * is its sidebar's open state, negated, which its menu button toggles.
 */
export const useAppSettings = (): [AppSettings, (change: Partial<AppSettings>) => void] => {
  const [own, setStored] = useOwnSettings();
  const [theme, setTheme] = useTheme(DEFAULT_APP_SETTINGS.theme);
  const [sidebarOpen, setSidebarOpen] = useSidebarState();
  const { getItem } = useStoreContext();
  const settings = useMemo(() => ({ ...own, theme, menuCollapse: !sidebarOpen }), [own, theme, sidebarOpen]);
  const update = useCallback(
    ({ theme: nextTheme, menuCollapse, ...rest }: Partial<AppSettings>) => {
      if (nextTheme !== undefined) setTheme(nextTheme);
      // A horizontal menu cannot be collapsed: turning it on opens the side menu for when it comes back.
      const collapse = rest.topMenu ? false : menuCollapse;
      if (collapse !== undefined) setSidebarOpen(!collapse);
      // Over what the Store holds now, not this render's copy: two changes in a row both count.
      if (Object.keys(rest).length > 0) setStored({ ...getItem<Partial<AppSettings>>(APP_SETTINGS_STORE_KEY), ...rest });
    },
    [setStored, setTheme, setSidebarOpen, getItem],
  );
  return [settings, update];
};

/** Whether the settings drawer is open: its fixed button, the user menu and the message box open it. */
export const useSettingsDrawerOpen = (): [boolean, (open: boolean) => void] => {
  const [open, setOpen] = useStore<boolean>('consoleSettings.drawerOpen', false);
  return [open, setOpen];
};
