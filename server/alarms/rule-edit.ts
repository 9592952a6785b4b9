import type { z } from 'zod';
import { alarmRulesConfig } from '../../src/resources/alarm-rules/config';
import { writeSchema } from '../../src/resources/schema';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import { flag } from '../db/schema';
import { notFound } from '../http/envelope';

/** `PUT /api/v1/alarm-rules/{id}`: the edit form's fields of src/resources/alarm-rules/config.ts (a limit left out is none). */
export const alarmRuleEditBody = writeSchema(alarmRulesConfig, 'edit');
type AlarmRuleEdit = z.infer<typeof alarmRuleEditBody>;

const limitOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/**
 * An admin's edit of one rule of one device type, with its audit entry (the rule before and after) in one
 * transaction. The alarm engine applies it from its next sweep (docs/alarms.md, "Tuning").
 */
export const editAlarmRule = async (ctx: Pick<AppContext, 'db' | 'now'>, actor: AuditActor, id: number, edit: AlarmRuleEdit): Promise<void> => {
  const at = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('alarm_rules').selectAll().where('id', '=', id).executeTakeFirst();
    if (before === undefined) throw notFound();
    const after = await trx
      .updateTable('alarm_rules')
      .set({
        priority: edit.priority === 'low' ? 'low' : 'medium',
        above: limitOf(edit.above),
        below: limitOf(edit.below),
        high_above: limitOf(edit.highAbove),
        high_below: limitOf(edit.highBelow),
        at_limit: flag(edit.atLimit === true),
        on_delay_s: Number(edit.onDelayS),
        off_delay_s: Number(edit.offDelayS),
        deadband: Number(edit.deadband),
        enabled: flag(edit.enabled === true),
        updated_at: at,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, { action: 'alarmRule.update', targetType: 'alarmRule', targetId: id, before, after }, at);
  });
};
