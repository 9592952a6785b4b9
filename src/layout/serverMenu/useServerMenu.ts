import { useEffect } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useAppSettings, type ServerMenuEntry } from '../settings/appSettings';
import { toServerMenu } from './serverMenuAccess';

/** The server's menu when it is in force (menuFromServer on and loaded), else undefined. */
export const useActiveServerMenu = (): ServerMenuEntry[] | undefined => {
  const [{ menuFromServer, serverMenu }] = useAppSettings();
  return menuFromServer && serverMenu.length > 0 ? serverMenu : undefined;
};

/**
 * Loads the menu from the server when menuFromServer is switched on (and after a reload that lost it),
 * announcing loading, then success or error. A failed load switches the setting off again, so that the
 * console keeps a menu. Switching it off forgets the server's menu.
 */
export const useServerMenuLoader = () => {
  const [{ menuFromServer, serverMenu }, update] = useAppSettings();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const needed = menuFromServer && serverMenu.length === 0;
  const stale = !menuFromServer && serverMenu.length > 0;

  useEffect(() => {
    if (stale) update({ serverMenu: [] });
  }, [stale, update]);

  useEffect(() => {
    if (!needed) return;
    let current = true;
    notify('app.serverMenu.loading', { type: 'info' });
    dataProvider.userMenu().then(
      (entries) => {
        if (!current) return;
        update({ serverMenu: toServerMenu(entries) });
        notify('app.serverMenu.success', { type: 'success' });
      },
      () => {
        if (!current) return;
        update({ menuFromServer: false });
        notify('app.serverMenu.error', { type: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [needed, dataProvider, notify, update]);
};
