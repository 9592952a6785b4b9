import { HttpError } from 'react-admin';
import { CODES, isEnvelope } from '../domain/envelope';
import { createBackOff, retryAfterSeconds } from './backOff';
import type { TokenStore } from './tokenStore';

/** Shown when the server gave no message: a translation key, so it reads 'Request Error' / '请求错误'. */
export const REQUEST_ERROR = 'app.http.requestError';

/** A failed upstream call: the envelope's msg (or REQUEST_ERROR) and code, and the HTTP status. */
export class UpstreamError extends HttpError {
  constructor(
    message: string,
    readonly code: number,
    status: number,
    body?: unknown,
  ) {
    super(message, status, body);
    // react-admin's HttpError pins its own prototype; restore ours so `instanceof UpstreamError` holds.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'UpstreamError';
  }
}

type ErrorListener = (error: UpstreamError) => void;
/** Told the seconds the console waits after the server said it calls too often. */
type BackOffListener = (seconds: number) => void;

interface PostOptions {
  /** Do not announce a failure (a sign-out that fails is still a sign-out). */
  quiet?: boolean;
}

/** The same client, but its failures are left to the caller to announce (react-admin's own hooks do). */
export const quietly = (http: HttpClient): HttpClient => ({
  post: (path, body, options) => http.post(path, body, { quiet: true, ...options }),
  onError: (listener) => http.onError(listener),
  onBackOff: (listener) => http.onBackOff(listener),
  fetch: (url, init) => http.fetch(url, init),
});

export interface HttpClient {
  post<T>(path: string, body?: unknown, options?: PostOptions): Promise<T>;
  /** Subscribe to failures; the console shows them as toasts. Returns the unsubscribe function. */
  onError(listener: ErrorListener): () => void;
  /** Subscribe to pauses after a 429 (once per pause); the console says it waits. Returns the unsubscribe function. */
  onBackOff(listener: BackOffListener): () => void;
  /**
   * A plain fetch under the same back-off: it waits out a pause, and a 429 starts one (announced like the
   * envelope's) and is sent once more after it. The REST API's calls go through it (rest.ts).
   */
  fetch(url: string, init: RequestInit): Promise<Response>;
}

export interface HttpClientOptions {
  baseUrl: string;
  tokens: TokenStore;
  /** The language the server should answer messages in. */
  locale: () => string;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * The only code that knows the upstream envelope: adds the bearer header and the language, unwraps
 * `{ data, status, msg, code }`, and turns every failure into an UpstreamError that listeners announce
 * before it is rethrown. After a 429 (the server's rate limit) every call waits the Retry-After it named,
 * and the refused call is sent once more after it (the server refused it before doing anything).
 */
export const createHttpClient = ({ baseUrl, tokens, locale, fetch: fetcher = fetch, now = Date.now }: HttpClientOptions): HttpClient => {
  const listeners = new Set<ErrorListener>();
  const backOffListeners = new Set<BackOffListener>();
  const backOff = createBackOff(now);

  /** Sends once, or twice when the first answer is a 429: the second waits the pause out. */
  const send = async (url: string, init: RequestInit): Promise<Response> => {
    for (let tries = 1; ; tries += 1) {
      await backOff.wait();
      const response = await fetcher(url, init);
      if (response.status !== 429 || tries === 2) return response;
      const seconds = retryAfterSeconds(response);
      if (backOff.pause(seconds)) backOffListeners.forEach((listener) => listener(seconds));
    }
  };

  const fail = (error: UpstreamError, options: PostOptions): never => {
    if (error.code === CODES.notSignedIn) tokens.clear();
    if (!options.quiet) listeners.forEach((listener) => listener(error));
    throw error;
  };

  return {
    async post<T>(path: string, body: unknown = {}, options: PostOptions = {}): Promise<T> {
      const headers = new Headers({
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'Accept-Language': locale(),
      });
      const token = tokens.get();
      if (token) headers.set('Authorization', `Bearer ${token}`);

      let response: Response;
      try {
        response = await send(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      } catch {
        return fail(new UpstreamError(REQUEST_ERROR, CODES.failure, 0), options);
      }
      const payload: unknown = await response.json().catch(() => undefined);
      if (isEnvelope(payload) && payload.code === CODES.ok && response.ok) return payload.data as T;
      const envelope = isEnvelope(payload) ? payload : undefined;
      return fail(
        new UpstreamError(envelope?.msg || REQUEST_ERROR, envelope?.code ?? CODES.failure, response.status, payload),
        options,
      );
    },
    onError(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onBackOff(listener) {
      backOffListeners.add(listener);
      return () => backOffListeners.delete(listener);
    },
    fetch: send,
  };
};
