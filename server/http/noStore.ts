import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { REST_PREFIX } from '../rest/plugin';

/**
 * `Cache-Control: no-store` on every answer of the API (the upstream contract and the REST API), failures
 * included: each is one account's data, and some carry a token (sign-in), a device secret (a device's
 * registration, its secret's rotation) or a password (an administrator's reset), which no browser or proxy
 * cache may keep. An answer that set its own Cache-Control keeps it (the live stream's).
 */
export const noStorePlugin = fp(
  async (app: FastifyInstance) => {
    const { apiPrefix } = app.ctx.config;
    const prefixes = [`${apiPrefix}/`, `${REST_PREFIX}/`];
    app.addHook('onSend', async (request, reply, payload) => {
      const path = request.url.split('?', 1)[0] ?? '';
      if (!reply.hasHeader('cache-control') && prefixes.some((prefix) => path.startsWith(prefix))) void reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'oxygen-no-store', fastify: '5.x', dependencies: ['oxygen-context'] },
);
