/**
 * The safety alarms' vocabulary and default rules (docs/product.md, "Safety alarms"; docs/alarms.md): what a
 * rule is, per device type, shared by the server's engine, its tests and the console's labels.
 */

export const ALARM_KINDS = [
  'o2-high',
  'pressure-high',
  'pressure-rate',
  'temperature',
  'humidity',
  'spo2-low',
  'heart-rate',
  'blood-pressure',
  'offline',
  'erd',
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

export const ALARM_PRIORITIES = ['high', 'medium', 'low'] as const;
export type AlarmPriority = (typeof ALARM_PRIORITIES)[number];

/** The priority of a rule's lesser band (humidity's is low); its greater band is always high. */
export const LESSER_PRIORITIES = ['medium', 'low'] as const;
type LesserPriority = (typeof LESSER_PRIORITIES)[number];

/** How severe a priority is: a higher number wins. */
export const PRIORITY_RANK: Readonly<Record<AlarmPriority, number>> = { low: 0, medium: 1, high: 2 };

/** The occupant's rules: they apply only while a session runs (outside one, their alarms are suppressed). */
export const VITAL_KINDS: readonly AlarmKind[] = ['spo2-low', 'heart-rate', 'blood-pressure'];

/** Rules whose condition the server reports as an event (the emergency event, the offline sweep), not a reading's value. */
export const EVENT_KINDS: readonly AlarmKind[] = ['offline', 'erd'];

/** Device types (src/resources/devices/config.ts `Type`): each has its own copy of the rules. */
export const DEVICE_TYPES = [1, 2, 3, 4, 5] as const;

/**
 * One rule of one device type. A band is crossed above `above` or below `below` (null: no such side); the
 * high band likewise with `highAbove`/`highBelow`. For `pressure-high`, `above` is ATA over the reading's
 * set point `SP`, and `highAbove` null is the type's rated maximum pressure (`withRatedMax`); for
 * `pressure-rate`, ATA a minute. Once its condition is present, it stays present until
 * the value is back inside its band by more than `deadband`. It raises once present for `onDelayS` seconds
 * of reading Time, and returns to normal once absent for `offDelayS`.
 */
export interface AlarmRule {
  kind: AlarmKind;
  priority: LesserPriority;
  above: number | null;
  below: number | null;
  highAbove: number | null;
  highBelow: number | null;
  /** The limit itself counts as crossed (oxygen at 23.5 % is high). */
  atLimit: boolean;
  onDelayS: number;
  offDelayS: number;
  deadband: number;
  enabled: boolean;
}

const rule = (kind: AlarmKind, bands: Partial<AlarmRule>, onDelayS: number, offDelayS: number, deadband = 0): AlarmRule => ({
  kind,
  priority: 'medium',
  above: null,
  below: null,
  highAbove: null,
  highBelow: null,
  atLimit: false,
  enabled: true,
  ...bands,
  onDelayS,
  offDelayS,
  deadband,
});

/** The product's default rules (docs/product.md), the same for every device type until an admin edits them. */
export const DEFAULT_ALARM_RULES: readonly AlarmRule[] = [
  rule('o2-high', { above: 23.0, highAbove: 23.5, atLimit: true }, 3, 10, 0.2),
  // High: the type's rated maximum pressure (withRatedMax).
  rule('pressure-high', { above: 0.1 }, 3, 10, 0.02),
  rule('pressure-rate', { above: 0.1 }, 10, 30),
  rule('temperature', { above: 26, below: 18, highAbove: 30 }, 30, 60, 0.5),
  rule('humidity', { priority: 'low', above: 85, below: 50 }, 60, 60, 2),
  rule('spo2-low', { below: 94, highBelow: 90 }, 10, 10, 1),
  rule('heart-rate', { above: 120, below: 50, highAbove: 140, highBelow: 40 }, 10, 10, 3),
  rule('blood-pressure', { above: 160, highAbove: 180, atLimit: true }, 0, 0),
  // Raised by the offline sweep after its own 30 s of silence; returns at the first reading.
  rule('offline', { priority: 'medium' }, 0, 0),
  rule('erd', {}, 0, 0),
];

/**
 * A type's rules as they are evaluated, given its rated maximum pressure (ATA, docs/device-types.md):
 * `pressure-high`'s high limit is the rating, or the rule's own `highAbove` when an admin set a lower one.
 * A limit above the rating is never used: a chamber beyond what it is rated for is always high priority.
 */
export const withRatedMax = (rules: readonly AlarmRule[], ratedMaxAta: number): readonly AlarmRule[] =>
  rules.map((each) =>
    each.kind === 'pressure-high' ? { ...each, highAbove: each.highAbove === null ? ratedMaxAta : Math.min(each.highAbove, ratedMaxAta) } : each,
  );

export const ALARM_STATES = ['active-unacked', 'active-acked', 'rtn-unacked', 'shelved', 'suppressed', 'closed'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** The most an operator may shelve an alarm for, unless ALARM_SHELVE_MAX_MINUTES says otherwise. */
export const DEFAULT_SHELVE_MAX_MINUTES = 60;
