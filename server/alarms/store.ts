import { sql, type Kysely, type Updateable } from 'kysely';
import type { AlarmRecord } from '../../src/domain/alarms/record';
import type { AlarmKind, AlarmPriority, AlarmState } from '../../src/domain/alarms/rules';
import type { AuditAction } from '../../src/domain/audit';
import type { MessageNotice } from '../../src/domain/live';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AlarmRow, DB } from '../db/schema';
import { alarmMessages } from '../messages/alarms';
import { alarmNotifications } from '../notifications/alarms';

/**
 * Alarm rows and their transitions (docs/alarms.md, "States"): every change of state is a row of
 * alarm_transitions and an audit entry, and every change its messages to the accounts that see the device
 * (docs/messages.md) and its notifications beyond the console (docs/notifications.md), written in the caller's
 * transaction with the change itself. The messages' live
 * events are collected in `notices` when given, for the caller to announce once the transaction commits.
 */

type AlarmsTable = DB['alarms'];

const nullableNumber = (value: number | string | null): number | null => (value === null ? null : Number(value));

export const stateOf = (row: AlarmRow): AlarmState => row.state as AlarmState;

/** A stored alarm under its wire names (src/domain/alarms/record.ts). */
export const recordOf = (row: AlarmRow): AlarmRecord => ({
  id: Number(row.id),
  deviceId: row.device_id,
  kind: row.kind as AlarmKind,
  priority: row.priority as AlarmPriority,
  state: row.state as AlarmState,
  value: row.value,
  threshold: row.threshold,
  raisedAt: Number(row.raised_at),
  ackedAt: nullableNumber(row.acked_at),
  ackedBy: row.acked_by,
  closedAt: nullableNumber(row.closed_at),
  shelvedUntil: nullableNumber(row.shelved_until),
  comment: row.comment,
});

const remember = async (db: Kysely<DB>, row: AlarmRow, from: AlarmState | null, actor: AuditActor, action: AuditAction, comment: string | null, at: number) => {
  await db
    .insertInto('alarm_transitions')
    .values({ alarm_id: Number(row.id), at, from_state: from, to_state: row.state, actor_account: actor.account.slice(0, 64), comment })
    .execute();
  await recordAudit(db, actor, { action, targetType: 'alarm', targetId: Number(row.id), deviceId: row.device_id, before: from === null ? undefined : { state: from }, after: recordOf(row) }, at);
};

export interface NewAlarm {
  deviceId: string;
  kind: AlarmKind;
  priority: AlarmPriority;
  state: AlarmState;
  value: number | null;
  threshold: number | null;
}

/**
 * Opens an alarm, unless one of its device and rule is open already (the partial unique index decides,
 * whatever races): answers the new row, or undefined.
 */
export const openAlarm = async (
  db: Kysely<DB>,
  alarm: NewAlarm,
  actor: AuditActor,
  at: number,
  notices: MessageNotice[] = [],
): Promise<AlarmRow | undefined> => {
  const row = await db
    .insertInto('alarms')
    .values({
      device_id: alarm.deviceId,
      kind: alarm.kind,
      priority: alarm.priority,
      state: alarm.state,
      condition: 1,
      value: alarm.value,
      threshold: alarm.threshold,
      raised_at: at,
    })
    // The index's own predicate, written out: SQLite matches a partial index only by its literal text.
    .onConflict((conflict) => conflict.columns(['device_id', 'kind']).where('state', '<>', sql.lit('closed')).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) return undefined;
  await remember(db, row, null, actor, 'alarm.raise', null, at);
  notices.push(...(await alarmMessages(db, undefined, row, at)));
  await alarmNotifications(db, undefined, row, at);
  return row;
};

export interface AlarmChange {
  /** The state after; the same state changes only the columns (an escalation, the condition). */
  to: AlarmState;
  columns?: Updateable<AlarmsTable>;
  action: AuditAction;
  comment?: string | null;
}

/**
 * Changes `alarm` if it is still in the state it was read in (another process may have moved it since):
 * answers the row after, or undefined when it had moved. A change of state is a transition.
 */
export const changeAlarm = async (
  db: Kysely<DB>,
  alarm: AlarmRow,
  change: AlarmChange,
  actor: AuditActor,
  at: number,
  notices: MessageNotice[] = [],
): Promise<AlarmRow | undefined> => {
  const closing = change.to === 'closed' && alarm.state !== 'closed';
  const row = await db
    .updateTable('alarms')
    .set({ ...change.columns, state: change.to, ...(closing ? { closed_at: at, condition: 0 } : {}) })
    .where('id', '=', alarm.id)
    .where('state', '=', alarm.state)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) return undefined;
  if (change.to !== alarm.state) await remember(db, row, stateOf(alarm), actor, change.action, change.comment ?? null, at);
  notices.push(...(await alarmMessages(db, alarm, row, at)));
  await alarmNotifications(db, alarm, row, at);
  return row;
};

/** The open alarms of these devices. */
export const openAlarmsOf = (db: Kysely<DB>, deviceIds: readonly string[]): Promise<AlarmRow[]> =>
  deviceIds.length === 0 ? Promise.resolve([]) : db.selectFrom('alarms').selectAll().where('device_id', 'in', deviceIds).where('state', '<>', 'closed').execute();
