import { createElement, isValidElement, type ReactElement } from 'react';
import { ResourceContextProvider } from 'react-admin';
import type { SvgIconComponent } from '@mui/icons-material';
import DashboardIcon from '@mui/icons-material/Dashboard';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import SensorsIcon from '@mui/icons-material/Sensors';
import DevicesIcon from '@mui/icons-material/DevicesOther';
import AssignmentIcon from '@mui/icons-material/Assignment';
import ListAltIcon from '@mui/icons-material/ListAlt';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import PersonIcon from '@mui/icons-material/Person';
import SettingsIcon from '@mui/icons-material/Settings';
import BlockIcon from '@mui/icons-material/Block';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import ErrorIcon from '@mui/icons-material/ErrorOutline';
import { canAccess } from '../domain/policy';
import type { Role } from '../domain/roles';
import { lazyView } from '../lazyView';
import { RESOURCES } from '../resources';
import { MENU_ROUTES, mayOpenRoute, type MenuPath, type MenuRoute } from './menu';

export { MENU_GROUPS, type MenuGroup } from './menu';

// Each page is its own chunk, fetched when first opened (the layout's Suspense shows meanwhile).
const WorkplacePage = lazyView(() => import('../pages/WorkplacePage').then((module) => module.WorkplacePage));
const PlannedPage = lazyView(() => import('../pages/PlannedPage').then((module) => module.PlannedPage));
const UserSettingPage = lazyView(() => import('../pages/UserSettingPage').then((module) => module.UserSettingPage));
export const ExceptionPage = lazyView(() => import('../pages/ExceptionPage').then((module) => module.ExceptionPage));

/** One screen of the console: a route of the table (menu.ts) with its menu icon and element. */
export interface ConsoleRoute extends MenuRoute {
  icon: SvgIconComponent;
  element: ReactElement;
}

const planned = (labelKey: string) => <PlannedPage labelKey={labelKey} />;

/** A spec path that shows a resource's list; its records' pages stay under the resource's own routes. */
const resourceList = (name: string): ReactElement => {
  const resource = RESOURCES.find((candidate) => candidate.name === name);
  if (!resource) throw new Error(`the route table names the unknown resource "${name}"`);
  const { list } = resource;
  return <ResourceContextProvider value={name}>{isValidElement(list) ? list : createElement(list)}</ResourceContextProvider>;
};

const SCREENS: Record<MenuPath, { icon: SvgIconComponent; element: ReactElement }> = {
  '/dashboard/workplace': { icon: DashboardIcon, element: <WorkplacePage /> },
  '/list/oxygen-monitor': { icon: MonitorHeartIcon, element: planned('app.menu.oxygenMonitor') },
  '/list/device-atts': { icon: SensorsIcon, element: resourceList('state-records') },
  '/list/device-manager': { icon: DevicesIcon, element: resourceList('devices') },
  '/other/order-manager': { icon: AssignmentIcon, element: resourceList('orders') },
  '/other/order-list': { icon: ListAltIcon, element: resourceList('orders') },
  '/other/manager': { icon: ManageAccountsIcon, element: resourceList('accounts') },
  '/user/info': { icon: PersonIcon, element: planned('app.menu.userInfo') },
  '/user/setting': { icon: SettingsIcon, element: <UserSettingPage /> },
  '/exception/403': { icon: BlockIcon, element: <ExceptionPage status={403} /> },
  '/exception/404': { icon: SearchOffIcon, element: <ExceptionPage status={404} /> },
  '/exception/500': { icon: ErrorIcon, element: <ExceptionPage status={500} /> },
};

/** The spec's route table with the fixes of decisions.md; order is menu order. */
export const ROUTES: ConsoleRoute[] = MENU_ROUTES.map((route) => ({ ...route, ...SCREENS[route.path] }));

/** `list` on a page's policy entry means "may open it". */
export const mayOpen = mayOpenRoute;

export const routesFor = (role: Role | undefined): ConsoleRoute[] => ROUTES.filter((route) => mayOpen(role, route));

/**
 * Resources declared by configuration that no spec path shows: they get a menu entry of their own at
 * `/<name>`, in the group and order their configuration names.
 */
export const configuredResourcesFor = (role: Role | undefined, resources = RESOURCES, access = canAccess) =>
  resources
    .filter(({ name }) => !ROUTES.some((route) => route.resource === name))
    .filter(({ name }) => access(role, { action: 'list', resource: name }))
    .sort((a, b) => a.options.config.menu.order - b.options.config.menu.order);
