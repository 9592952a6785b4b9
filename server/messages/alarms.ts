import type { Kysely } from 'kysely';
import { STANDING_ALARM_STATES, UNACKED_ALARM_STATES } from '../../src/domain/alarms/open';
import type { AlarmKind, AlarmPriority, AlarmState } from '../../src/domain/alarms/rules';
import type { MessageNotice } from '../../src/domain/live';
import type { AlarmRow, DB } from '../db/schema';
import { deviceViewers } from '../scope/service';
import type { AlarmParams, MessageDraft } from './kinds';
import { noticeOf, postMessages } from './post';

/**
 * What an alarm's change puts in the message boxes of the accounts that see its device (docs/messages.md,
 * "Alarms"), written in the transaction of the change:
 *   - a notice when it starts calling for attention (raised, or back from shelving or suppression) and when
 *     a standing alarm escalates to high;
 *   - a todo while a high or medium alarm waits for acknowledgement (active or returned, unacknowledged),
 *     read by the server for every holder once it no longer does: acknowledged by anyone, shelved,
 *     suppressed or closed.
 */

type AlarmSide = Pick<AlarmRow, 'state' | 'priority'>;

interface AlarmMessageChange {
  notice?: 'alarmRaised' | 'alarmEscalated';
  /** post: a todo for each viewer; resolve: the alarm's todos read; follow: its unread todos take its new priority. */
  todo?: 'post' | 'resolve' | 'follow';
}

/** The priorities whose unacknowledged alarms become todos. */
const TODO_PRIORITIES: readonly AlarmPriority[] = ['high', 'medium'];
/** The states an alarm leaves to call for attention again. */
const QUIET_STATES: readonly AlarmState[] = ['shelved', 'suppressed'];

const awaitsAck = (side: AlarmSide): boolean =>
  UNACKED_ALARM_STATES.includes(side.state as AlarmState) && TODO_PRIORITIES.includes(side.priority as AlarmPriority);

/** What the boxes are told when an alarm goes from `before` (undefined: it was just opened) to `after`. */
export const alarmMessageChange = (before: AlarmSide | undefined, after: AlarmSide): AlarmMessageChange => {
  const raised = after.state === 'active-unacked' && (before === undefined || QUIET_STATES.includes(before.state as AlarmState));
  const escalated =
    !raised && before !== undefined && before.priority !== 'high' && after.priority === 'high' && STANDING_ALARM_STATES.includes(after.state as AlarmState);
  const waited = before !== undefined && awaitsAck(before);
  const waits = awaitsAck(after);
  const todo = !waited && waits ? 'post' : waited && !waits ? 'resolve' : waited && before.priority !== after.priority ? 'follow' : undefined;
  return { ...(raised ? { notice: 'alarmRaised' } : escalated ? { notice: 'alarmEscalated' } : {}), ...(todo === undefined ? {} : { todo }) };
};

const paramsOf = (row: AlarmRow): AlarmParams => ({
  alarm: Number(row.id),
  device: row.device_id,
  kind: row.kind as AlarmKind,
  priority: row.priority as AlarmPriority,
  value: row.value,
  threshold: row.threshold,
});

/**
 * Writes the messages of an alarm's change (from `before`, undefined when just opened, to `after`) in the
 * caller's transaction; answers the live events to send once it commits.
 */
export const alarmMessages = async (trx: Kysely<DB>, before: AlarmRow | undefined, after: AlarmRow, at: number): Promise<MessageNotice[]> => {
  const { notice, todo } = alarmMessageChange(before, after);
  const alarm = Number(after.id);
  const params = paramsOf(after);
  const kinds = [...(notice === undefined ? [] : [notice]), ...(todo === 'post' ? ['alarmAwaitingAck' as const] : [])];
  const viewers = kinds.length === 0 ? [] : await deviceViewers(trx, after.device_id);
  const posted = await postMessages(trx, kinds.flatMap((kind) => viewers.map((account): MessageDraft => ({ account, kind, params, alarm }))), at);
  if (todo !== 'resolve' && todo !== 'follow') return posted;
  const unreadTodos = trx.updateTable('messages').where('alarm_id', '=', alarm).where('kind', '=', 'alarmAwaitingAck').where('read_at', 'is', null);
  const changed = await (todo === 'resolve' ? unreadTodos.set({ read_at: at }) : unreadTodos.set({ params: JSON.stringify(params) }))
    .returning(['id', 'account_id', 'type'])
    .execute();
  return [...posted, ...changed.map(noticeOf)];
};
