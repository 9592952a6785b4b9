import type { DataProvider } from 'react-admin';
import { ACCOUNT_COMMANDS } from '../resources/accounts/config';
import { DEVICE_COMMANDS, type DeviceState } from '../resources/devices/config';
import { findResource } from '../resources/model';
import type { ResourceConfig } from '../resources/types';
import { quietly, type HttpClient } from './httpClient';
import { createRestProvider } from './rest';
import type { TokenStore } from './tokenStore';
import { createUpstreamProvider } from './upstream';

export interface DataProviderOptions {
  http: HttpClient;
  restBase: string;
  tokens: TokenStore;
  resources: readonly ResourceConfig[];
}

const METHODS = [
  'getList',
  'getOne',
  'getMany',
  'getManyReference',
  'create',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
] as const;
type Method = (typeof METHODS)[number];
type Call = (resource: string, params: unknown) => Promise<unknown>;

/**
 * The console's one data provider: each resource goes to the upstream or the REST adapter as its
 * configuration says (a REST resource under its `path`), and the upstream's commands are custom methods.
 */
export const createDataProvider = ({ http, restBase, tokens, resources }: DataProviderOptions) => {
  // react-admin announces failed data calls itself; the HTTP client announces only the custom methods'.
  const upstream: DataProvider = createUpstreamProvider(quietly(http), resources);
  const rest = createRestProvider(restBase, tokens);

  const route = (method: Method): Call => async (resource, params) => {
    const config = findResource(resources, resource);
    const [adapter, name] = config.adapter === 'upstream' ? [upstream, resource] : [rest, config.path ?? resource];
    // Every adapter method has react-admin's (resource, params) signature; only the record types differ.
    return (adapter[method] as Call)(name, params);
  };

  return {
    ...(Object.fromEntries(METHODS.map((method) => [method, route(method)])) as Pick<DataProvider, Method>),
    changePermission: async ({ Id }: { Id: string }): Promise<void> => {
      await http.post(DEVICE_COMMANDS.changePermission, { Id });
    },
    changeState: async ({ Id, State }: { Id: string; State: DeviceState }): Promise<void> => {
      await http.post(DEVICE_COMMANDS.changeState, { Id, State });
    },
    /** The new password is shown once to the administrator; the account must change it at next sign-in. */
    resetPassword: ({ Account }: { Account: string }) => http.post<{ NewCode: string }>(ACCOUNT_COMMANDS.resetPassword, { Account }),
    changeOwnPassword: async ({ OldCode, NewCode }: { OldCode: string; NewCode: string }): Promise<void> => {
      await http.post(ACCOUNT_COMMANDS.changeOwnPassword, { OldCode, NewCode });
    },
  } satisfies DataProvider;
};

/** `useDataProvider<ConsoleDataProvider>()` sees the custom methods. */
export type ConsoleDataProvider = ReturnType<typeof createDataProvider>;
