import { fetchUtils, type DataProvider } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { TokenStore } from './tokenStore';

/**
 * The REST resources under `/api/v1` (alarms, audit log, ...) in ra-data-simple-rest's shape, with the
 * same bearer token and language as the upstream calls (the server words its messages in the console's
 * language, not the browser's). A 401 answer becomes react-admin's HttpError, on which the authProvider
 * signs out. `restFetch` is the same call for the REST API's own actions (booking, a session report).
 */
export const restFetch =
  (tokens: TokenStore, locale?: () => string) =>
  (url: string, options: fetchUtils.Options = {}) => {
    const token = tokens.get();
    const headers = new Headers(options.headers ?? { Accept: 'application/json' });
    if (locale) headers.set('Accept-Language', locale());
    return fetchUtils.fetchJson(url, {
      ...options,
      headers,
      ...(token ? { user: { authenticated: true, token: `Bearer ${token}` } } : {}),
    });
  };

export const createRestProvider = (restBase: string, tokens: TokenStore, locale?: () => string): DataProvider =>
  simpleRestProvider(restBase, restFetch(tokens, locale));
