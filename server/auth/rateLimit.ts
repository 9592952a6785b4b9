import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CODES } from '../../src/domain/envelope';
import { AppError } from '../http/envelope';
import { REST_PREFIX } from '../rest/plugin';
import { addressKey } from './throttle';
import { bearerToken, resolveToken } from './tokens';

/**
 * Rate limits on the whole API (docs/server-auth.md, "Rate limits"), with @fastify/rate-limit: per minute,
 * API_RATE_PER_MINUTE calls per session (a live token), and API_RATE_PER_ADDRESS_PER_MINUTE calls per client
 * address (its /64 for IPv6) for calls without one: sign-in, and calls with a missing, dead or made-up
 * token, which would otherwise each get a bucket of their own. Past it: HTTP 429, code 42900 in the
 * answer's shape (the upstream's envelope, the REST API's `{ message, code }`) and `Retry-After` in
 * seconds. Static files and /healthz are not limited. Counters live in the process: with WORKERS > 1 each
 * worker counts its own share.
 */

const WINDOW_MS = 60_000;

const SESSION_KEY = 'session:';
const ADDRESS_KEY = 'address:';
/** Requests outside the API share this key, which the allow list lets through. */
const OUTSIDE_API = 'outside';

const underApi = (url: string, apiPrefix: string): boolean => {
  const path = url.split('?', 1)[0] ?? '';
  return path === apiPrefix || path.startsWith(`${apiPrefix}/`) || path === REST_PREFIX || path.startsWith(`${REST_PREFIX}/`);
};

/**
 * The bucket of a request: its session when its token is live (resolved here once; the route's guard reuses
 * `request.account`), else its address.
 */
const bucketOf = async (request: FastifyRequest): Promise<string> => {
  const { ctx } = request.server;
  if (!underApi(request.url, ctx.config.apiPrefix)) return OUTSIDE_API;
  const token = bearerToken(request.headers.authorization);
  const account = token === undefined ? undefined : await resolveToken(ctx, token);
  if (account === undefined) return `${ADDRESS_KEY}${addressKey(request.ip)}`;
  request.account = account;
  return `${SESSION_KEY}${account.tokenHash}`;
};

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app.ctx;
    await app.register(rateLimit, {
      // Not per route: a route's own hooks (its guard) would run first, and a refused token would never count.
      global: false,
      timeWindow: WINDOW_MS,
      keyGenerator: bucketOf,
      allowList: (_request, key) => key === OUTSIDE_API,
      max: (_request, key) => (key.startsWith(SESSION_KEY) ? config.apiRatePerMinute : config.apiRatePerAddressPerMinute),
      errorResponseBuilder: (_request, context) =>
        new AppError(CODES.tooManyAttempts, 'tooManyRequests', { seconds: Math.max(1, Math.ceil(context.ttl / 1000)) }),
    });
    // Every request, before any route's hook.
    app.addHook('onRequest', app.rateLimit());
  },
  { name: 'oxygen-rate-limit', fastify: '5.x', dependencies: ['oxygen-context', 'oxygen-auth'] },
);
