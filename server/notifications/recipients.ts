import type { Kysely } from 'kysely';
import type { AlarmPriority } from '../../src/domain/alarms/rules';
import type { DB } from '../db/schema';

/**
 * Who hears an alarm on which channel (docs/notifications.md, "Who hears what"): of `accounts`, those
 * subscribed to an enabled channel for the alarm's priority, outside their quiet hours unless it is high.
 * A group's webhook is one delivery however many of them chose it; an e-mail channel one per address.
 */

export interface Delivery {
  channelId: number;
  /** The e-mail address, or '' for a webhook. */
  recipient: string;
  /** One of the accounts it is for (the first). */
  accountId: number;
}

/** Whether `at` falls within quiet hours from `from` to `to` (minutes of the local day; from > to spans midnight). */
const inQuietHours = (at: number, quiet: { from_minute: number; to_minute: number; utc_offset: number }): boolean => {
  const minute = Math.floor((at / 60_000 + quiet.utc_offset) % (24 * 60) + 24 * 60) % (24 * 60);
  const { from_minute: from, to_minute: to } = quiet;
  if (from === to) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
};

export const deliveriesFor = async (db: Kysely<DB>, accounts: readonly number[], priority: AlarmPriority, at: number): Promise<Delivery[]> => {
  if (accounts.length === 0) return [];
  const rows = await db
    .selectFrom('notification_subscriptions as s')
    .innerJoin('notification_channels as c', 'c.id', 's.channel_id')
    .leftJoin('notification_quiet_hours as q', 'q.account_id', 's.account_id')
    .select(['s.account_id', 's.channel_id', 's.priorities', 's.address', 'c.type', 'q.from_minute', 'q.to_minute', 'q.utc_offset'])
    .where('s.account_id', 'in', [...accounts])
    .where('c.enabled', '=', 1)
    .orderBy('s.account_id')
    .orderBy('s.channel_id')
    .execute();
  const deliveries = new Map<string, Delivery>();
  for (const row of rows) {
    if (!row.priorities.split(',').includes(priority)) continue;
    const quiet = row.from_minute === null || row.to_minute === null || row.utc_offset === null ? null : { from_minute: row.from_minute, to_minute: row.to_minute, utc_offset: row.utc_offset };
    if (priority !== 'high' && quiet !== null && inQuietHours(at, quiet)) continue;
    const recipient = row.type === 'email' ? (row.address ?? '') : '';
    if (row.type === 'email' && recipient === '') continue;
    const key = `${row.channel_id}\u0000${recipient}`;
    if (!deliveries.has(key)) deliveries.set(key, { channelId: row.channel_id, recipient, accountId: row.account_id });
  }
  return [...deliveries.values()];
};
