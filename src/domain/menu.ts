import { canAccess, type PolicyResource } from './policy';
import type { Role } from './roles';

/**
 * The old console's route table with the fixes of docs/product.md, as plain data: the console adds
 * icons and elements (routeTable.tsx); the server answers `/api/user/menu` from the same table.
 */
export const MENU_GROUPS = ['dashboard', 'visualization', 'list', 'other', 'form', 'result', 'user', 'exception'] as const;
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
  { path: '/visualization/data-analysis', resource: 'data-analysis', labelKey: 'app.menu.dataAnalysis', group: 'visualization' },
  {
    path: '/visualization/multi-dimension-data-analysis',
    resource: 'multi-dimension-analysis',
    labelKey: 'app.menu.multiDimensionAnalysis',
    group: 'visualization',
  },
  { path: '/list/oxygen-monitor', resource: 'oxygen-monitor', labelKey: 'app.menu.oxygenMonitor', group: 'list' },
  { path: '/list/device-atts', resource: 'devices', labelKey: 'app.menu.deviceAtts', group: 'list' },
  { path: '/list/readings', resource: 'state-records', labelKey: 'app.menu.readings', group: 'list' },
  { path: '/list/device-manager', resource: 'devices', labelKey: 'app.menu.deviceManager', group: 'list' },
  { path: '/other/order-manager', resource: 'orders', labelKey: 'app.menu.orderManager', group: 'other' },
  { path: '/other/order-list', resource: 'orders', labelKey: 'app.menu.orderList', group: 'other' },
  { path: '/other/manager', resource: 'accounts', labelKey: 'app.menu.userManager', group: 'other' },
  { path: '/form/step', resource: 'channel-form', labelKey: 'app.menu.stepForm', group: 'form' },
  { path: '/form/group', resource: 'channel-form', labelKey: 'app.menu.groupForm', group: 'form' },
  { path: '/result/success', resource: 'form-result', labelKey: 'app.menu.resultSuccess', group: 'result' },
  { path: '/result/error', resource: 'form-result', labelKey: 'app.menu.resultError', group: 'result' },
  { path: '/profile/basic', resource: 'profile-basic', labelKey: 'app.menu.profileBasic', group: 'list' },
  { path: '/user/info', resource: 'user-info', labelKey: 'app.menu.userInfo', group: 'user' },
  { path: '/user/setting', resource: 'user-setting', labelKey: 'app.menu.userSetting', group: 'user' },
  { path: '/exception/403', resource: 'exception-403', labelKey: 'app.menu.exception403', group: 'exception' },
  { path: '/exception/404', resource: 'exception-404', labelKey: 'app.menu.exception404', group: 'exception' },
  { path: '/exception/500', resource: 'exception-500', labelKey: 'app.menu.exception500', group: 'exception' },
] as const satisfies readonly MenuRoute[];

export type MenuPath = (typeof MENU_ROUTES)[number]['path'];

/**
 * The template's own route groups (docs/product.md, "Template pages"): the step and group forms and the
 * result pages their submit ends on. Off unless `VITE_TEMPLATE_PAGES` or an admin's settings drawer turns
 * them on; while off, no menu lists them and their paths show not-found. The server's menu lists them
 * for the roles the policy lets open them; the console leaves out what it has off.
 */
const TEMPLATE_GROUPS: readonly MenuGroup[] = ['form', 'result'];
export const isTemplateRoute = (route: Pick<MenuRoute, 'group'>): boolean => TEMPLATE_GROUPS.includes(route.group);

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
