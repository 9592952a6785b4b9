import { useCallback, useMemo } from 'react';
import { useStore } from 'react-admin';

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
}

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
};

/** react-admin's Store keeps them (localStorage), so every change survives a reload. */
export const APP_SETTINGS_STORE_KEY = 'consoleSettings';

/**
 * The settings in force and a setter taking a partial change. Only what differs from the defaults is
 * stored, so a default changed in a later release reaches users who never touched that setting.
 */
export const useAppSettings = (): [AppSettings, (change: Partial<AppSettings>) => void] => {
  const [stored, setStored] = useStore<Partial<AppSettings>>(APP_SETTINGS_STORE_KEY, {});
  const settings = useMemo(() => ({ ...DEFAULT_APP_SETTINGS, ...stored }), [stored]);
  const update = useCallback(
    (change: Partial<AppSettings>) => setStored((previous: Partial<AppSettings>) => ({ ...previous, ...change })),
    [setStored],
  );
  return [settings, update];
};

/** Whether the settings drawer is open: its fixed button, the user menu and the message box open it. */
export const useSettingsDrawerOpen = (): [boolean, (open: boolean) => void] => {
  const [open, setOpen] = useStore<boolean>('consoleSettings.drawerOpen', false);
  return [open, setOpen];
};
