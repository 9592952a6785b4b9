import { MENU_ROUTES } from '../../routes/menu';
import { RESOURCES } from '../../resources';
import { WORKPLACE_TAB, type TabEntry } from './tabModel';

/** The title of the page at `pathname`: its menu label, or its resource's name; none for other paths. */
const titleOf = (pathname: string): string | undefined => {
  const route = MENU_ROUTES.find(({ path }) => path === pathname);
  if (route) return route.labelKey;
  const resource = RESOURCES.find(({ name }) => pathname === `/${name}` || pathname.startsWith(`/${name}/`));
  return resource && `resources.${resource.name}.name`;
};

/**
 * The tab of the page at a location: menu pages and resource pages get one; the redirect, not-found
 * and any other path do not.
 */
export const pageTab = ({ pathname, search }: { pathname: string; search: string }): TabEntry | undefined => {
  const title = titleOf(pathname);
  if (!title) return undefined;
  return {
    title,
    name: pathname,
    fullPath: `${pathname}${search}`,
    query: Object.fromEntries(new URLSearchParams(search)),
    ignoreCache: WORKPLACE_TAB.ignoreCache,
  };
};
