import type { FastifyPluginAsync } from 'fastify';
import { DEVICE_COMMANDS, devicesConfig } from '../../src/resources/devices/config';
import { actorOf } from '../audit/actor';
import { requireAccess, signedIn } from '../auth/guard';
import { ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { upstreamPath } from '../lists/route';
import { changePermission, changePermissionBody, changeSettings, changeSettingsBody, changeState, changeStateBody } from './commands';
import { deviceEditBody, deviceEditProblems, updateDevice } from './update';

/**
 * Device calls of the upstream contract, relative to API_PREFIX, paths from the configuration (the list,
 * `POST /list/get_OCProperty`, is registered from server/resources/registry.ts):
 *   POST /device/update_OCProperty  { Id, name, Type, Location } → the device as the list answers it
 *                                   (policy: devices/edit, admin only); docs/server-lists.md
 *   POST /order/change_permission   { Id, Permission? } → the device + cmdId (devices/changePermission: admin, user, lowUser)
 *   POST /order/change_state        { Id, State } → the device + cmdId (devices/changeState: admin, user, lowUser)
 *   POST /order/change_settings     { Id, SP?, ST?, SS?, SL?, SA? } → the device + cmdId (devices/changeSettings: admin, user)
 * The guards run in onRequest: a caller not signed in (50008) or not allowed (40300) learns nothing
 * about the body. Writes record their audit entry in the same transaction (docs/server-devices.md); the
 * three commands also send a command to the chamber (docs/commands.md).
 */
export const deviceRoutes: FastifyPluginAsync = async (instance) => {
  const problems = deviceEditProblems();
  if (problems.length > 0) throw new Error(`The server cannot update devices: ${problems.join('; ')}`);
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const resource = devicesConfig.name;
  app.post(
    upstreamPath(devicesConfig, 'update'),
    { schema: { body: deviceEditBody }, onRequest: requireAccess({ resource, action: 'edit' }) },
    async (request) => ok(await updateDevice(app.ctx, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );
  app.post(
    DEVICE_COMMANDS.changePermission,
    { schema: { body: changePermissionBody }, onRequest: requireAccess({ resource, action: 'changePermission' }) },
    async (request) => ok(await changePermission(app.ctx, request.log, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );
  app.post(
    DEVICE_COMMANDS.changeState,
    { schema: { body: changeStateBody }, onRequest: requireAccess({ resource, action: 'changeState' }) },
    async (request) => ok(await changeState(app.ctx, request.log, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );
  app.post(
    DEVICE_COMMANDS.changeSettings,
    { schema: { body: changeSettingsBody }, onRequest: requireAccess({ resource, action: 'changeSettings' }) },
    async (request) => ok(await changeSettings(app.ctx, request.log, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );
};
