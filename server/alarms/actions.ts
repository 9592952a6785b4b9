import type { Updateable } from 'kysely';
import type { AlarmRecord, AlarmTransition } from '../../src/domain/alarms/record';
import { nextAlarmState, type OperatorInput } from '../../src/domain/alarms/states';
import type { AuditAction } from '../../src/domain/audit';
import type { MessageNotice } from '../../src/domain/live';
import type { AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { transact } from '../db/transact';
import { badInput, notFound } from '../http/envelope';
import { announceMessages } from '../messages/post';
import type { Viewer } from '../scope/service';
import { alarmScope } from './list';
import { changeAlarm, recordOf, stateOf } from './store';

/** What an operator sends with an action: a comment (ack), minutes and a reason (shelve), a reason (close). */
export type OperatorAction =
  | { input: 'ack'; comment?: string | undefined }
  | { input: 'shelve'; minutes: number; reason: string }
  | { input: 'unshelve' }
  | { input: 'close'; reason: string };

const AUDITED: Record<OperatorInput, AuditAction> = {
  ack: 'alarm.acknowledge',
  shelve: 'alarm.shelve',
  unshelve: 'alarm.unshelve',
  close: 'alarm.close',
};

const columnsOf = (action: OperatorAction, actor: AuditActor, at: number): Updateable<DB['alarms']> => {
  switch (action.input) {
    case 'ack':
      return { acked_at: at, acked_by: actor.account.slice(0, 64), ...(action.comment === undefined ? {} : { comment: action.comment }) };
    case 'shelve':
      return { shelved_until: at + action.minutes * 60_000, comment: action.reason };
    case 'unshelve':
      return { shelved_until: null };
    case 'close':
      return { comment: action.reason };
  }
};

const commentOf = (action: OperatorAction): string | null => ('reason' in action ? action.reason : 'comment' in action ? (action.comment ?? null) : null);

/**
 * An operator's action on one alarm the viewer sees (docs/alarms.md, "States" and "Rights"): the change,
 * its transition, audit entry and messages in one transaction, then the live `alarm` and `message` events.
 * An alarm out of scope is not found, like one that does not exist; an action its state does not allow is
 * refused, naming the alarm.
 */
export const actOnAlarm = async (
  ctx: Pick<AppContext, 'db' | 'now' | 'live'>,
  viewer: Viewer,
  actor: AuditActor,
  id: number,
  action: OperatorAction,
): Promise<AlarmRecord> => {
  const at = ctx.now();
  const { row, notices } = await transact(ctx.db, async (trx) => {
    const notices: MessageNotice[] = [];
    const alarm = await alarmScope(trx, viewer).selectAll('a').where('a.id', '=', id).executeTakeFirst();
    if (alarm === undefined) throw notFound();
    const to = nextAlarmState(stateOf(alarm), action.input, { condition: alarm.condition === 1, suppressed: false });
    const refused = badInput(`alarm.cannot.${action.input}`, { id });
    if (to === undefined) throw refused;
    const after = await changeAlarm(trx, alarm, { to, columns: columnsOf(action, actor, at), action: AUDITED[action.input], comment: commentOf(action) }, actor, at, notices);
    // Moved by the engine or another operator since it was read.
    if (after === undefined) throw refused;
    return { row: after, notices };
  });
  const record = recordOf(row);
  ctx.live.publish({ type: 'alarm', data: record });
  announceMessages(ctx, notices);
  return record;
};

/** `GET /alarms/{id}/history`: every transition of an alarm the viewer sees, oldest first. */
export const alarmHistory = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, id: number): Promise<AlarmTransition[]> => {
  const alarm = await alarmScope(ctx.db, viewer).select('a.id').where('a.id', '=', id).executeTakeFirst();
  if (alarm === undefined) throw notFound();
  const rows = await ctx.db.selectFrom('alarm_transitions').selectAll().where('alarm_id', '=', id).orderBy('id').execute();
  return rows.map((row) => ({ id: Number(row.id), at: Number(row.at), from: row.from_state, to: row.to_state, actor: row.actor_account, comment: row.comment }));
};
