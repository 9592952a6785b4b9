import { http } from 'msw';
import { CHANNEL_FORM_ANSWER, CHANNEL_FORM_RESOURCE, CHANNEL_FORM_SUBMIT_PATH, channelFormProblems, channelFormSchemaFor } from '../src/domain/channelForm';
import { CHANNEL_FORM_MESSAGES, type ChannelFormRule } from '../src/domain/channelFormMessages';
import { CODES } from '../src/domain/envelope';
import { readJson, type AccessCheck } from './access';
import { fail, ok } from './envelope';
import { upstreamRefusal } from './upstream';

/** The rule's message in the caller's language, naming the field as the server's does (server/http/messages.ts). */
const refusal = (request: Request, rule: ChannelFormRule, field: string, params: Record<string, string | number>) => {
  const zh = /^zh/i.test(request.headers.get('accept-language') ?? 'zh');
  const text = CHANNEL_FORM_MESSAGES[zh ? 'zh-CN' : 'en-US'][rule].replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
  return fail(CODES.badInput, zh ? `${text}（${field}）` : `${text} (${field})`);
};

/**
 * `POST {base}/api/channel-form/submit` in the mocks, as the server answers it (server/channel-forms/routes.ts):
 * the shared schema's first broken rule as 40000 naming the field, a step form's activity created once,
 * and the old console's mock answer, `data: 'ok'`. The activities live as long as the handlers.
 */
export const channelFormHandlers = (base: string, check: AccessCheck) => {
  const activities = new Set<string>();
  return [
    http.post(`${base}${CHANNEL_FORM_SUBMIT_PATH}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, CHANNEL_FORM_RESOURCE, 'create');
      if (refused) return refused;
      const body = await readJson(request);
      const [problem] = channelFormProblems(channelFormSchemaFor(body), body);
      if (problem !== undefined) return refusal(request, problem.rule, problem.field, problem.params);
      const { activityName } = body as { activityName?: string };
      if (activityName !== undefined) {
        if (activities.has(activityName)) return refusal(request, 'activityNameTaken', 'activityName', { name: activityName });
        activities.add(activityName);
      }
      return ok(CHANNEL_FORM_ANSWER);
    }),
  ];
};
