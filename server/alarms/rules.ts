import type { Kysely } from 'kysely';
import { ratedMaxAtaIn } from '../../src/domain/deviceTypes';
import { DEFAULT_ALARM_RULES, withRatedMax, type AlarmKind, type AlarmRule } from '../../src/domain/alarms/rules';
import { isSet, type AlarmRuleRow, type DB } from '../db/schema';
import { ratedMaxima } from '../device-types/ratedMax';

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

/** A device type's rules as the engine evaluates them. */
export type RulesOfType = (type: number) => readonly AlarmRule[];

/**
 * Every device type's rules, read once (the engine reads them again after each sweep, so an admin's edit of
 * a rule or of a type's rated maximum applies from then on): the stored rules of the type, or the defaults
 * for a type without rows, with `pressure-high`'s high limit from the type's rated maximum (withRatedMax).
 */
export const loadRules = async (db: Kysely<DB>): Promise<RulesOfType> => {
  const rows = await db.selectFrom('alarm_rules').selectAll().orderBy('id').execute();
  const maxima = await ratedMaxima(db);
  const stored = new Map<number, AlarmRule[]>();
  for (const row of rows) {
    const rules = stored.get(row.device_type) ?? [];
    rules.push(ruleOfRow(row));
    stored.set(row.device_type, rules);
  }
  const evaluated = new Map<number, readonly AlarmRule[]>();
  return (type) => {
    let rules = evaluated.get(type);
    if (rules === undefined) {
      rules = withRatedMax(stored.get(type) ?? DEFAULT_ALARM_RULES, ratedMaxAtaIn(maxima, type));
      evaluated.set(type, rules);
    }
    return rules;
  };
};
