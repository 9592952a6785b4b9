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
import { canAccess, type PolicyResource } from '../domain/policy';
import type { Role } from '../domain/roles';
import { WorkplacePage } from '../pages/WorkplacePage';
import { PlannedPage } from '../pages/PlannedPage';
import { ExceptionPage } from '../pages/ExceptionPage';
import { RESOURCES } from '../resources';

export const MENU_GROUPS = ['dashboard', 'list', 'other', 'user', 'exception'] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];

/** One screen of the console: its path, the policy entry that decides who may open it, and its menu entry. */
export interface ConsoleRoute {
  path: string;
  resource: PolicyResource;
  labelKey: string;
  group: MenuGroup;
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

/** The spec's route table (point 2) with the fixes of decisions.md; order is menu order. */
export const ROUTES: ConsoleRoute[] = [
  { path: '/dashboard/workplace', resource: 'workplace', labelKey: 'app.menu.workplace', group: 'dashboard', icon: DashboardIcon, element: <WorkplacePage /> },
  { path: '/list/oxygen-monitor', resource: 'oxygen-monitor', labelKey: 'app.menu.oxygenMonitor', group: 'list', icon: MonitorHeartIcon, element: planned('app.menu.oxygenMonitor') },
  { path: '/list/device-atts', resource: 'state-records', labelKey: 'app.menu.deviceAtts', group: 'list', icon: SensorsIcon, element: resourceList('state-records') },
  { path: '/list/device-manager', resource: 'devices', labelKey: 'app.menu.deviceManager', group: 'list', icon: DevicesIcon, element: resourceList('devices') },
  { path: '/other/order-manager', resource: 'orders', labelKey: 'app.menu.orderManager', group: 'other', icon: AssignmentIcon, element: resourceList('orders') },
  { path: '/other/order-list', resource: 'orders', labelKey: 'app.menu.orderList', group: 'other', icon: ListAltIcon, element: resourceList('orders') },
  { path: '/other/manager', resource: 'accounts', labelKey: 'app.menu.userManager', group: 'other', icon: ManageAccountsIcon, element: resourceList('accounts') },
  { path: '/user/info', resource: 'user-info', labelKey: 'app.menu.userInfo', group: 'user', icon: PersonIcon, element: planned('app.menu.userInfo') },
  { path: '/user/setting', resource: 'user-setting', labelKey: 'app.menu.userSetting', group: 'user', icon: SettingsIcon, element: planned('app.menu.userSetting') },
  { path: '/exception/403', resource: 'exception-403', labelKey: 'app.menu.exception403', group: 'exception', icon: BlockIcon, element: <ExceptionPage status={403} /> },
  { path: '/exception/404', resource: 'exception-404', labelKey: 'app.menu.exception404', group: 'exception', icon: SearchOffIcon, element: <ExceptionPage status={404} /> },
  { path: '/exception/500', resource: 'exception-500', labelKey: 'app.menu.exception500', group: 'exception', icon: ErrorIcon, element: <ExceptionPage status={500} /> },
];

/** `list` on a page's policy entry means "may open it". */
export const mayOpen = (role: Role | undefined, route: ConsoleRoute): boolean =>
  canAccess(role, { action: 'list', resource: route.resource });

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
