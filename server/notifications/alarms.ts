import type { Kysely } from 'kysely';
import type { AlarmRow, DB } from '../db/schema';
import { alarmMessageChange } from '../messages/alarms';
import { deviceViewers } from '../scope/service';
import { cancelEscalations, enqueue, priorityOf, snapshotOf } from './outbox';
import { deliveriesFor } from './recipients';

/**
 * What an alarm's change sends beyond the console, in the transaction of the change (docs/notifications.md):
 * the same changes that make a notice in the message box (raised, or back from a shelf or suppression; a
 * standing alarm escalated to high) go to the accounts that see the device, on the channels each chose; an
 * alarm that starts waiting for acknowledgement starts its escalation clock, and one that stops waiting
 * (acknowledged, shelved, suppressed, closed) stops it, with the escalations not yet sent.
 */
export const alarmNotifications = async (trx: Kysely<DB>, before: AlarmRow | undefined, after: AlarmRow, at: number): Promise<void> => {
  const { notice, todo } = alarmMessageChange(before, after);
  const alarmId = Number(after.id);
  if (notice !== undefined) {
    const deliveries = await deliveriesFor(trx, await deviceViewers(trx, after.device_id), priorityOf(after), at);
    if (deliveries.length > 0) await enqueue(trx, await snapshotOf(trx, after), notice === 'alarmRaised' ? 'raised' : 'escalated', 0, deliveries, at);
  }
  if (todo === 'post') {
    await trx.insertInto('alarm_escalations').values({ alarm_id: alarmId, step: 0, due_at: at }).onConflict((conflict) => conflict.column('alarm_id').doNothing()).execute();
  } else if (todo === 'resolve') {
    await trx.deleteFrom('alarm_escalations').where('alarm_id', '=', alarmId).execute();
    await cancelEscalations(trx, alarmId, at);
  }
};
