import { usePermissions } from 'react-admin';
import type { Role } from '../domain/roles';
import { isTemplateRoute, MENU_GROUPS, type MenuGroup } from '../domain/menu';
import { configuredResourcesFor, ROUTES, routesFor, type ConsoleRoute } from '../routes/routeTable';
import type { ServerMenuEntry } from './settings/appSettings';
import { useActiveServerMenu } from './serverMenu/useServerMenu';
import { useTemplatePages } from './settings/templatePages';

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
 * the server's entries alone; the template's route groups only while they are on.
 */
export const useMenuRoutes = () => {
  const { permissions: role } = usePermissions<Role>();
  const serverMenu = useActiveServerMenu();
  const templatePages = useTemplatePages();
  // No entry leads to a page that is off.
  const shown = (routes: ConsoleRoute[]) => (templatePages ? routes : routes.filter((route) => !isTemplateRoute(route)));
  return serverMenu
    ? { routes: shown(serverRoutes(serverMenu)), resources: [] }
    : { routes: shown(routesFor(role)), resources: configuredResourcesFor(role) };
};
