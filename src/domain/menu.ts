import { canAccess, type PolicyResource } from './policy';
import type { Role } from './roles';

/**
 * The old console's route table with the fixes of docs/product.md, as plain data: the console adds
 * icons and elements (routeTable.tsx); the server answers `/api/user/menu` from the same table.
 */
export const MENU_GROUPS = ['dashboard', 'list', 'other', 'user', 'exception'] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];

/** One screen: its path, the policy entry that decides who may open it, and its menu entry. */
export interface MenuRoute {
  path: string;
  resource: PolicyResource;
  labelKey: string;
  group: MenuGroup;
}

/** Order is menu order. */
export const MENU_ROUTES = [
  { path: '/dashboard/workplace', resource: 'workplace', labelKey: 'app.menu.workplace', group: 'dashboard' },
  { path: '/dashboard/monitor', resource: 'monitor-dashboard', labelKey: 'app.menu.monitorDashboard', group: 'dashboard' },
  { path: '/list/oxygen-monitor', resource: 'oxygen-monitor', labelKey: 'app.menu.oxygenMonitor', group: 'list' },
  { path: '/list/device-atts', resource: 'devices', labelKey: 'app.menu.deviceAtts', group: 'list' },
  { path: '/list/readings', resource: 'state-records', labelKey: 'app.menu.readings', group: 'list' },
  { path: '/list/device-manager', resource: 'devices', labelKey: 'app.menu.deviceManager', group: 'list' },
  { path: '/other/order-manager', resource: 'orders', labelKey: 'app.menu.orderManager', group: 'other' },
  { path: '/other/order-list', resource: 'orders', labelKey: 'app.menu.orderList', group: 'other' },
  { path: '/other/manager', resource: 'accounts', labelKey: 'app.menu.userManager', group: 'other' },
  { path: '/profile/basic', resource: 'profile-basic', labelKey: 'app.menu.profileBasic', group: 'list' },
  { path: '/user/info', resource: 'user-info', labelKey: 'app.menu.userInfo', group: 'user' },
  { path: '/user/setting', resource: 'user-setting', labelKey: 'app.menu.userSetting', group: 'user' },
  { path: '/exception/403', resource: 'exception-403', labelKey: 'app.menu.exception403', group: 'exception' },
  { path: '/exception/404', resource: 'exception-404', labelKey: 'app.menu.exception404', group: 'exception' },
  { path: '/exception/500', resource: 'exception-500', labelKey: 'app.menu.exception500', group: 'exception' },
] as const satisfies readonly MenuRoute[];

export type MenuPath = (typeof MENU_ROUTES)[number]['path'];

/** `list` on a page's policy entry means "may open it". */
export const mayOpenRoute = (role: Role | undefined, route: MenuRoute): boolean =>
  canAccess(role, { action: 'list', resource: route.resource });

/** The screens `role` may open, in menu order, each with its literal path. */
export const menuRoutesFor = (role: Role | undefined) => MENU_ROUTES.filter((route) => mayOpenRoute(role, route));

/** The upstream call that answers the menu of the signed-in account's role. */
export const USER_MENU_PATH = '/api/user/menu';

/** One entry of `/api/user/menu`, as the server answers it: `name` is the console's label key. */
export interface UserMenuEntry {
  path: string;
  name: string;
  group: string;
}

/** `/api/user/menu`'s answer for a role: the screens it may open, in menu order (server and mocks). */
export const userMenuFor = (role: Role | undefined): UserMenuEntry[] =>
  menuRoutesFor(role).map(({ path, labelKey, group }) => ({ path, name: labelKey, group }));
