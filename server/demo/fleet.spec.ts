import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateReading, newDeviceTracks } from '../../src/domain/alarms/evaluator';
import { DEFAULT_ALARM_RULES, withRatedMax } from '../../src/domain/alarms/rules';
import { DEFAULT_DEVICE_TYPES, SESSION_RATING_MARGIN_ATA, type RatedMaxima } from '../../src/domain/deviceTypes';
import { DEVICE_STATES } from '../../src/domain/devices';
import { DEMO_DEVICES, type DemoDevice } from '../../src/domain/demo';
import { demoReadings } from './fleet';

/**
 * The demo's seeded sessions keep within each type's rating (docs/simulator.md, "The demo's data"): over
 * many devices (each Id seeds its readings) and ratings, every reading's set point lies at least the
 * margin below its type's rating, and the pressure-high rule raises nothing on them.
 */

const NOW = Date.UTC(2026, 0, 5, 9);
const DEFAULT_MAXIMA: RatedMaxima = new Map(DEFAULT_DEVICE_TYPES.map((type) => [type.id, type.ratedMaxAta]));

const pressureAlarms = (demo: DemoDevice, maxima: RatedMaxima) => {
  const ratedMaxAta = maxima.get(demo.type) ?? 0;
  const rows = demoReadings(demo, NOW, 300, maxima);
  const rules = withRatedMax(DEFAULT_ALARM_RULES, ratedMaxAta).filter((rule) => rule.kind === 'pressure-high');
  const tracks = newDeviceTracks();
  const raised = [...rows]
    .reverse()
    .flatMap((row) => evaluateReading(rules, tracks, { Time: row.time, SP: row.sp ?? undefined, RCP: row.rcp ?? undefined }))
    .filter((each) => each.event.type === 'raise');
  return { rows, ratedMaxAta, raised };
};

describe("the demo fleet's readings", () => {
  it("hold every session's set point below its type's rating, raising no pressure alarm, for the demo's own chambers", () => {
    for (const demo of DEMO_DEVICES) {
      const { rows, ratedMaxAta, raised } = pressureAlarms(demo, DEFAULT_MAXIMA);
      expect(rows.length, demo.id).toBe(300);
      for (const row of rows) expect(row.sp ?? Infinity, demo.id).toBeLessThanOrEqual(ratedMaxAta - SESSION_RATING_MARGIN_ATA + 1e-9);
      expect(raised, demo.id).toEqual([]);
    }
  });

  it('do so for any chamber and any ratings an administrator set (1.1–3.0 ATA)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^OC-[A-Z0-9]{1,8}$/),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(...DEVICE_STATES),
        fc.array(fc.integer({ min: 110, max: 300 }), { minLength: 5, maxLength: 5 }),
        (id, type, state, hundredths) => {
          const maxima: RatedMaxima = new Map(hundredths.map((value, index) => [index + 1, value / 100]));
          const demo: DemoDevice = { id, name: id, type, location: 'Lab', state, permission: 'Open', online: true, erd: false, quietHours: 0 };
          const { rows, ratedMaxAta, raised } = pressureAlarms(demo, maxima);
          for (const row of rows) {
            expect(row.sp ?? Infinity).toBeLessThanOrEqual(Math.max(1, ratedMaxAta - SESSION_RATING_MARGIN_ATA) + 1e-9);
            expect(row.rcp ?? Infinity).toBeLessThanOrEqual(ratedMaxAta);
          }
          expect(raised).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
