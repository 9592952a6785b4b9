import type { FastifyPluginAsync } from 'fastify';
import { bookingBodySchema } from '../../src/resources/orders/requests';
import { ordersConfig } from '../../src/resources/orders/config';
import { actorOf } from '../audit/actor';
import { requireAccess, signedIn } from '../auth/guard';
import { noPayload } from '../auth/routes';
import type { ZodTypeProvider } from '../http/validation';
import { recordParams } from '../rest/list';
import { orderRecord } from './booking';
import { bookChamber, cancelBooking } from './book';
import { sessionReport } from './report';

/**
 * Bookings under /api/v1 (docs/orders.md, "Booking and cancelling", "The session report"):
 *   POST /orders             { Id, SetT, OpenId, OC? } → 201 the booking (policy orders/create)
 *   POST /orders/:id/cancel  → the booking, cancelled (orders/cancel)
 *   GET  /orders/:id/report  → its session report (orders/show)
 * The list stays the upstream's `list/get_Records`. Failures are REST errors: status + `{ message, code }`.
 */

const orderParams = recordParams(ordersConfig);

export const orderRestRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const resource = ordersConfig.name;

  app.post('/orders', { schema: { body: bookingBodySchema }, onRequest: requireAccess({ resource, action: 'create' }) }, async (request, reply) => {
    const booking = await bookChamber(app.ctx, signedIn(request), actorOf(request), request.body);
    return reply.code(201).send(orderRecord(booking));
  });

  app.post(
    '/orders/:id/cancel',
    { schema: { params: orderParams, body: noPayload }, onRequest: requireAccess({ resource, action: 'cancel' }) },
    async (request) => orderRecord(await cancelBooking(app.ctx, signedIn(request), actorOf(request), request.params.id)),
  );

  app.get(
    '/orders/:id/report',
    { schema: { params: orderParams }, onRequest: requireAccess({ resource, action: 'show' }) },
    async (request) => sessionReport(app.ctx, signedIn(request), request.params.id),
  );
};
