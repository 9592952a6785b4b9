import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Envelope } from '../../src/domain/envelope';

/** Small helpers around app.inject for the upstream's POST calls. */

export interface CallOptions {
  token?: string;
  /** Accept-Language header; omitted when undefined. */
  lang?: string;
  /** The client address the server sees. */
  address?: string;
  headers?: Record<string, string>;
}

export const prefix = '/upstream';

export const call = (
  app: FastifyInstance,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'POST',
    url: `${prefix}${path}`,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(options.lang === undefined ? {} : { 'accept-language': options.lang }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    ...(options.address === undefined ? {} : { remoteAddress: options.address }),
  });

export const envelope = <T = unknown>(response: LightMyRequestResponse): Envelope<T> => response.json<Envelope<T>>();

export interface LoginData {
  State: boolean;
  Account?: string;
  Level?: number;
  token?: string;
  expiresAt?: string;
  mustChangeCode?: boolean;
}

export const login = (app: FastifyInstance, Account: string, Code: string, options: CallOptions = {}) =>
  call(app, '/login', { Account, Code }, options);

/** Signs in and returns the token; fails the test when sign-in does not succeed. */
export const tokenFor = async (app: FastifyInstance, Account: string, Code: string): Promise<string> => {
  const response = await login(app, Account, Code);
  const body = envelope<LoginData>(response);
  if (!body.data.State || body.data.token === undefined) {
    throw new Error(`sign-in of ${Account} failed: ${response.body}`);
  }
  return body.data.token;
};

export const DEMO = {
  admin: { Account: 'admin', Code: 'Admin2026' },
  first: { Account: 'first', Code: 'First2026' },
  second: { Account: 'second', Code: 'Second2026' },
  client: { Account: 'client', Code: 'Client2026' },
} as const;
