import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { deviceIdSchema } from '../../src/resources/devices/requests';
import { devicesConfig } from '../../src/resources/devices/config';
import { actorOf } from '../audit/actor';
import { requireAccess, signedIn } from '../auth/guard';
import { noPayload } from '../auth/routes';
import type { ZodTypeProvider } from '../http/validation';
import { brokerAddressFor } from './broker-address';
import { deleteDevice, registerDevice, rotateDeviceSecret } from './registry';
import { deviceEditBody } from './update';

/**
 * Device registration and credentials under /api/v1 (docs/product.md, "Device credentials"; docs/server-devices.md):
 *   POST   /devices             { Id, name, Type, Location } → 201 the device + `secret` + `broker` (policy devices/create)
 *   POST   /devices/:Id/secret  → the device + a new `secret` + `broker`; the old one stops working (devices/create)
 *   DELETE /devices/:Id         → the device as it was (devices/delete); one with history is kept, marked removed
 * `broker` is where the device connects with it (src/domain/mqtt/connection.ts; ./broker-address.ts).
 * All three are the super administrator's by the shared policy. The registration body is the device
 * edit's (`Id` and the edit form's fields, the same limits), behind `withDeviceId` (an empty Id is code
 * 401 first). Failures are REST errors: status + `{ message, code }`.
 */

/** `{ Id, name, Type, Location }`: the same fields and limits as the console's device edit. */
const deviceRegistrationBody = deviceEditBody;

const deviceParams = z.strictObject({ Id: deviceIdSchema });

export const deviceRestRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const resource = devicesConfig.name;

  app.post(
    '/devices',
    { schema: { body: deviceRegistrationBody }, onRequest: requireAccess({ resource, action: 'create' }) },
    async (request, reply) => {
      const device = await registerDevice(app.ctx, signedIn(request), actorOf(request), request.body);
      return reply.code(201).send({ ...device, broker: brokerAddressFor(app, request) });
    },
  );

  app.post(
    '/devices/:Id/secret',
    // Issuing credentials is registration's right (admin); the call takes no body.
    { schema: { params: deviceParams, body: noPayload }, onRequest: requireAccess({ resource, action: 'create' }) },
    async (request) => ({ ...(await rotateDeviceSecret(app.ctx, signedIn(request), actorOf(request), request.params.Id)), broker: brokerAddressFor(app, request) }),
  );

  app.delete(
    '/devices/:Id',
    { schema: { params: deviceParams }, onRequest: requireAccess({ resource, action: 'delete' }) },
    async (request) => deleteDevice(app.ctx, signedIn(request), actorOf(request), request.params.Id),
  );
};
