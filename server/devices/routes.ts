import type { FastifyPluginAsync } from 'fastify';
import { devicesConfig } from '../../src/resources/devices/config';
import { requireAccess, signedIn } from '../auth/guard';
import { ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { registerListRoute, upstreamPath } from '../lists/route';
import { deviceListing, listDevices } from './list';
import { deviceEditBody, deviceEditProblems, updateDevice } from './update';

/**
 * Device calls of the upstream contract, relative to API_PREFIX, paths from the configuration:
 *   POST /list/get_OCProperty       the devices in the caller's scope (every role)
 *   POST /device/update_OCProperty  { Id, name, Type, Location } → the device as the list answers it
 *                                   (policy: devices/edit, admin only); docs/server-lists.md
 * Both guards run in onRequest: a caller not signed in (50008) or not allowed (40300) learns nothing
 * about the body.
 */
export const deviceRoutes: FastifyPluginAsync = async (instance) => {
  registerListRoute(instance, { config: devicesConfig, listing: deviceListing, list: listDevices });

  const problems = deviceEditProblems();
  if (problems.length > 0) throw new Error(`The server cannot update devices: ${problems.join('; ')}`);
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    upstreamPath(devicesConfig, 'update'),
    { schema: { body: deviceEditBody }, onRequest: requireAccess({ resource: devicesConfig.name, action: 'edit' }) },
    async (request) => ok(await updateDevice(app.ctx, signedIn(request), request.body), t(request, 'ok')),
  );
};
