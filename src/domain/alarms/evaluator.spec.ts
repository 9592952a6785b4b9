import { describe, expect, it } from 'vitest';
import type { Telemetry } from '../mqtt/payloads';
import { evaluateEvent, evaluateReading, newDeviceTracks, type RuleEvent } from './evaluator';
import { DEFAULT_RATED_MAX_ATA } from '../deviceTypes';
import { DEFAULT_ALARM_RULES, withRatedMax, type AlarmKind, type AlarmRule } from './rules';

const T0 = Date.UTC(2026, 10, 25, 8);
/** The default rules of a type rated 2.0 ATA. */
const RULES = withRatedMax(DEFAULT_ALARM_RULES, DEFAULT_RATED_MAX_ATA);
const ruleOf = (kind: AlarmKind, rules: readonly AlarmRule[] = RULES): AlarmRule => {
  const rule = rules.find((each) => each.kind === kind);
  if (rule === undefined) throw new Error(`no default rule ${kind}`);
  return rule;
};

/** Readings one a second from T0 (each `fields`, or per second), through `rules`; the events with their second. */
const run = (rules: readonly AlarmRule[], readings: readonly Partial<Telemetry>[], start = newDeviceTracks()) => {
  const out: (RuleEvent & { second: number })[] = [];
  readings.forEach((fields, second) => {
    for (const event of evaluateReading(rules, start, { Time: T0 + second * 1000, ...fields })) out.push({ ...event, second });
  });
  return out;
};
const held = (fields: Partial<Telemetry>, seconds: number) => Array.from({ length: seconds }, () => fields);

describe('each rule at its boundary (held past its on-delay)', () => {
  const cases: [AlarmKind, Partial<Telemetry>, 'high' | 'medium' | 'low' | undefined][] = [
    ['o2-high', { RCPi02: 22.99 }, undefined],
    ['o2-high', { RCPi02: 23.0 }, 'medium'],
    ['o2-high', { RCPi02: 23.49 }, 'medium'],
    ['o2-high', { RCPi02: 23.5 }, 'high'],
    ['pressure-high', { SP: 1.3, RCP: 1.4 }, undefined],
    ['pressure-high', { SP: 1.3, RCP: 1.41 }, 'medium'],
    ['pressure-high', { SP: 1.3, RCP: 2.0 }, 'medium'],
    ['pressure-high', { SP: 1.3, RCP: 2.01 }, 'high'],
    ['pressure-high', { RCP: 1.9 }, undefined],
    ['temperature', { RCT: 18 }, undefined],
    ['temperature', { RCT: 17.9 }, 'medium'],
    ['temperature', { RCT: 26 }, undefined],
    ['temperature', { RCT: 26.1 }, 'medium'],
    ['temperature', { RCT: 30 }, 'medium'],
    ['temperature', { RCT: 30.1 }, 'high'],
    ['humidity', { RCRH: 50 }, undefined],
    ['humidity', { RCRH: 49.9 }, 'low'],
    ['humidity', { RCRH: 85 }, undefined],
    ['humidity', { RCRH: 85.1 }, 'low'],
    ['spo2-low', { HmSP02: 94 }, undefined],
    ['spo2-low', { HmSP02: 93.9 }, 'medium'],
    ['spo2-low', { HmSP02: 93 }, 'medium'],
    ['spo2-low', { HmSP02: 90 }, 'medium'],
    ['spo2-low', { HmSP02: 89.9 }, 'high'],
    ['spo2-low', { HmSP02: 89 }, 'high'],
    ['heart-rate', { HmHR: 50 }, undefined],
    ['heart-rate', { HmHR: 49 }, 'medium'],
    ['heart-rate', { HmHR: 40 }, 'medium'],
    ['heart-rate', { HmHR: 39 }, 'high'],
    ['heart-rate', { HmHR: 120 }, undefined],
    ['heart-rate', { HmHR: 121 }, 'medium'],
    ['heart-rate', { HmHR: 140 }, 'medium'],
    ['heart-rate', { HmHR: 141 }, 'high'],
    ['blood-pressure', { HmBP: '159/90' }, undefined],
    ['blood-pressure', { HmBP: '160/90' }, 'medium'],
    ['blood-pressure', { HmBP: '179/90' }, 'medium'],
    ['blood-pressure', { HmBP: '180/90' }, 'high'],
  ];
  it.each(cases)('%s at %j raises %s', (kind, fields, level) => {
    const events = run([ruleOf(kind)], held(fields, 70));
    expect(events.filter((each) => each.event.type === 'raise').map((each) => each.event.type === 'raise' && each.event.level)).toEqual(level ? [level] : []);
  });
});

describe("pressure-high against the type's rated maximum", () => {
  const highest = (rules: readonly AlarmRule[], fields: Partial<Telemetry>) =>
    run([ruleOf('pressure-high', rules)], held(fields, 4)).map((each) => each.event.type === 'raise' && [each.event.level, each.event.threshold]);
  it('a type rated 1.5 ATA alarms high above 1.5 ATA, not at it', () => {
    const rated = withRatedMax(DEFAULT_ALARM_RULES, 1.5);
    expect(highest(rated, { RCP: 1.5 })).toEqual([]);
    expect(highest(rated, { RCP: 1.51 })).toEqual([['high', 1.5]]);
    // The set point's medium band still comes first below the rating.
    expect(highest(rated, { SP: 1.3, RCP: 1.45 })).toEqual([['medium', 1.4]]);
  });
  it("an admin's lower high limit is used; one above the rating is not", () => {
    const withLimit = (highAbove: number) => DEFAULT_ALARM_RULES.map((each) => (each.kind === 'pressure-high' ? { ...each, highAbove } : each));
    expect(highest(withRatedMax(withLimit(1.4), 1.5), { RCP: 1.41 })).toEqual([['high', 1.4]]);
    expect(highest(withRatedMax(withLimit(1.8), 1.5), { RCP: 1.51 })).toEqual([['high', 1.5]]);
  });
  it('leaves every other rule as it is', () => {
    expect(withRatedMax(DEFAULT_ALARM_RULES, 1.3).filter((each) => each.kind !== 'pressure-high')).toEqual(DEFAULT_ALARM_RULES.filter((each) => each.kind !== 'pressure-high'));
  });
});

describe('delays and deadband', () => {
  const o2 = [ruleOf('o2-high')];
  it('raises after the on-delay of reading Time, not before', () => {
    expect(run(o2, held({ RCPi02: 23.6 }, 4)).map((each) => each.second)).toEqual([3]);
    expect(run(o2, held({ RCPi02: 23.6 }, 3))).toEqual([]);
  });
  it('a single noisy sample raises nothing', () => {
    expect(run(o2, [{ RCPi02: 22 }, { RCPi02: 25 }, ...held({ RCPi02: 22 }, 20)])).toEqual([]);
  });
  it('a value oscillating around the threshold within the deadband raises one alarm and never clears it', () => {
    const oscillating = Array.from({ length: 60 }, (_, second) => ({ RCPi02: second % 2 === 0 ? 23.05 : 22.85 }));
    const events = run(o2, [...held({ RCPi02: 23.1 }, 4), ...oscillating]);
    expect(events.map((each) => each.event.type)).toEqual(['raise']);
  });
  it('returns to normal only after the off-delay, and a return within it keeps the alarm', () => {
    const events = run(o2, [...held({ RCPi02: 23.6 }, 4), ...held({ RCPi02: 22 }, 9), { RCPi02: 23.6 }, ...held({ RCPi02: 22 }, 11)]);
    expect(events.map((each) => [each.event.type, each.second])).toEqual([
      ['raise', 3],
      ['clear', 24],
    ]);
  });
  it('escalates a standing alarm once the high band is crossed', () => {
    const events = run(o2, [...held({ RCPi02: 23.2 }, 4), { RCPi02: 23.5 }]);
    expect(events.map((each) => each.event.type === 'clear' ? 'clear' : `${each.event.type}:${each.event.level}`)).toEqual(['raise:medium', 'escalate:high']);
  });
  it('blood pressure raises on one reading and returns at the next normal one', () => {
    const events = run([ruleOf('blood-pressure')], [{ HmBP: '165/95' }, { HmBP: '150/90' }]);
    expect(events.map((each) => [each.event.type, each.second])).toEqual([
      ['raise', 0],
      ['clear', 1],
    ]);
  });
  it('ignores a redelivered or out-of-order reading', () => {
    const device = newDeviceTracks();
    const rules = [ruleOf('blood-pressure')];
    expect(evaluateReading(rules, device, { Time: T0 + 5000, HmBP: '120/80' })).toEqual([]);
    expect(evaluateReading(rules, device, { Time: T0 + 4000, HmBP: '190/95' })).toEqual([]);
    expect(evaluateReading(rules, device, { Time: T0 + 5000, HmBP: '190/95' })).toEqual([]);
    // Older than the device's newest reading, even one without a blood pressure: out of order too.
    expect(evaluateReading(rules, device, { Time: T0 + 7000, RCP: 1.3 })).toEqual([]);
    expect(evaluateReading(rules, device, { Time: T0 + 6000, HmBP: '190/95' })).toEqual([]);
    expect(evaluateReading(rules, device, { Time: T0 + 8000, HmBP: '190/95' })).toMatchObject([{ kind: 'blood-pressure', event: { type: 'raise' } }]);
  });
  it('a standing alarm loaded after a restart returns to normal after the off-delay', () => {
    const events = run(o2, held({ RCPi02: 22 }, 12), newDeviceTracks({ 'o2-high': 'high' }));
    expect(events.map((each) => [each.event.type, each.second])).toEqual([['clear', 10]]);
  });
});

describe('pressure rate', () => {
  const rate = [ruleOf('pressure-rate')];
  it('raises for a pressure loss faster than 0.1 ATA a minute while holding the set point', () => {
    // 0.2 ATA a minute: still within 0.1 ATA of SP for the first 30 s.
    const falling = Array.from({ length: 25 }, (_, second) => ({ SP: 1.5, RCP: 1.5 - (0.2 * second) / 60 }));
    expect(run(rate, falling).map((each) => [each.event.type, each.second])).toEqual([['raise', 20]]);
  });
  it('a slow drift raises nothing', () => {
    const drifting = Array.from({ length: 40 }, (_, second) => ({ SP: 1.5, RCP: 1.5 - (0.05 * second) / 60 }));
    expect(run(rate, drifting)).toEqual([]);
  });
  it('pressurisation (far from the set point) raises nothing', () => {
    const rising = Array.from({ length: 40 }, (_, second) => ({ SP: 2.0, RCP: 1.0 + (0.5 * second) / 60 }));
    expect(run(rate, rising)).toEqual([]);
  });
});

describe('event rules', () => {
  it('the emergency raises high at once and clears when it ends; lost telemetry clears at the first reading', () => {
    const device = newDeviceTracks();
    expect(evaluateEvent(ruleOf('erd'), device, true)).toEqual([{ kind: 'erd', event: { type: 'raise', level: 'high', value: null, threshold: null } }]);
    expect(evaluateEvent(ruleOf('erd'), device, true)).toEqual([]);
    expect(evaluateEvent(ruleOf('erd'), device, false)).toEqual([{ kind: 'erd', event: { type: 'clear', value: null } }]);
    expect(evaluateEvent(ruleOf('offline'), device, true)[0]?.event).toMatchObject({ type: 'raise', level: 'medium' });
    expect(evaluateReading(DEFAULT_ALARM_RULES, device, { Time: T0 })).toEqual([{ kind: 'offline', event: { type: 'clear', value: null } }]);
  });
  it('a disabled rule raises nothing', () => {
    expect(evaluateEvent({ ...ruleOf('erd'), enabled: false }, newDeviceTracks(), true)).toEqual([]);
  });
});
