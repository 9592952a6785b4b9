import { createElement, isValidElement, type ReactElement } from 'react';
import { ResourceContextProvider } from 'react-admin';
import type { SvgIconComponent } from '@mui/icons-material';
import { canAccess } from '../domain/policy';
import type { Role } from '../domain/roles';
import { lazyView } from '../loading/lazyView';
import { RESOURCES } from '../resources';
import { MENU_ROUTES, mayOpenRoute, type MenuPath, type MenuRoute } from '../domain/menu';
import { ROUTE_ICONS } from './routeIcons';

// Each page is its own chunk, fetched when first opened (the layout's Suspense shows meanwhile).
const WorkplacePage = lazyView(() => import('../pages/WorkplacePage').then((module) => module.WorkplacePage));
const MonitorDashboardPage = lazyView(() => import('../pages/monitorDashboard/MonitorDashboardPage').then((module) => module.MonitorDashboardPage));
const DeviceAttsPage = lazyView(() => import('../pages/deviceAtts/DeviceAttsPage').then((module) => module.DeviceAttsPage));
const DataAnalysisPage = lazyView(() => import('../pages/analysis/DataAnalysisPage').then((module) => module.DataAnalysisPage));
const MultiDimensionPage = lazyView(() => import('../pages/analysis/MultiDimensionPage').then((module) => module.MultiDimensionPage));
const OxygenMonitorPage = lazyView(() => import('../pages/OxygenMonitor/OxygenMonitorPage').then((module) => module.OxygenMonitorPage));
const UserInfoPage = lazyView(() => import('../pages/userInfo/UserInfoPage').then((module) => module.UserInfoPage));
const UserSettingPage = lazyView(() => import('../pages/userSetting/UserSettingPage').then((module) => module.UserSettingPage));
const ProfileBasicPage = lazyView(() => import('../resources/setting-requests/ProfileBasicPage').then((module) => module.ProfileBasicPage));
const OrderManager = lazyView(() => import('../resources/orders/OrderManager').then((module) => module.OrderManager));
const StepFormPage = lazyView(() => import('../pages/templateForms/StepFormPage').then((module) => module.StepFormPage));
const GroupFormPage = lazyView(() => import('../pages/templateForms/GroupFormPage').then((module) => module.GroupFormPage));
const ResultSuccessPage = lazyView(() => import('../pages/templateForms/ResultSuccessPage').then((module) => module.ResultSuccessPage));
const ResultErrorPage = lazyView(() => import('../pages/templateForms/ResultErrorPage').then((module) => module.ResultErrorPage));
export const ExceptionPage = lazyView(() => import('../pages/ExceptionPage').then((module) => module.ExceptionPage));

/** One screen of the console: a route of the table (src/domain/menu.ts) with its menu icon and element. */
export interface ConsoleRoute extends MenuRoute {
  icon: SvgIconComponent;
  element: ReactElement;
}

/** A path of the old console that shows a resource's list; its records' pages stay under the resource's own routes. */
const resourceList = (name: string): ReactElement => {
  const resource = RESOURCES.find((candidate) => candidate.name === name);
  if (!resource) throw new Error(`the route table names the unknown resource "${name}"`);
  const { list } = resource;
  return <ResourceContextProvider value={name}>{isValidElement(list) ? list : createElement(list)}</ResourceContextProvider>;
};

const SCREENS: Record<MenuPath, ReactElement> = {
  '/dashboard/workplace': <WorkplacePage />,
  '/dashboard/monitor': <MonitorDashboardPage />,
  '/visualization/data-analysis': <DataAnalysisPage />,
  '/visualization/multi-dimension-data-analysis': <MultiDimensionPage />,
  '/list/oxygen-monitor': <OxygenMonitorPage />,
  '/list/device-atts': <DeviceAttsPage />,
  '/list/readings': resourceList('state-records'),
  '/list/device-manager': resourceList('devices'),
  // The orders list with booking and cancelling (docs/orders.md); the order list is the plain list.
  '/other/order-manager': (
    <ResourceContextProvider value="orders">
      <OrderManager />
    </ResourceContextProvider>
  ),
  '/other/order-list': resourceList('orders'),
  '/other/manager': resourceList('accounts'),
  '/form/step': <StepFormPage />,
  '/form/group': <GroupFormPage />,
  '/result/success': <ResultSuccessPage />,
  '/result/error': <ResultErrorPage />,
  '/profile/basic': <ProfileBasicPage />,
  '/user/info': <UserInfoPage />,
  '/user/setting': <UserSettingPage />,
  '/exception/403': <ExceptionPage status={403} />,
  '/exception/404': <ExceptionPage status={404} />,
  '/exception/500': <ExceptionPage status={500} />,
};

/** The old console's route table with the fixes of docs/product.md; order is menu order. */
export const ROUTES: ConsoleRoute[] = MENU_ROUTES.map((route) => ({ ...route, icon: ROUTE_ICONS[route.path], element: SCREENS[route.path] }));

/** `list` on a page's policy entry means "may open it". */
export const mayOpen = mayOpenRoute;

export const routesFor = (role: Role | undefined): ConsoleRoute[] => ROUTES.filter((route) => mayOpen(role, route));

/**
 * Resources declared by configuration that no path of the old console shows: they get a menu entry of their own at
 * `/<name>`, in the group and order their configuration names, for the roles allowed its menu action (reading it,
 * unless the configuration names another: the device types are in the menu of who may edit them).
 */
export const configuredResourcesFor = (role: Role | undefined, resources = RESOURCES, access = canAccess) =>
  resources
    .filter(({ name }) => !ROUTES.some((route) => route.resource === name))
    .filter(({ name, options }) => access(role, { action: options.config.menu.action ?? 'list', resource: name }))
    .sort((a, b) => a.options.config.menu.order - b.options.config.menu.order);
