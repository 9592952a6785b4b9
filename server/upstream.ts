import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/routes';
import { upstreamNotFound } from './http/plugin';

/**
 * The upstream contract, registered under API_PREFIX. Later issues register their route plugins
 * (devices, orders, accounts, …) here too. Unknown paths under the prefix answer 40400.
 */
export const upstreamPlugin: FastifyPluginAsync = async (app) => {
  app.setNotFoundHandler(upstreamNotFound);
  await app.register(authRoutes);
};
