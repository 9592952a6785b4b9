import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { historyQuerySchema } from '../../src/domain/history';
import { devicesConfig } from '../../src/resources/devices/config';
import { deviceIdSchema } from '../../src/resources/devices/requests';
import { requireAccess, signedIn } from '../auth/guard';
import type { ZodTypeProvider } from '../http/validation';
import { readHistory } from './history';

const historyParams = z.strictObject({ Id: deviceIdSchema });

/**
 * `GET /api/v1/devices/:Id/history?from&to&points` (docs/monitoring.md, "History"): the chamber's
 * readings over [from, to) as at most `points` buckets per reading (src/domain/history.ts). Whoever may
 * see the device may read it (policy devices/show); a device out of scope answers 404 like a missing one.
 */
export const historyRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/devices/:Id/history',
    { schema: { params: historyParams, querystring: historyQuerySchema }, onRequest: requireAccess({ resource: devicesConfig.name, action: 'show' }) },
    async (request) => readHistory(app.ctx, signedIn(request), request.params.Id, request.query),
  );
};
