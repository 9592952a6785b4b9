import type { FastifyPluginAsync } from 'fastify';
import { settingRequestsConfig } from '../../src/resources/setting-requests/config';
import { amendBodySchema, approveBodySchema, rejectBodySchema, settingRequestBodySchema } from '../../src/resources/setting-requests/requests';
import { actorOf } from '../audit/actor';
import { requireAccess, signedIn } from '../auth/guard';
import { noPayload } from '../auth/routes';
import type { ZodTypeProvider } from '../http/validation';
import { recordParams } from '../rest/list';
import { decideRequest } from './decide';
import { amendRequest, cancelRequest, requestSettings } from './service';

/**
 * Parameter approval's actions under /api/v1 (docs/approval.md); the list and `/:id` are the registry's
 * (server/setting-requests/list.ts):
 *   POST /setting-requests                { Id, SP?, ST?, SS?, SL?, SA? }              request (setting-requests/request)
 *   POST /setting-requests/:id/amend      { SP?, ST?, SS?, SL?, SA? }                  the requester's waiting one (request)
 *   POST /setting-requests/:id/cancel                                                  the requester's waiting one (cancel)
 *   POST /setting-requests/:id/approve    { password, meaning, settingsHash }          signed; sends the command (approve)
 *   POST /setting-requests/:id/reject     { password, meaning, settingsHash }          signed (reject)
 * A request out of the caller's scope is 404 like one that does not exist; each answers the request.
 */

const idParams = recordParams(settingRequestsConfig);
const resource = settingRequestsConfig.name;

export const settingRequestRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/setting-requests',
    { schema: { body: settingRequestBodySchema }, onRequest: requireAccess({ resource, action: 'request' }) },
    async (request, reply) => reply.code(201).send(await requestSettings(app.ctx, signedIn(request), actorOf(request), request.body)),
  );

  app.post(
    '/setting-requests/:id/amend',
    { schema: { params: idParams, body: amendBodySchema }, onRequest: requireAccess({ resource, action: 'request' }) },
    async (request) => amendRequest(app.ctx, signedIn(request), actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/setting-requests/:id/cancel',
    { schema: { params: idParams, body: noPayload }, onRequest: requireAccess({ resource, action: 'cancel' }) },
    async (request) => cancelRequest(app.ctx, signedIn(request), actorOf(request), request.params.id),
  );

  for (const [path, decision, body, action] of [
    ['approve', 'approved', approveBodySchema, 'approve'],
    ['reject', 'rejected', rejectBodySchema, 'reject'],
  ] as const) {
    app.post(
      `/setting-requests/:id/${path}`,
      { schema: { params: idParams, body }, onRequest: requireAccess({ resource, action }) },
      async (request) => {
        const me = signedIn(request);
        return decideRequest(app.ctx, request.log, me, { ...actorOf(request), id: me.id }, request.params.id, decision, request.body);
      },
    );
  }
};
