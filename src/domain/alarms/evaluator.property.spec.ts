import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Telemetry } from '../mqtt/payloads';
import { evaluateReading, newDeviceTracks } from './evaluator';
import { DEFAULT_ALARM_RULES } from './rules';

/**
 * The evaluator against a reference model of the default rules written here from docs/product.md's table,
 * without the evaluator's code: 10,000 random reading sequences (values around each threshold, readings a
 * fraction of a second to a minute apart, some sent twice or out of order), and the same alarms raised,
 * escalated and returned to normal at the same readings.
 */

type Level = 'high' | 'medium' | 'low';
interface ModelRule {
  field: 'RCPi02' | 'RCT' | 'RCRH' | 'HmSP02' | 'HmHR';
  /** The band a value is in, from the product's table. */
  level: (value: number) => Level | null;
  /** Whether a present condition still holds: outside the normal band by more than the deadband. */
  holds: (value: number) => boolean;
  onMs: number;
  offMs: number;
  /** Values the sequences draw from: around each limit and its deadband. */
  around: number[];
}

const MODEL: Record<string, ModelRule> = {
  'o2-high': {
    field: 'RCPi02',
    level: (v) => (v >= 23.5 ? 'high' : v >= 23 ? 'medium' : null),
    holds: (v) => v >= 22.8,
    onMs: 3000,
    offMs: 10_000,
    around: [21, 22.79, 22.8, 22.81, 22.99, 23, 23.01, 23.49, 23.5, 24],
  },
  temperature: {
    field: 'RCT',
    level: (v) => (v > 30 ? 'high' : v > 26 || v < 18 ? 'medium' : null),
    holds: (v) => v > 25.5 || v < 18.5,
    onMs: 30_000,
    offMs: 60_000,
    around: [17.9, 18, 18.4, 18.5, 22, 25.5, 25.6, 26, 26.1, 30, 30.1],
  },
  humidity: {
    field: 'RCRH',
    level: (v) => (v > 85 || v < 50 ? 'low' : null),
    holds: (v) => v > 83 || v < 52,
    onMs: 60_000,
    offMs: 60_000,
    around: [49, 50, 51, 52, 60, 83, 84, 85, 86],
  },
  'spo2-low': {
    field: 'HmSP02',
    level: (v) => (v < 90 ? 'high' : v < 94 ? 'medium' : null),
    holds: (v) => v < 95,
    onMs: 10_000,
    offMs: 10_000,
    around: [88, 89, 90, 93, 94, 95, 96, 99],
  },
  'heart-rate': {
    field: 'HmHR',
    level: (v) => (v > 140 || v < 40 ? 'high' : v > 120 || v < 50 ? 'medium' : null),
    holds: (v) => v > 117 || v < 53,
    onMs: 10_000,
    offMs: 10_000,
    around: [39, 40, 49, 50, 52, 53, 80, 117, 118, 120, 121, 140, 141],
  },
};

const RANK: Record<Level, number> = { low: 0, medium: 1, high: 2 };

/** What the model expects: for each reading kept (later than every earlier one), raise/escalate/clear or nothing. */
const modelEvents = (rule: ModelRule, readings: readonly { time: number; value: number }[]): string[] => {
  const events: string[] = [];
  let latest = -Infinity;
  // The runs of readings whose condition is the same: where each began, and its most severe level so far.
  let present = false;
  let runStart = -Infinity;
  let runPeak: Level | null = null;
  let alarm: Level | null = null;
  let first = true;
  for (const { time, value } of readings) {
    if (time <= latest) continue;
    latest = time;
    const now: boolean = present ? rule.holds(value) : rule.level(value) !== null;
    if (first || now !== present) {
      runStart = time;
      runPeak = null;
      present = now;
      first = false;
    }
    const level = rule.level(value);
    if (present && level !== null && (runPeak === null || RANK[level] > RANK[runPeak])) runPeak = level;
    if (present && alarm === null && runPeak !== null && time - runStart >= rule.onMs) {
      alarm = runPeak;
      events.push(`${time}:raise:${alarm}`);
    } else if (present && alarm !== null && level !== null && RANK[level] > RANK[alarm]) {
      alarm = level;
      events.push(`${time}:escalate:${alarm}`);
    } else if (!present && alarm !== null && time - runStart >= rule.offMs) {
      alarm = null;
      events.push(`${time}:clear`);
    }
  }
  return events;
};

const T0 = Date.UTC(2026, 10, 25);

const sequence = (rule: ModelRule) =>
  fc
    .array(
      fc.record({
        gap: fc.oneof(fc.integer({ min: 200, max: 2000 }), fc.integer({ min: 0, max: 70_000 })),
        value: fc.oneof(fc.constantFrom(...rule.around), fc.double({ min: Math.min(...rule.around) - 2, max: Math.max(...rule.around) + 2, noNaN: true })),
        // Sent again now (a redelivery) or this many readings late (out of order).
        replay: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }),
      }),
      { maxLength: 60 },
    )
    .map((steps) => {
      const sent: { time: number; value: number }[] = [];
      let time = T0;
      for (const step of steps) {
        time += step.gap;
        sent.push({ time, value: step.value });
        const replayed = step.replay > 0 ? sent[sent.length - 1 - step.replay] : undefined;
        if (replayed !== undefined) sent.push(replayed);
      }
      return sent;
    });

describe('the evaluator agrees with a reference model of the rules', () => {
  for (const [kind, rule] of Object.entries(MODEL)) {
    it(`${kind}: 2,000 random sequences`, () => {
      const evaluated = DEFAULT_ALARM_RULES.filter((each) => each.kind === kind);
      fc.assert(
        fc.property(sequence(rule), (readings) => {
          const device = newDeviceTracks();
          const events: string[] = [];
          for (const { time, value } of readings) {
            const reading: Telemetry = { Time: time, [rule.field]: value };
            for (const { event } of evaluateReading(evaluated, device, reading)) {
              events.push(event.type === 'clear' ? `${time}:clear` : `${time}:${event.type}:${event.level}`);
            }
          }
          expect(events).toEqual(modelEvents(rule, readings));
        }),
        { numRuns: 2000 },
      );
    });
  }
});
