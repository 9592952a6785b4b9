import type { FastifyPluginAsync } from 'fastify';
import { alarmRulesConfig } from '../../src/resources/alarm-rules/config';
import { alarmsConfig } from '../../src/resources/alarms/config';
import { alarmActionBodies } from '../../src/resources/alarms/requests';
import { actorOf } from '../audit/actor';
import { requireAccess, signedIn } from '../auth/guard';
import { noPayload } from '../auth/routes';
import type { ListAnswer } from '../../src/resources/query';
import type { ZodTypeProvider } from '../http/validation';
import { asRecords, type RenderedList } from '../lists/answer';
import { recordParams } from '../rest/list';
import { actOnAlarm, alarmHistory } from './actions';
import { alarmRuleEditBody, editAlarmRule } from './rule-edit';
import { alarmRulesResource } from './list';

/**
 * The alarms' actions and history under /api/v1 (docs/alarms.md, "REST"); their lists are the registry's
 * (server/alarms/list.ts):
 *   GET  /alarms/:id/history                   the transitions, oldest first (alarms/show)
 *   POST /alarms/:id/ack      { comment? }     acknowledge (alarms/acknowledge)
 *   POST /alarms/:id/shelve   { minutes, reason }  shelve for at most ALARM_SHELVE_MAX_MINUTES (alarms/shelve)
 *   POST /alarms/:id/unshelve                  (alarms/shelve)
 *   POST /alarms/:id/close    { reason }       close out of service (alarms/clear)
 *   PUT  /alarm-rules/:id     the rule's edit form  (alarm-rules/edit)
 * An alarm out of the caller's scope is 404 like one that does not exist.
 */

const idParams = recordParams(alarmsConfig);

export const alarmRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const resource = alarmsConfig.name;
  const bodies = alarmActionBodies(app.ctx.config.alarmShelveMaxMinutes);

  app.get('/alarms/:id/history', { schema: { params: idParams }, onRequest: requireAccess({ resource, action: 'show' }) }, async (request) =>
    alarmHistory(app.ctx, signedIn(request), request.params.id),
  );

  app.post(
    '/alarms/:id/ack',
    { schema: { params: idParams, body: bodies.ack.nullish() }, onRequest: requireAccess({ resource, action: 'acknowledge' }) },
    async (request) => actOnAlarm(app.ctx, signedIn(request), actorOf(request), request.params.id, { input: 'ack', comment: request.body?.comment }),
  );

  app.post(
    '/alarms/:id/shelve',
    { schema: { params: idParams, body: bodies.shelve }, onRequest: requireAccess({ resource, action: 'shelve' }) },
    async (request) => actOnAlarm(app.ctx, signedIn(request), actorOf(request), request.params.id, { input: 'shelve', ...request.body }),
  );

  app.post(
    '/alarms/:id/unshelve',
    { schema: { params: idParams, body: noPayload }, onRequest: requireAccess({ resource, action: 'shelve' }) },
    async (request) => actOnAlarm(app.ctx, signedIn(request), actorOf(request), request.params.id, { input: 'unshelve' }),
  );

  app.post(
    '/alarms/:id/close',
    { schema: { params: idParams, body: bodies.close }, onRequest: requireAccess({ resource, action: 'clear' }) },
    async (request) => actOnAlarm(app.ctx, signedIn(request), actorOf(request), request.params.id, { input: 'close', reason: request.body.reason }),
  );

  app.put(
    '/alarm-rules/:id',
    { schema: { params: recordParams(alarmRulesConfig), body: alarmRuleEditBody }, onRequest: requireAccess({ resource: alarmRulesConfig.name, action: 'edit' }) },
    async (request) => {
      await editAlarmRule(app.ctx, actorOf(request), request.params.id, request.body);
      const answer = await alarmRulesResource.list(app.ctx, signedIn(request), { current: 1, pageSize: 1, filter: { id: [request.params.id] } });
      return (typeof answer.list === 'string' ? asRecords(answer as RenderedList) : (answer as ListAnswer)).list[0];
    },
  );
};
