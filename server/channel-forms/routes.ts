import type { FastifyPluginAsync } from 'fastify';
import { CHANNEL_FORM_ANSWER, CHANNEL_FORM_RESOURCE, CHANNEL_FORM_SUBMIT_PATH, channelFormFieldsSchema, channelFormProblems, channelFormSchemaFor, type ChannelFormBody } from '../../src/domain/channelForm';
import { actorOf } from '../audit/actor';
import { recordAudit } from '../audit/trail';
import { requireAccess, signedIn } from '../auth/guard';
import { badInput, ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';

/** The first broken rule of the shared schema, as 40000 naming the field in the caller's language. */
const checked = (body: unknown): ChannelFormBody => {
  const [problem] = channelFormProblems(channelFormSchemaFor(body), body);
  if (problem !== undefined) throw badInput(`channelForm.${problem.rule}`, { ...problem.params, field: problem.field });
  return body as ChannelFormBody;
};

/**
 * `POST {API_PREFIX}/api/channel-form/submit`: the template's step form or group form
 * (src/domain/channelForm.ts), checked by the shared schema, stored and audited in one transaction, and
 * answered as the old console's mock answered it (`data: 'ok'`). An activity is created once: a step
 * form naming an activity already created is refused, naming activityName.
 */
export const channelFormRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    CHANNEL_FORM_SUBMIT_PATH,
    // Only the forms' fields here (an unknown one is refused as on every call); the rules and their messages are the form's schema's.
    { schema: { body: channelFormFieldsSchema }, onRequest: requireAccess({ resource: CHANNEL_FORM_RESOURCE, action: 'create' }) },
    async (request) => {
      const body = checked(request.body);
      const activityName = body.form === 'step' ? body.activityName : null;
      const at = app.ctx.now();
      await app.ctx.db.transaction().execute(async (trx) => {
        if (activityName !== null) {
          const taken = await trx.selectFrom('channel_forms').select('id').where('activity_name', '=', activityName).executeTakeFirst();
          if (taken !== undefined) throw badInput('channelForm.activityNameTaken', { field: 'activityName', name: activityName });
        }
        const { id } = await trx
          .insertInto('channel_forms')
          .values({ form: body.form, activity_name: activityName, body: JSON.stringify(body), account_id: signedIn(request).id, submitted_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await recordAudit(trx, actorOf(request), { action: 'channelForm.submit', targetType: 'channelForm', targetId: id, after: body }, at);
      });
      return ok(CHANNEL_FORM_ANSWER, t(request, 'ok'));
    },
  );
};
