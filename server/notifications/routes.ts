import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { notificationPreferencesSchema, type AlarmDelivery, type ChannelType, type NotificationPreferences, type NotificationPreferencesAnswer } from '../../src/domain/notifications';
import type { AlarmPriority } from '../../src/domain/alarms/rules';
import { alarmsConfig } from '../../src/resources/alarms/config';
import { notificationChannelsConfig } from '../../src/resources/notification-channels/config';
import { actorOf } from '../audit/actor';
import { recordAudit } from '../audit/trail';
import { requireAccess, signedIn } from '../auth/guard';
import type { DB } from '../db/schema';
import { badInput, notFound } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { alarmScope } from '../alarms/list';
import { recordParams } from '../rest/list';
import { testNotification } from './message';
import { sendNotification } from './send';

/**
 * The notifications' calls under /api/v1 (docs/notifications.md); the channels' list and writes are the
 * registry's (./channels.ts):
 *   POST /notification-channels/:id/test { to? }  sends a test, answers { ok, answer } (notification-channels/test)
 *   GET  /notification-preferences               the caller's own choices and the channels (notification-preferences/show)
 *   PUT  /notification-preferences               replaces them, audited (notification-preferences/edit)
 *   GET  /alarms/:id/notifications                what was sent for an alarm and how it went (alarms/show)
 */

const testBody = z.strictObject({ to: z.email().max(255).optional() }).nullish();

const preferencesOf = async (db: Kysely<DB>, accountId: number): Promise<NotificationPreferencesAnswer> => {
  const [channels, subscriptions, quiet] = await Promise.all([
    db.selectFrom('notification_channels').select(['id', 'name', 'type']).where('enabled', '=', 1).orderBy('id').execute(),
    db.selectFrom('notification_subscriptions').selectAll().where('account_id', '=', accountId).orderBy('channel_id').execute(),
    db.selectFrom('notification_quiet_hours').selectAll().where('account_id', '=', accountId).executeTakeFirst(),
  ]);
  return {
    channels: channels.map((channel) => ({ id: channel.id, name: channel.name, type: channel.type as ChannelType })),
    subscriptions: subscriptions.map((row) => ({
      channelId: row.channel_id,
      priorities: row.priorities === '' ? [] : (row.priorities.split(',') as AlarmPriority[]),
      address: row.address,
    })),
    quietHours: quiet === undefined ? null : { from: quiet.from_minute, to: quiet.to_minute, utcOffset: quiet.utc_offset },
  };
};

/** An address as others read it on an alarm's page: its first letter and its domain. */
const partlyHidden = (recipient: string): string => recipient.replace(/^(.)[^@]*@/, '$1•••@');

export const notificationRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/notification-channels/:id/test',
    { schema: { params: recordParams(notificationChannelsConfig), body: testBody }, onRequest: requireAccess({ resource: 'notification-channels', action: 'test' }) },
    async (request) => {
      const channel = await ctx.db.selectFrom('notification_channels').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (channel === undefined) throw notFound();
      const to = request.body?.to ?? channel.sender ?? '';
      const { locale, publicUrl, timeoutSeconds } = ctx.config.notifications;
      return sendNotification(channel, to, testNotification(channel.name, locale, publicUrl), { id: 0, at: ctx.now() }, timeoutSeconds * 1000);
    },
  );

  app.get('/notification-preferences', { onRequest: requireAccess({ resource: 'notification-preferences', action: 'show' }) }, async (request) =>
    preferencesOf(ctx.db, signedIn(request).id),
  );

  app.put(
    '/notification-preferences',
    { schema: { body: notificationPreferencesSchema }, onRequest: requireAccess({ resource: 'notification-preferences', action: 'edit' }) },
    async (request) => {
      const account = signedIn(request);
      const body: NotificationPreferences = request.body;
      const at = ctx.now();
      await ctx.db.transaction().execute(async (trx) => {
        const before = await preferencesOf(trx, account.id);
        const channels = new Map(before.channels.map((channel) => [channel.id, channel]));
        body.subscriptions.forEach((subscription, index) => {
          const channel = channels.get(subscription.channelId);
          if (channel === undefined) throw badInput('notify.channel.unknown', { field: `subscriptions.${index}.channelId` });
          if (channel.type === 'email' && subscription.priorities.length > 0 && !subscription.address) {
            throw badInput('notify.channel.address', { field: `subscriptions.${index}.address` });
          }
        });
        await trx.deleteFrom('notification_subscriptions').where('account_id', '=', account.id).execute();
        const kept = body.subscriptions.filter((subscription) => subscription.priorities.length > 0);
        if (kept.length > 0) {
          await trx
            .insertInto('notification_subscriptions')
            .values(
              kept.map((subscription) => ({
                account_id: account.id,
                channel_id: subscription.channelId,
                priorities: [...new Set(subscription.priorities)].join(','),
                address: channels.get(subscription.channelId)?.type === 'email' ? (subscription.address ?? null) : null,
              })),
            )
            .execute();
        }
        await trx.deleteFrom('notification_quiet_hours').where('account_id', '=', account.id).execute();
        if (body.quietHours !== null) {
          const { from, to, utcOffset } = body.quietHours;
          await trx.insertInto('notification_quiet_hours').values({ account_id: account.id, from_minute: from, to_minute: to, utc_offset: utcOffset }).execute();
        }
        const { channels: _channels, ...saved } = before;
        await recordAudit(trx, actorOf(request), { action: 'account.notificationPreferences', targetType: 'account', targetId: account.id, before: saved, after: body }, at);
      });
      return preferencesOf(ctx.db, account.id);
    },
  );

  app.get('/alarms/:id/notifications', { schema: { params: recordParams(alarmsConfig) }, onRequest: requireAccess({ resource: 'alarms', action: 'show' }) }, async (request) => {
    const alarm = await alarmScope(ctx.db, signedIn(request)).select('a.id').where('a.id', '=', request.params.id).executeTakeFirst();
    if (alarm === undefined) throw notFound();
    const rows = await ctx.db
      .selectFrom('notification_outbox as o')
      .leftJoin('notification_channels as c', 'c.id', 'o.channel_id')
      .select(['o.id', 'o.event', 'o.step', 'o.recipient', 'o.status', 'o.attempts', 'o.created_at', 'o.done_at', 'o.answer', 'c.name', 'c.type'])
      .where('o.alarm_id', '=', request.params.id)
      .orderBy('o.id')
      .execute();
    return rows.map(
      (row): AlarmDelivery => ({
        id: Number(row.id),
        channel: row.name ?? '',
        channelType: (row.type ?? 'webhook') as ChannelType,
        recipient: partlyHidden(row.recipient),
        event: row.event as AlarmDelivery['event'],
        step: row.step,
        status: row.status as AlarmDelivery['status'],
        attempts: row.attempts,
        createdAt: Number(row.created_at),
        doneAt: row.done_at === null ? null : Number(row.done_at),
        answer: row.answer,
      }),
    );
  });
};
