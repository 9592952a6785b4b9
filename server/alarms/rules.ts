import type { Kysely } from 'kysely';
import type { AlarmKind, AlarmRule } from '../../src/domain/alarms/rules';
import { isSet, type AlarmRuleRow, type DB } from '../db/schema';

/** A stored rule as the evaluator takes it. */
const ruleOfRow = (row: AlarmRuleRow): AlarmRule => ({
  kind: row.kind as AlarmKind,
  priority: row.priority === 'low' ? 'low' : 'medium',
  above: row.above,
  below: row.below,
  highAbove: row.high_above,
  highBelow: row.high_below,
  atLimit: isSet(row.at_limit),
  onDelayS: row.on_delay_s,
  offDelayS: row.off_delay_s,
  deadband: row.deadband,
  enabled: isSet(row.enabled),
});

/** Every device type's rules, by type (1–5). */
export type RulesByType = ReadonlyMap<number, readonly AlarmRule[]>;

export const loadRules = async (db: Kysely<DB>): Promise<RulesByType> => {
  const rows = await db.selectFrom('alarm_rules').selectAll().orderBy('id').execute();
  const byType = new Map<number, AlarmRule[]>();
  for (const row of rows) {
    const rules = byType.get(row.device_type) ?? [];
    rules.push(ruleOfRow(row));
    byType.set(row.device_type, rules);
  }
  return byType;
};
