import { sql, type Kysely } from 'kysely';
import type { AlarmPriority } from '../../src/domain/alarms/rules';
import type { AlarmRow, DB, OutboxRow } from '../db/schema';
import type { DatabaseKind } from '../db/database';
import type { Delivery } from './recipients';

/**
 * The outbox (docs/notifications.md, "Delivery"): each notification is a row written in the transaction of
 * what it reports (an alarm's change, an escalation's step), so it exists exactly when that change does; the
 * delivery worker (./worker.ts) claims rows atomically, sends them and records each outcome on its row.
 */

/** What a row keeps of its alarm: enough to write the notification when it is sent, as the alarm stood. */
export interface AlarmSnapshot {
  alarm: AlarmRow;
  device: { name: string; location: string };
}

export type OutboxEvent = 'raised' | 'escalated' | 'escalation';

export const enqueue = async (
  db: Kysely<DB>,
  snapshot: AlarmSnapshot,
  event: OutboxEvent,
  step: number,
  deliveries: readonly Delivery[],
  at: number,
): Promise<void> => {
  if (deliveries.length === 0) return;
  const payload = JSON.stringify(snapshot);
  await db
    .insertInto('notification_outbox')
    .values(
      deliveries.map((delivery) => ({
        alarm_id: Number(snapshot.alarm.id),
        channel_id: delivery.channelId,
        account_id: delivery.accountId,
        event,
        step,
        recipient: delivery.recipient,
        payload,
        status: 'pending',
        attempts: 0,
        created_at: at,
        next_at: at,
      })),
    )
    .execute();
};

/** The device as notifications name it; a device removed since keeps its Id. */
export const snapshotOf = async (db: Kysely<DB>, alarm: AlarmRow): Promise<AlarmSnapshot> => {
  const device = await db.selectFrom('devices').select(['name', 'location']).where('id', '=', alarm.device_id).executeTakeFirst();
  return { alarm, device: device ?? { name: alarm.device_id, location: '' } };
};

/** The priorities an alarm's row may hold. */
export const priorityOf = (alarm: AlarmRow): AlarmPriority => alarm.priority as AlarmPriority;

/** Escalations not yet sent stop with the alarm's wait (acknowledged, shelved, suppressed, closed). */
export const cancelEscalations = async (db: Kysely<DB>, alarmId: number, at: number): Promise<void> => {
  await db
    .updateTable('notification_outbox')
    .set({ status: 'cancelled', done_at: at })
    .where('alarm_id', '=', alarmId)
    .where('event', '=', 'escalation')
    .where('status', '=', 'pending')
    .execute();
};

/**
 * Takes up to `limit` rows due at `now` (pending, or sending under a claim that ran out: a worker that
 * stopped mid-send) for this worker until `until`, in one statement. On PostgreSQL the rows another
 * instance is claiming are skipped (FOR UPDATE SKIP LOCKED); SQLite runs one writer at a time.
 */
export const claimDue = async (db: Kysely<DB>, kind: DatabaseKind, now: number, until: number, limit: number): Promise<OutboxRow[]> => {
  const due = db
    .selectFrom('notification_outbox')
    .select('id')
    .where((eb) => eb.or([eb.and([eb('status', '=', 'pending'), eb('next_at', '<=', now)]), eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', now)])]))
    .orderBy('id')
    .limit(limit);
  const ids = kind === 'postgres' ? due.modifyEnd(sql`for update skip locked`) : due;
  return db
    .updateTable('notification_outbox')
    .set((eb) => ({ status: 'sending', claimed_until: until, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .returningAll()
    .execute();
};

/** Whether anything is due: a read, so an idle worker never takes SQLite's write lock. */
export const anyDue = async (db: Kysely<DB>, now: number): Promise<boolean> =>
  (await db
    .selectFrom('notification_outbox')
    .select('id')
    .where((eb) => eb.or([eb.and([eb('status', '=', 'pending'), eb('next_at', '<=', now)]), eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', now)])]))
    .limit(1)
    .executeTakeFirst()) !== undefined;

/** 5 s after the first failure, doubling, at most 5 minutes apart. */
export const backoffMs = (attempts: number): number => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 5 * 60_000);

export type Settled = { status: 'sent' | 'failed'; answer: string } | { status: 'pending'; answer: string; nextAt: number };

/** Records an attempt's outcome on the row this worker claimed (until `claimedUntil`); a claim taken over since changes nothing. */
export const settle = async (db: Kysely<DB>, row: OutboxRow, claimedUntil: number, outcome: Settled, at: number): Promise<void> => {
  await db
    .updateTable('notification_outbox')
    .set(
      outcome.status === 'pending'
        ? { status: 'pending', answer: outcome.answer, next_at: outcome.nextAt, claimed_until: null }
        : { status: outcome.status, answer: outcome.answer, done_at: at, claimed_until: null },
    )
    .where('id', '=', row.id)
    .where('status', '=', 'sending')
    .where('claimed_until', '=', claimedUntil)
    .execute();
};
