import { canAccess } from '../../domain/policy';
import type { Role } from '../../domain/roles';
import { MENU_ROUTES, mayOpenRoute } from '../../domain/menu';
import { RESOURCES } from '../../resources';
import { WORKPLACE_TAB, type TabEntry } from './tabModel';

/**
 * The title of the page at `pathname` if the role may open it: its menu label, or its resource's name.
 * A page the role may not open gets none, since its guard sends the user elsewhere at once.
 */
const titleOf = (pathname: string, role: Role | undefined): string | undefined => {
  const route = MENU_ROUTES.find(({ path }) => path === pathname);
  if (route) return mayOpenRoute(role, route) ? route.labelKey : undefined;
  const resource = RESOURCES.find(({ name }) => pathname === `/${name}` || pathname.startsWith(`/${name}/`));
  return resource && canAccess(role, { action: 'list', resource: resource.name }) ? `resources.${resource.name}.name` : undefined;
};

/**
 * The tab of the page at a location: menu pages and resource pages the role may open get one; the
 * redirect, not-found and any other path do not.
 */
export const pageTab = ({ pathname, search }: { pathname: string; search: string }, role: Role | undefined): TabEntry | undefined => {
  const title = titleOf(pathname, role);
  if (!title) return undefined;
  return {
    title,
    name: pathname,
    fullPath: `${pathname}${search}`,
    query: Object.fromEntries(new URLSearchParams(search)),
    ignoreCache: WORKPLACE_TAB.ignoreCache,
  };
};
