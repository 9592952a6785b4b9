import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './accounts/routes';
import { authRoutes } from './auth/routes';
import { deviceRoutes } from './devices/routes';
import { upstreamNotFound } from './http/plugin';
import { orderRoutes } from './orders/routes';
import { telemetryRoutes } from './telemetry/routes';

/**
 * The upstream contract, registered under API_PREFIX: one route plugin per concern (sign-in, accounts,
 * devices, orders, state records). Unknown paths under the prefix answer 40400.
 */
export const upstreamPlugin: FastifyPluginAsync = async (app) => {
  app.setNotFoundHandler(upstreamNotFound);
  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(deviceRoutes);
  await app.register(orderRoutes);
  await app.register(telemetryRoutes);
};
