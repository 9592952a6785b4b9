import { MENU_ROUTES, type UserMenuEntry } from '../../domain/menu';
import type { ServerMenuEntry } from '../settings/appSettings';

/** Open whatever the server's menu says: not-found and sign-in (the old console's whitelist). */
const WHITELIST = ['/exception/404', '/login'];

/** The server's answer as the settings keep it (`name` is the label's translation key). */
export const toServerMenu = (entries: UserMenuEntry[]): ServerMenuEntry[] =>
  entries.map(({ path, name, group }) => ({ path, labelKey: name, group }));

/**
 * With the menu from the server in force, a page opens when the menu names it, when it belongs to the
 * resource a menu entry lists (a device's page under the device manager), or when it is on the whitelist;
 * `/redirect/...` passes, since the page it re-enters is checked in its turn.
 */
export const mayOpenWithServerMenu = (pathname: string, menu: readonly ServerMenuEntry[]): boolean => {
  if (WHITELIST.includes(pathname) || pathname.startsWith('/redirect/')) return true;
  return menu.some(({ path }) => {
    if (path === pathname) return true;
    const resource = MENU_ROUTES.find((route) => route.path === path)?.resource;
    return resource !== undefined && pathname.startsWith(`/${resource}/`);
  });
};
