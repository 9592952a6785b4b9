import { crossingOf, stillCrossed, type Crossing, type Limits } from './condition';
import { PRIORITY_RANK, type AlarmPriority, type AlarmRule } from './rules';

/**
 * One rule's condition on one device, over time (docs/alarms.md, "Delays and deadband"). Driven by the
 * readings' own Time, never the wall clock: present once a value crosses a band, and while it stays
 * outside the band by more than the deadband; raised once present for the on-delay, returned to normal once
 * absent for the off-delay. The evaluator feeds each device's readings in Time order (./evaluator.ts).
 */
export interface RuleTrack {
  present: boolean;
  /** Reading Time at which `present` took its value; undefined before the first reading. */
  since: number | undefined;
  /** The most severe band crossed since the condition became present. */
  peak: Crossing | undefined;
  /** The priority of the raised alarm; undefined while none is raised. */
  raised: AlarmPriority | undefined;
}

export type TrackEvent =
  | { type: 'raise'; level: AlarmPriority; value: number | null; threshold: number | null }
  | { type: 'escalate'; level: AlarmPriority; value: number; threshold: number | null }
  | { type: 'clear'; value: number | null };

/** A fresh track; `raised` when an alarm of the rule is already standing (after a restart, from the store). */
export const newTrack = (raised?: AlarmPriority): RuleTrack => ({ present: raised !== undefined, since: undefined, peak: undefined, raised });

const moreSevere = (crossing: Crossing | undefined, than: AlarmPriority | undefined): crossing is Crossing =>
  crossing !== undefined && (than === undefined || PRIORITY_RANK[crossing.level] > PRIORITY_RANK[than]);

/** The track after a reading of `value` at `time` (mutated in place), and what it raised, escalated or cleared. */
export const stepTrack = (rule: AlarmRule, track: RuleTrack, limits: Limits, time: number, value: number): TrackEvent | undefined => {
  const crossing = crossingOf(rule, limits, value);
  const present = track.present ? stillCrossed(rule, limits, value) : crossing !== undefined;
  if (present !== track.present || track.since === undefined) {
    track.present = present;
    track.since = time;
    track.peak = undefined;
  }
  if (present && moreSevere(crossing, track.peak?.level)) track.peak = crossing;
  const held = time - track.since;
  if (present && track.raised === undefined && track.peak !== undefined && held >= rule.onDelayS * 1000) {
    track.raised = track.peak.level;
    return { type: 'raise', level: track.raised, value, threshold: track.peak.threshold };
  }
  if (present && track.raised !== undefined && moreSevere(crossing, track.raised)) {
    track.raised = crossing.level;
    return { type: 'escalate', level: crossing.level, value, threshold: crossing.threshold };
  }
  if (!present && track.raised !== undefined && held >= rule.offDelayS * 1000) {
    track.raised = undefined;
    return { type: 'clear', value };
  }
  return undefined;
};

/**
 * An event rule's condition (`erd` from the emergency event, `offline` from the offline sweep): raised the
 * moment it is reported at `level`, cleared the moment it ends; no delays, and the order of arrival decides.
 */
export const stepEventTrack = (track: RuleTrack, present: boolean, level: AlarmPriority): TrackEvent | undefined => {
  track.present = present;
  if (present && track.raised === undefined) {
    track.raised = level;
    return { type: 'raise', level, value: null, threshold: null };
  }
  if (!present && track.raised !== undefined) {
    track.raised = undefined;
    return { type: 'clear', value: null };
  }
  return undefined;
};
