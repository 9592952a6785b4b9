import { systolicOf } from '../bloodPressure';
import type { Telemetry } from '../mqtt/payloads';
import type { AlarmKind, AlarmPriority, AlarmRule } from './rules';

/**
 * A rule's condition on one value (docs/alarms.md, "Rules"): the band the value crosses, and whether a
 * condition already present still holds (the deadband).
 */

/** A rule's limits for one reading: the rule's own, or, for `pressure-high`, its medium limit over the set point. */
export interface Limits {
  above: number | null;
  below: number | null;
  highAbove: number | null;
  highBelow: number | null;
}

/** The band a value crossed: its priority and the limit crossed. */
export interface Crossing {
  level: AlarmPriority;
  threshold: number;
}

/** Hundredths, as the readings carry them (1.3 + 0.1 is 1.4, not 1.4000000000000001). */
const hundredths = (value: number): number => Math.round(value * 100) / 100;

/** The limits of `rule` for `reading`: a pressure rule without a set point has no medium limit. */
export const limitsFor = (rule: AlarmRule, reading: Telemetry): Limits => {
  if (rule.kind !== 'pressure-high' || rule.above === null) return rule;
  return { ...rule, above: reading.SP === undefined ? null : hundredths(reading.SP + rule.above) };
};

const over = (value: number, limit: number | null, atLimit: boolean): limit is number =>
  limit !== null && (atLimit ? value >= limit : value > limit);
const under = (value: number, limit: number | null, atLimit: boolean): limit is number =>
  limit !== null && (atLimit ? value <= limit : value < limit);

/** The most severe band `value` crosses, or undefined when it is normal. */
export const crossingOf = (rule: Pick<AlarmRule, 'priority' | 'atLimit'>, limits: Limits, value: number): Crossing | undefined => {
  const { atLimit } = rule;
  if (over(value, limits.highAbove, atLimit)) return { level: 'high', threshold: limits.highAbove };
  if (under(value, limits.highBelow, atLimit)) return { level: 'high', threshold: limits.highBelow };
  if (over(value, limits.above, atLimit)) return { level: rule.priority, threshold: limits.above };
  if (under(value, limits.below, atLimit)) return { level: rule.priority, threshold: limits.below };
  return undefined;
};

/** Whether a present condition still holds: `value` is not back inside its band by more than the deadband. */
export const stillCrossed = (rule: Pick<AlarmRule, 'priority' | 'atLimit' | 'deadband'>, limits: Limits, value: number): boolean => {
  const relax = (limit: number | null, by: number): number | null => (limit === null ? null : limit + by);
  const relaxed: Limits = {
    above: relax(limits.above, -rule.deadband),
    below: relax(limits.below, rule.deadband),
    highAbove: relax(limits.highAbove, -rule.deadband),
    highBelow: relax(limits.highBelow, rule.deadband),
  };
  return crossingOf(rule, relaxed, value) !== undefined;
};

/** The reading a rule watches; `pressure-rate` is computed from several (./pressureRate.ts), the event rules from none. */
const READING_OF: Partial<Record<AlarmKind, (reading: Telemetry) => number | undefined>> = {
  'o2-high': (reading) => reading.RCPi02,
  'pressure-high': (reading) => reading.RCP,
  temperature: (reading) => reading.RCT,
  humidity: (reading) => reading.RCRH,
  'spo2-low': (reading) => reading.HmSP02,
  'heart-rate': (reading) => reading.HmHR,
  'blood-pressure': (reading) => (reading.HmBP === undefined ? undefined : systolicOf(reading.HmBP)),
};

/** The value `kind` watches in `reading`, undefined when the reading lacks it (the rule then waits). */
export const watchedValue = (kind: AlarmKind, reading: Telemetry): number | undefined => READING_OF[kind]?.(reading);
