import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { Admin, CustomRoutes, memoryStore, Resource } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { AccessCheck } from '../../../mocks/access';
import { canAccess } from '../../../src/domain/policy';
import type { Role } from '../../../src/domain/roles';
import { chinese } from '../../../src/i18n';
import { english } from '../../../src/i18n/en-US';
import { LOCALES, type Locale } from '../../../src/domain/locales';
import { createAuthProvider } from '../../../src/providers/authProvider';
import { createDataProvider } from '../../../src/providers/dataProvider';
import { RESOURCES } from '../../../src/resources';
import type { ConsoleResource } from '../../../src/resources/generate/resource';
import { resourceCatalogues } from '../../../src/resources/i18n';
import { mockSession, REST } from './fixtures';
import { loadLazyViews } from '../lazyViews';

interface Options {
  resources?: readonly ConsoleResource[];
  locale?: Locale;
  account?: string;
  policy?: AccessCheck;
  /** Pages of the console beside the resources (react-admin's custom routes). */
  routes?: ReactNode;
}

/**
 * The generated views in react-admin's `<Admin>`, as App.tsx will wire them: the console's providers
 * against the msw mocks, signed in as `account`, with the resources' messages merged into the catalogues.
 */
export const renderConsole = async (path: string, { resources = RESOURCES, locale = 'zh-CN', account = 'admin', policy = canAccess, routes }: Options = {}) => {
  await loadLazyViews();
  const { http, tokens } = await mockSession(account, locale);
  const auth = createAuthProvider({ http, tokens });
  const authProvider = {
    ...auth,
    canAccess: async ({ action, resource }: { action: string; resource: string }) =>
      policy((await auth.getPermissions()) as Role, { action, resource }),
  };
  const configs = resources.map((resource) => resource.options.config);
  const catalogues = resourceCatalogues(configs);
  // The given resources' labels over the console's own (which also hold labels no resource page has, as the command log's).
  const messagesOf = (l: string) => {
    const [base, own] = [l === 'zh-CN' ? chinese : english, catalogues[l as Locale]];
    return { ...base, ...own, resources: { ...(base.resources as object), ...own.resources } };
  };
  const i18nProvider = polyglotI18nProvider(messagesOf, locale, [...LOCALES]);
  const dataProvider = createDataProvider({ http, tokens, restBase: REST, resources: configs });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Admin
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        queryClient={queryClient}
        store={memoryStore()}
        disableTelemetry
      >
        {resources.map((resource) => (
          <Resource key={resource.name} {...resource} />
        ))}
        {routes && <CustomRoutes>{routes}</CustomRoutes>}
      </Admin>
    </MemoryRouter>,
  );
};
