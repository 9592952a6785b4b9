import fp from 'fastify-plugin';
import { auditRoutes } from '../audit/routes';
import { alarmRoutes } from '../alarms/routes';
import { deviceRestRoutes } from '../devices/rest';
import { fleetRoutes } from '../fleet/routes';
import { historyRoutes } from '../history/routes';
import { livePlugin } from '../live/plugin';
import { notificationRoutes } from '../notifications/routes';
import { orderRestRoutes } from '../orders/rest';
import { servedBy } from '../resources/registry';
import { statsRoutes } from '../stats/routes';
import { settingRequestRoutes } from '../setting-requests/routes';
import { restErrorHandler, restNotFound } from './errors';
import { registerRestList } from './list';
import { registerRestWrites } from './writes';

/** Where the REST API is mounted (docs/product.md: resources the old upstream did not have, under /api/v1). */
export const REST_PREFIX = '/api/v1';

/**
 * The REST API, registered under REST_PREFIX, in the shape ra-data-simple-rest expects (docs/audit.md,
 * docs/server-devices.md): lists as JSON arrays with `Content-Range`, records as JSON, failures as the
 * HTTP status + `{ message, code }` with the message in the caller's language. The same bearer token
 * and policy as the upstream contract. Unknown paths under the prefix answer 404 in that shape.
 * Encapsulated: its error and not-found handlers stay under the prefix.
 */
export const restPlugin = fp(
  async (app) => {
    app.setErrorHandler(restErrorHandler);
    app.setNotFoundHandler(restNotFound);
    // The console's static files answer every GET below `/` (a wildcard route, server/console/plugin.ts); this
    // more specific wildcard keeps unknown REST paths, any method, in the REST shape.
    app.all('/', restNotFound);
    app.all('/*', restNotFound);
    await app.register(deviceRestRoutes);
    await app.register(historyRoutes);
    await app.register(alarmRoutes);
    await app.register(notificationRoutes);
    await app.register(orderRestRoutes);
    await app.register(livePlugin);
    await app.register(fleetRoutes);
    await app.register(statsRoutes);
    await app.register(auditRoutes);
    await app.register(settingRequestRoutes);
    // Every REST list (the audit log, the command log, ...) from the registry: GET /<path> and /<path>/:id; and
    // the derived writes of those with `writes` (the device types' edit): POST /<path>, PUT and DELETE /<path>/:id.
    for (const resource of servedBy('rest')) {
      registerRestList(app, resource);
      registerRestWrites(app, resource);
    }
  },
  { name: 'oxygen-rest', fastify: '5.x', encapsulate: true, dependencies: ['oxygen-context', 'oxygen-http', 'oxygen-auth'] },
);
