import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context';
import type { OutboxRow } from '../db/schema';
import { sweepEvery } from '../sweep';
import { escalateDue } from './escalation';
import { alarmNotification, type Notification } from './message';
import { anyDue, backoffMs, claimDue, settle, type AlarmSnapshot, type Settled } from './outbox';
import { sendNotification } from './send';

/**
 * The delivery worker (docs/notifications.md, "Delivery"): every round it takes the escalation steps due,
 * then claims the outbox rows due (atomically: each row goes to one worker of one instance) and sends them,
 * at most `concurrency` at a time. Sends run beside the rounds, each bounded by NOTIFY_TIMEOUT_SECONDS, so
 * a receiver that never answers holds one slot for that long and nothing else: not the alarms, which only
 * write rows, nor the other deliveries. A failed attempt is tried again with backoff until
 * NOTIFY_GIVE_UP_MINUTES after the row was written, then recorded as failed. A claim lasts past the send's
 * timeout, so a worker that stopped mid-send leaves its row to be claimed again once the claim ran out.
 */

export interface NotificationWorker {
  /** One round: escalations due, then the due rows claimed and their sends started. */
  round(): Promise<void>;
  /** Resolves once every send started so far has settled. */
  idle(): Promise<void>;
}

const renderedOf = (ctx: Pick<AppContext, 'config'>, row: OutboxRow): Notification => {
  const { alarm, device } = JSON.parse(row.payload) as AlarmSnapshot;
  const { locale, publicUrl, escalateMinutes } = ctx.config.notifications;
  const minutes = escalateMinutes[alarm.priority as keyof typeof escalateMinutes] * row.step;
  return alarmNotification({ alarm, device, event: row.event as 'raised' | 'escalated' | 'escalation', step: row.step, minutes, locale, publicUrl });
};

const createNotificationWorker = (ctx: Pick<AppContext, 'db' | 'kind' | 'now' | 'config'>, log: FastifyBaseLogger, concurrency = 8): NotificationWorker => {
  const inFlight = new Set<Promise<void>>();
  const { timeoutSeconds, giveUpMinutes, escalateMinutes } = ctx.config.notifications;
  const timeoutMs = timeoutSeconds * 1000;

  const deliver = async (row: OutboxRow, claimedUntil: number): Promise<void> => {
    const channel = await ctx.db.selectFrom('notification_channels').selectAll().where('id', '=', row.channel_id).executeTakeFirst();
    const at = ctx.now();
    const outcome =
      channel === undefined || channel.enabled !== 1
        ? { ok: false, answer: 'channel removed or disabled' }
        : await sendNotification(channel, row.recipient, renderedOf(ctx, row), { id: Number(row.id), at }, timeoutMs);
    const now = ctx.now();
    const settled: Settled = outcome.ok
      ? { status: 'sent', answer: outcome.answer }
      : now >= Number(row.created_at) + giveUpMinutes * 60_000 || channel === undefined
        ? { status: 'failed', answer: outcome.answer }
        : { status: 'pending', answer: outcome.answer, nextAt: now + backoffMs(row.attempts) };
    await settle(ctx.db, row, claimedUntil, settled, now);
    if (!outcome.ok) log.warn({ delivery: Number(row.id), channel: row.channel_id, attempts: row.attempts, status: settled.status, answer: outcome.answer }, 'notification not delivered');
  };

  const start = (row: OutboxRow, claimedUntil: number) => {
    const sending: Promise<void> = deliver(row, claimedUntil)
      .catch((error: unknown) => log.error({ err: error, delivery: Number(row.id) }, 'notification delivery failed'))
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  };

  return {
    async round() {
      const now = ctx.now();
      await escalateDue(ctx.db, now, escalateMinutes);
      const room = concurrency - inFlight.size;
      if (room <= 0 || !(await anyDue(ctx.db, now))) return;
      // Past the send's own timeout, so a live worker's claim never runs out under it.
      const claimedUntil = now + timeoutMs * 2 + 5_000;
      for (const row of await claimDue(ctx.db, ctx.kind, now, claimedUntil, room)) start(row, claimedUntil);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The notification delivery worker (docs/notifications.md). */
    notifications: NotificationWorker;
  }
}

export interface NotificationsPluginOptions {
  /** How often a round runs, ms (default 1000); 0: only when called (tests). */
  intervalMs?: number;
}

/** Decorates `notifications` and runs its rounds; closing the app waits for the sends under way. */
export const notificationsPlugin = fp<NotificationsPluginOptions>(
  async (app, options) => {
    const worker = createNotificationWorker(app.ctx, app.log.child({ component: 'notifications' }));
    app.decorate('notifications', worker);
    const intervalMs = options.intervalMs ?? 1000;
    if (intervalMs > 0) sweepEvery(app, 'notificationsPlugin', intervalMs, () => worker.round(), 'notification round failed');
    app.addHook('onClose', () => worker.idle());
  },
  { name: 'oxygen-notifications', fastify: '5.x', dependencies: ['oxygen-context'], decorators: { fastify: ['ctx'] } },
);
