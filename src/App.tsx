import { Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { Route } from 'react-router-dom';
import { Navigate } from 'react-router-dom';
import { CssBaseline } from '@mui/material';
import { CoreAdminContext, CoreAdminUI, CustomRoutes, Error as ErrorPage, Loading, LoadingPage, Resource } from 'react-admin';
import { defaultConfig, type ConsoleConfig } from './config';
import { ConsoleConfigProvider } from './ConsoleConfigContext';
import { createI18nProvider } from './i18n';
import { createHttpClient } from './providers/httpClient';
import { createAuthProvider, mustSignOut } from './providers/authProvider';
import { lazyDataProvider } from './providers/lazyDataProvider';
import { createLiveConnection, LiveProvider } from './providers/live';
import { RESOURCES } from './resources';
import { RESOURCE_CONFIGS } from './resources/configs';
import { localTokenStore } from './providers/tokenStore';
import { HttpErrorNotifier } from './layout/HttpErrorNotifier';
import { ConsoleTheme } from './layout/settings/ConsoleTheme';
import { consoleStore } from './layout/settings/consoleStore';
import { NavigationProgress } from './layout/NavigationProgress';
import { StackedNotifications } from './layout/StackedNotifications';
import { useScrollToTop } from './layout/useScrollToTop';
import { LoginPage } from './pages/LoginPage';
import { ExceptionPage, ROUTES } from './routes/routeTable';
import { DeviceCardsRedirect } from './pages/deviceAtts/DeviceCardsRedirect';
import { RoleGuard } from './routes/RoleGuard';
import { RedirectPage } from './routes/RedirectPage';
import { lazyView } from './loading/lazyView';

const NotFound = () => <ExceptionPage status={404} />;

// Only the login page is in the first script; the signed-in shell and the help page come when first shown.
const LazyLayout = lazyView(() => import('./layout/ConsoleLayout').then((module) => module.ConsoleLayout));
const AccountHelpPage = lazyView(() => import('./pages/AccountHelpPage').then((module) => module.AccountHelpPage));
const Loaded = ({ children }: { children: ReactNode }) => <Suspense fallback={<Loading />}>{children}</Suspense>;
/** A lazily loaded page outside the layout (which has its own Suspense). */
const outsideLayout = (Page: ComponentType) => () => (
  <Loaded>
    <Page />
  </Loaded>
);
// react-admin's pages for rare outcomes: its AdminUI would put them, and its default layout and login,
// in the first script, so the console uses CoreAdminUI with its own choices.
const AccessDenied = outsideLayout(lazyView(() => import('react-admin').then((module) => module.AccessDenied)));
const AuthCallback = outsideLayout(lazyView(() => import('react-admin').then((module) => module.AuthCallback)));
const AuthenticationError = outsideLayout(lazyView(() => import('react-admin').then((module) => module.AuthenticationError)));
const AccountHelp = outsideLayout(AccountHelpPage);
const ConsoleLayout = ({ children }: { children: ReactNode }) => (
  <Loaded>
    <LazyLayout>{children}</LazyLayout>
  </Loaded>
);

/** The console: providers wired once, routes from the route table; `config` overrides the defaults. */
export const App = ({ config: overrides = {} }: { config?: Partial<ConsoleConfig> }) => {
  const config = useMemo(() => ({ ...defaultConfig, ...overrides }), [overrides]);
  const i18nProvider = useMemo(() => createI18nProvider(), []);
  useScrollToTop();
  const { http, authProvider, dataProvider, store, queryClient, live } = useMemo(() => {
    const tokens = localTokenStore(config.tokenKey);
    const locale = () => i18nProvider.getLocale();
    const http = createHttpClient({ baseUrl: config.upstreamBase, tokens, locale });
    // A lost session is final: retrying it would only delay the sign-out by react-query's back-off.
    const queryClient = new QueryClient({
      defaultOptions: { queries: { retry: (count, error) => count < 3 && !mustSignOut(error) } },
    });
    return {
      http,
      authProvider: createAuthProvider({ http, tokens }),
      dataProvider: lazyDataProvider({ http, restBase: config.restBase, tokens, resources: RESOURCE_CONFIGS, locale }),
      store: consoleStore(),
      queryClient,
      // Out here, so react-admin's re-mount on a language switch resumes the stream rather than starting over.
      live: createLiveConnection({ url: `${config.restBase}/live`, tokens }),
    };
  }, [config.tokenKey, config.upstreamBase, config.restBase, i18nProvider]);


  return (
    <ConsoleConfigProvider value={config}>
      {/* react-admin's AdminContext, except that the themes follow the settings kept in its Store. */}
      <CoreAdminContext
        authProvider={authProvider}
        dataProvider={dataProvider}
        queryClient={queryClient} i18nProvider={i18nProvider} store={store}>
        <ConsoleTheme>
        <LiveProvider connection={live}>
        <HttpErrorNotifier http={http} live={live} />
        <NavigationProgress />
        <CssBaseline enableColorScheme>
        <CoreAdminUI
          title="app.title"
          loginPage={LoginPage}
          layout={ConsoleLayout}
          catchAll={NotFound}
          accessDenied={AccessDenied}
          authCallbackPage={AuthCallback}
          authenticationError={AuthenticationError}
          error={ErrorPage}
          loading={LoadingPage}
          requireAuth
          disableTelemetry
        >
        <CustomRoutes noLayout>
          <Route path="/" element={<Navigate to="/login" replace />} />
          <Route path="/account-help" element={<AccountHelp />} />
        </CustomRoutes>
        <CustomRoutes>
          {ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={<RoleGuard route={route}>{route.element}</RoleGuard>} />
          ))}
          <Route path="/redirect/*" element={<RedirectPage />} />
          {/* The template's own path of the oxygen cabin status search table. */}
          <Route path="/list/search-table" element={<Navigate to="/list/oxygen-monitor" replace />} />
          {/* The template's card list: the device status page's card view. */}
          <Route path="/list/card" element={<DeviceCardsRedirect />} />
        </CustomRoutes>
        {RESOURCES.map((resource) => (
          <Resource key={resource.name} {...resource} />
        ))}
        </CoreAdminUI>
        <StackedNotifications />
        </CssBaseline>
        </LiveProvider>
        </ConsoleTheme>
      </CoreAdminContext>
    </ConsoleConfigProvider>
  );
};
