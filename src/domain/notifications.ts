import { z } from 'zod';
import { ALARM_PRIORITIES } from './alarms/rules';

/**
 * Notifications beyond the console (docs/notifications.md): the channel types an admin configures, and
 * what each account chooses to hear: the contract of /api/v1/notification-preferences, shared by the
 * console, the mocks and the server.
 */
export const CHANNEL_TYPES = ['email', 'webhook', 'wecom', 'dingtalk', 'slack'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** What a saved secret reads as once saved: never the secret itself. Sent back unchanged, it keeps the secret. */
export const SECRET_MASK = '••••';

const minuteOfDay = z.number().int().min(0).max(24 * 60 - 1);

export const notificationPreferencesSchema = z.strictObject({
  subscriptions: z
    .array(
      z.strictObject({
        channelId: z.number().int().min(1),
        priorities: z.array(z.enum(ALARM_PRIORITIES)).max(ALARM_PRIORITIES.length),
        /** An e-mail channel's address for this account; none on a webhook (a group's chat). */
        address: z.email().max(255).nullish(),
      }),
    )
    .max(100),
  /** Local time of day, minutes after midnight; high priority ignores them. `null`: none. */
  quietHours: z.strictObject({ from: minuteOfDay, to: minuteOfDay, utcOffset: z.number().int().min(-14 * 60).max(14 * 60) }).nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** The answer of GET /notification-preferences: the account's choices and the channels it may choose from. */
export interface NotificationPreferencesAnswer extends NotificationPreferences {
  channels: { id: number; name: string; type: ChannelType }[];
}

/** One delivery of an alarm's notification, as its page shows it (GET /alarms/:id/notifications). */
export interface AlarmDelivery {
  id: number;
  channel: string;
  channelType: ChannelType;
  recipient: string;
  event: 'raised' | 'escalated' | 'escalation';
  step: number;
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';
  attempts: number;
  createdAt: number;
  doneAt: number | null;
  answer: string | null;
}
