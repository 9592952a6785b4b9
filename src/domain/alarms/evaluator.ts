import type { Telemetry } from '../mqtt/payloads';
import { limitsFor, watchedValue } from './condition';
import { pressureRate, type PressureSample } from './pressureRate';
import { EVENT_KINDS, type AlarmKind, type AlarmPriority, type AlarmRule } from './rules';
import { newTrack, stepEventTrack, stepTrack, type RuleTrack, type TrackEvent } from './tracker';

/**
 * The evaluator of one device's rules (docs/alarms.md): pure, so the server, the property test and the
 * console share it. The server keeps one per device and turns its events into alarm states (./states.ts).
 */
export interface DeviceTracks {
  tracks: Map<AlarmKind, RuleTrack>;
  /** The pressure-rate rule's window (./pressureRate.ts). */
  pressure: PressureSample[];
  /** Time of the newest reading evaluated: one not later changes nothing (a redelivery, or one out of order). */
  newest: number;
}

export interface RuleEvent {
  kind: AlarmKind;
  event: TrackEvent;
}

/** A device's tracks; `raised`: the alarms standing already (after a restart, from the store), by rule. */
export const newDeviceTracks = (raised: Partial<Record<AlarmKind, AlarmPriority>> = {}): DeviceTracks => ({
  tracks: new Map(Object.entries(raised).map(([kind, level]) => [kind as AlarmKind, newTrack(level)])),
  pressure: [],
  newest: -Infinity,
});

const trackOf = (device: DeviceTracks, kind: AlarmKind): RuleTrack => {
  let track = device.tracks.get(kind);
  if (track === undefined) {
    track = newTrack();
    device.tracks.set(kind, track);
  }
  return track;
};

/** The priority an event rule raises: the emergency is high, lost telemetry the rule's own. */
const eventLevel = (rule: AlarmRule): AlarmPriority => (rule.kind === 'erd' ? 'high' : rule.priority);

/**
 * A stored reading through every enabled rule that watches readings; a reading also ends lost telemetry.
 * A device's readings are evaluated in Time order: one not later than the newest evaluated changes nothing.
 */
export const evaluateReading = (rules: readonly AlarmRule[], device: DeviceTracks, reading: Telemetry): RuleEvent[] => {
  if (reading.Time <= device.newest) return [];
  device.newest = reading.Time;
  const events: RuleEvent[] = [];
  const rate = pressureRate(device.pressure, reading);
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const track = trackOf(device, rule.kind);
    let event: TrackEvent | undefined;
    if (rule.kind === 'offline') event = stepEventTrack(track, false, eventLevel(rule));
    else if (!EVENT_KINDS.includes(rule.kind)) {
      const value = rule.kind === 'pressure-rate' ? rate : watchedValue(rule.kind, reading);
      if (value !== undefined) event = stepTrack(rule, track, limitsFor(rule, reading), reading.Time, value);
    }
    if (event !== undefined) events.push({ kind: rule.kind, event });
  }
  return events;
};

/** An event rule's condition reported (`erd` by the emergency event, `offline` by the sweep). */
export const evaluateEvent = (rule: AlarmRule, device: DeviceTracks, present: boolean): RuleEvent[] => {
  if (!rule.enabled) return [];
  const event = stepEventTrack(trackOf(device, rule.kind), present, eventLevel(rule));
  return event === undefined ? [] : [{ kind: rule.kind, event }];
};
