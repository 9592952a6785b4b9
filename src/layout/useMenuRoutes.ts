import { usePermissions } from 'react-admin';
import type { Role } from '../domain/roles';
import { MENU_GROUPS, type MenuGroup } from '../domain/menu';
import { configuredResourcesFor, ROUTES, routesFor, type ConsoleRoute } from '../routes/routeTable';
import type { ServerMenuEntry } from './settings/appSettings';
import { useActiveServerMenu } from './serverMenu/useServerMenu';

const isMenuGroup = (group: string): group is MenuGroup => (MENU_GROUPS as readonly string[]).includes(group);

/** The server's entries, in its order, with its labels and groups: those of screens and groups the console has. */
const serverRoutes = (menu: ServerMenuEntry[]): ConsoleRoute[] =>
  menu.flatMap(({ path, labelKey, group }) => {
    const route = ROUTES.find((candidate) => candidate.path === path);
    return route && isMenuGroup(group) ? [{ ...route, labelKey, group }] : [];
  });

/**
 * What a menu lists (the side menu, and any other menu of the frame): the route table filtered by the
 * role policy and the resources only configuration declares; with the menu from the server in force,
 * the server's entries alone.
 */
export const useMenuRoutes = () => {
  const { permissions: role } = usePermissions<Role>();
  const serverMenu = useActiveServerMenu();
  return serverMenu
    ? { routes: serverRoutes(serverMenu), resources: [] }
    : { routes: routesFor(role), resources: configuredResourcesFor(role) };
};
