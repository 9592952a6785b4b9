import { describe, expect, it } from 'vitest';
import { rangeMark, type MarkedReading } from './readingRanges';
import type { Telemetry } from './mqtt/payloads';

const T = 1_767_600_000_000;
const level = (field: MarkedReading, reading: Omit<Telemetry, 'Time'>) => rangeMark({ Time: T, ...reading }, field)?.level;

describe('rangeMark: the alarm thresholds of docs/product.md, at each boundary', () => {
  it.each([
    ['RCPi02', { RCPi02: 22.99 }, undefined],
    ['RCPi02', { RCPi02: 23.0 }, 'medium'],
    ['RCPi02', { RCPi02: 23.49 }, 'medium'],
    ['RCPi02', { RCPi02: 23.5 }, 'high'],
    ['RCP', { RCP: 1.4, SP: 1.3 }, undefined],
    ['RCP', { RCP: 1.41, SP: 1.3 }, 'medium'],
    ['RCP', { RCP: 2.0, SP: 2.0 }, undefined],
    ['RCP', { RCP: 2.01, SP: 2.0 }, 'high'],
    ['RCP', { RCP: 1.9 }, undefined],
    ['RCT', { RCT: 18 }, undefined],
    ['RCT', { RCT: 17.9 }, 'medium'],
    ['RCT', { RCT: 26 }, undefined],
    ['RCT', { RCT: 26.1 }, 'medium'],
    ['RCT', { RCT: 30 }, 'medium'],
    ['RCT', { RCT: 30.1 }, 'high'],
    ['RCRH', { RCRH: 50 }, undefined],
    ['RCRH', { RCRH: 49.9 }, 'low'],
    ['RCRH', { RCRH: 85 }, undefined],
    ['RCRH', { RCRH: 85.1 }, 'low'],
    ['HmSP02', { HmSP02: 94 }, undefined],
    ['HmSP02', { HmSP02: 93 }, 'medium'],
    ['HmSP02', { HmSP02: 90 }, 'medium'],
    ['HmSP02', { HmSP02: 89 }, 'high'],
    ['HmHR', { HmHR: 50 }, undefined],
    ['HmHR', { HmHR: 49 }, 'medium'],
    ['HmHR', { HmHR: 40 }, 'medium'],
    ['HmHR', { HmHR: 39 }, 'high'],
    ['HmHR', { HmHR: 120 }, undefined],
    ['HmHR', { HmHR: 121 }, 'medium'],
    ['HmHR', { HmHR: 140 }, 'medium'],
    ['HmHR', { HmHR: 141 }, 'high'],
    ['HmBP', { HmBP: '159/90' }, undefined],
    ['HmBP', { HmBP: '160/90' }, 'medium'],
    ['HmBP', { HmBP: '179/90' }, 'medium'],
    ['HmBP', { HmBP: '180/90' }, 'high'],
  ] as const)('%s %j → %s', (field, reading, expected) => {
    expect(level(field, reading)).toBe(expected);
  });

  it('names the limit crossed, the set point worked out from the reading', () => {
    expect(rangeMark({ Time: T, RCP: 1.5, SP: 1.3 }, 'RCP')).toEqual({ level: 'medium', comparison: 'above', limit: 1.4 });
    expect(rangeMark({ Time: T, RCT: 17 }, 'RCT')).toEqual({ level: 'medium', comparison: 'outside', limit: [18, 26] });
  });

  it("marks the cabin pressure against the device type's rated maximum", () => {
    const soft = { ratedMaxAta: 1.3 };
    expect(rangeMark({ Time: T, RCP: 1.3, SP: 1.3 }, 'RCP', soft)).toBeUndefined();
    expect(rangeMark({ Time: T, RCP: 1.31, SP: 1.3 }, 'RCP', soft)).toEqual({ level: 'high', comparison: 'above', limit: 1.3 });
    expect(rangeMark({ Time: T, RCP: 1.31, SP: 1.3 }, 'RCP')).toBeUndefined();
    expect(rangeMark({ Time: T, RCP: 2.4, SP: 2.4 }, 'RCP', { ratedMaxAta: 2.5 })).toBeUndefined();
  });

  it('marks nothing a reading lacks', () => {
    expect(rangeMark({ Time: T }, 'RCPi02')).toBeUndefined();
    expect(rangeMark({ Time: T }, 'HmBP')).toBeUndefined();
  });
});
