import { fetchUtils, type DataProvider } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { TokenStore } from './tokenStore';

/**
 * A request to the REST API under `/api/v1` with the bearer token and the console's language (the server
 * words its messages in the console's language, not the browser's). A 401 answer becomes react-admin's
 * HttpError, on which the authProvider signs out.
 */
export const createRestFetch = (tokens: TokenStore, locale?: () => string) => (url: string, options: fetchUtils.Options = {}) => {
  const token = tokens.get();
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  if (locale) headers.set('Accept-Language', locale());
  return fetchUtils.fetchJson(url, {
    ...options,
    headers,
    ...(token ? { user: { authenticated: true, token: `Bearer ${token}` } } : {}),
  });
};

/** The REST resources under `/api/v1` (alarms, audit log, ...) in ra-data-simple-rest's shape, through createRestFetch. */
export const createRestProvider = (restBase: string, tokens: TokenStore, locale?: () => string): DataProvider =>
  simpleRestProvider(restBase, createRestFetch(tokens, locale));
