import type { Kysely } from 'kysely';
import { UNACKED_ALARM_STATES } from '../../src/domain/alarms/open';
import type { AlarmPriority } from '../../src/domain/alarms/rules';
import { recordAudit, SYSTEM_ACTOR } from '../audit/trail';
import type { AlarmRow, DB } from '../db/schema';
import { deviceViewers } from '../scope/service';
import { enqueue, snapshotOf } from './outbox';
import { deliveriesFor } from './recipients';

/**
 * Escalation (docs/notifications.md, "Escalation"): an alarm still waiting for acknowledgement after its
 * priority's time is sent to the administrators directly above the accounts it went to (those the device is
 * assigned to), then, each time as long again, to the level above those, up to the super administrators,
 * the last step. Each step is a row of the alarm's history and an audit entry, with its outbox rows, in one
 * transaction that first moves the alarm's escalation on from the step it read: two instances sweeping one
 * store take each step once. Acknowledging, shelving, suppressing or closing the alarm deletes its
 * escalation (./alarms.ts), so no instance takes another step.
 */

interface AccountNode {
  id: number;
  account: string;
  level: number;
  sub_id: number | null;
}

/**
 * The accounts of each step: step 1 the administrators directly above the device's assigned accounts, each
 * next step the level above, super administrators (level 0) always and only in the last step.
 */
const escalationSteps = (accounts: readonly AccountNode[], assigned: readonly number[]): AccountNode[][] => {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const steps: AccountNode[][] = [];
  let current = assigned.map((id) => byId.get(id)).filter((account) => account !== undefined && account.level !== 0) as AccountNode[];
  const seen = new Set<number>(current.map((account) => account.id));
  for (;;) {
    const above = new Map<number, AccountNode>();
    for (const account of current) {
      const parent = account.sub_id === null ? undefined : byId.get(account.sub_id);
      if (parent !== undefined && parent.level !== 0 && !seen.has(parent.id)) above.set(parent.id, parent);
    }
    if (above.size === 0) break;
    for (const id of above.keys()) seen.add(id);
    current = [...above.values()];
    steps.push(current);
  }
  steps.push(accounts.filter((account) => account.level === 0));
  return steps;
};

const minutesOf = (minutes: Record<AlarmPriority, number>, alarm: AlarmRow): number => minutes[alarm.priority as AlarmPriority];

/** Takes every escalation step due at `now`; answers how many were taken. */
export const escalateDue = async (db: Kysely<DB>, now: number, escalateMinutes: Record<AlarmPriority, number>): Promise<number> => {
  const waiting = await db
    .selectFrom('alarm_escalations as e')
    .innerJoin('alarms as a', 'a.id', 'e.alarm_id')
    .selectAll('a')
    .select(['e.step as escalation_step', 'e.due_at as escalation_from'])
    .where('a.state', 'in', [...UNACKED_ALARM_STATES])
    .execute();
  let taken = 0;
  for (const { escalation_step: step, escalation_from: from, ...alarm } of waiting) {
    const minutes = minutesOf(escalateMinutes, alarm);
    if (minutes === 0 || now < Number(from) + (step + 1) * minutes * 60_000) continue;
    if (await takeStep(db, alarm, step, minutes, now)) taken += 1;
  }
  return taken;
};

const takeStep = (db: Kysely<DB>, alarm: AlarmRow, step: number, minutes: number, at: number): Promise<boolean> =>
  db.transaction().execute(async (trx) => {
    const moved = await trx.updateTable('alarm_escalations').set({ step: step + 1 }).where('alarm_id', '=', alarm.id).where('step', '=', step).executeTakeFirst();
    // Taken by another instance meanwhile, or stopped by an acknowledgement.
    if (Number(moved.numUpdatedRows) === 0) return false;
    const current = await trx.selectFrom('alarms').selectAll().where('id', '=', alarm.id).where('state', 'in', [...UNACKED_ALARM_STATES]).executeTakeFirst();
    if (current === undefined) return false;
    const accounts = await trx.selectFrom('accounts').select(['id', 'account', 'level', 'sub_id']).where('disabled', '=', 0).execute();
    const assigned = (await deviceViewers(trx, current.device_id)).filter((id) => accounts.some((account) => account.id === id && account.level !== 0));
    const steps = escalationSteps(accounts, assigned);
    const targets = steps[step] ?? [];
    if (step + 1 >= steps.length) await trx.deleteFrom('alarm_escalations').where('alarm_id', '=', alarm.id).execute();
    const names = targets.map((account) => account.account);
    const deliveries = await deliveriesFor(
      trx,
      targets.map((account) => account.id),
      current.priority as AlarmPriority,
      at,
    );
    await enqueue(trx, await snapshotOf(trx, current), 'escalation', step + 1, deliveries, at);
    // Language-neutral: the history shows it as it is (the console names the step in the reader's language).
    const comment = `↑${step + 1} · ${names.join(', ')}`.slice(0, 255);
    await trx
      .insertInto('alarm_transitions')
      .values({ alarm_id: Number(current.id), at, from_state: current.state, to_state: current.state, actor_account: SYSTEM_ACTOR.account, comment })
      .execute();
    await recordAudit(
      trx,
      SYSTEM_ACTOR,
      { action: 'alarm.escalate', targetType: 'alarm', targetId: Number(current.id), deviceId: current.device_id, after: { step: step + 1, accounts: names, deliveries: deliveries.length } },
      at,
    );
    return true;
  });
