import { http, HttpResponse } from 'msw';
import { notificationPreferencesSchema, type ChannelType, type NotificationPreferences } from '../src/domain/notifications';
import { ALARMS_PATH } from '../src/resources/alarms/requests';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, refusalOf, type AccessCheck } from './access';
import { mockAccountOf } from './auth';
import type { MockScope } from './scope';

const answer = (status: number, message: string, code: number) => HttpResponse.json({ message, code }, { status });

/**
 * The notifications' calls as the server answers them (docs/notifications.md): each account's choices kept
 * in memory, a channel's test answered as delivered (the mocks send nothing), an alarm's deliveries none.
 * The channels themselves are the generated REST handlers over their table.
 */
export const notificationHandlers = (restBase: string, tables: Map<string, WireRecord[]>, check: AccessCheck, scope: MockScope) => {
  const chosen = new Map<string, NotificationPreferences>();
  const channels = () => tables.get('notification-channels') ?? [];
  const refuse = (request: Request, resource: string, action: string) => {
    const refusal = refusalOf(request, check, { resource, action });
    if (refusal === 'notSignedIn') return answer(401, 'not logged in', 50008);
    return refusal === 'forbidden' ? answer(403, 'access denied', 40300) : undefined;
  };
  const preferencesOf = (request: Request) => ({
    channels: channels()
      .filter((channel) => channel.enabled !== false)
      .map((channel) => ({ id: Number(channel.id), name: String(channel.name), type: channel.type as ChannelType })),
    ...(chosen.get(mockAccountOf(request) ?? '') ?? { subscriptions: [], quietHours: null }),
  });
  return [
    http.get(`${restBase}/${ALARMS_PATH}/:id/notifications`, ({ request, params }) => {
      const refused = refuse(request, 'alarms', 'show');
      if (refused) return refused;
      const alarm = (tables.get('alarms') ?? []).find((each) => String(each.id) === String(params.id) && scope.seesDevice(request, String(each.deviceId)));
      return alarm ? HttpResponse.json([]) : answer(404, 'not found', 40400);
    }),
    http.post(`${restBase}/notification-channels/:id/test`, ({ request, params }) => {
      const refused = refuse(request, 'notification-channels', 'test');
      if (refused) return refused;
      const channel = channels().find((each) => String(each.id) === String(params.id));
      return channel ? HttpResponse.json({ ok: true, answer: '200 ok (mock)' }) : answer(404, 'not found', 40400);
    }),
    http.get(`${restBase}/notification-preferences`, ({ request }) => refuse(request, 'notification-preferences', 'show') ?? HttpResponse.json(preferencesOf(request))),
    http.put(`${restBase}/notification-preferences`, async ({ request }) => {
      const refused = refuse(request, 'notification-preferences', 'edit');
      if (refused) return refused;
      const parsed = notificationPreferencesSchema.safeParse(await readJson(request));
      if (!parsed.success) return answer(400, badInputMessage(parsed.error), 40000);
      chosen.set(mockAccountOf(request) ?? '', parsed.data);
      return HttpResponse.json(preferencesOf(request));
    }),
  ];
};
