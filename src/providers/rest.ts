import { fetchUtils, HttpError, type DataProvider } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { TokenStore } from './tokenStore';

type Send = (url: string, init: RequestInit) => Promise<Response>;

/**
 * A fetch of the REST API under `/api/v1` with the bearer token and the console's language (the server
 * words its messages in the console's language, not the browser's), answered as react-admin's fetchJson
 * answers: a failure becomes its HttpError (on a 401 the authProvider signs out). `send` is the HTTP
 * client's fetch, so a 429 pauses these calls and the upstream's alike, and the console says so once.
 */
export const createRestFetch =
  (tokens: TokenStore, locale?: () => string, send: Send = (url, init) => fetch(url, init)) =>
  async (url: string, options: fetchUtils.Options = {}) => {
    const token = tokens.get();
    const headers = fetchUtils.createHeadersFromOptions({
      ...options,
      headers: new Headers(options.headers ?? { Accept: 'application/json' }),
      ...(token ? { user: { authenticated: true, token: `Bearer ${token}` } } : {}),
    });
    if (locale) headers.set('Accept-Language', locale());
    const response = await send(url, { ...options, headers });
    const body = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    if (response.status < 200 || response.status >= 300) {
      const message = (json as { message?: unknown } | undefined)?.message;
      throw new HttpError(typeof message === 'string' && message !== '' ? message : response.statusText, response.status, json);
    }
    return { status: response.status, headers: response.headers, body, json };
  };

/** The REST resources under `/api/v1` (alarms, audit log, ...) in ra-data-simple-rest's shape, fetched as above. */
export const createRestProvider = (restBase: string, tokens: TokenStore, locale?: () => string, send?: Send): DataProvider =>
  simpleRestProvider(restBase, createRestFetch(tokens, locale, send));
