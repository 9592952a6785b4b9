import { fetchUtils, type DataProvider } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { TokenStore } from './tokenStore';

/**
 * The REST resources under `/api/v1` (alarms, audit log, ...) in ra-data-simple-rest's shape, with the
 * same bearer token as the upstream calls. A 401 answer becomes react-admin's HttpError, on which the
 * authProvider signs out.
 */
export const createRestProvider = (restBase: string, tokens: TokenStore): DataProvider =>
  simpleRestProvider(restBase, (url: string, options: fetchUtils.Options = {}) => {
    const token = tokens.get();
    return fetchUtils.fetchJson(url, token ? { ...options, user: { authenticated: true, token: `Bearer ${token}` } } : options);
  });
