import { systolicOf } from './bloodPressure';
import { DEFAULT_RATED_MAX_ATA } from './deviceTypes';
import type { Telemetry } from './mqtt/payloads';

/**
 * The normal range of each reading an operator watches, from the default alarm rules of docs/product.md
 * ("Safety alarms"; docs/alarms.md): the oxygen monitor marks a value outside it. Only the thresholds are
 * used here, not the rules' delays and deadbands: a mark shows the reading as it is now, it is no alarm.
 */

/** The alarm rule's priority a value reaches (humidity's rule is low priority). */
export type RangeLevel = 'low' | 'medium' | 'high';

/** How the value stands against the limit: at least, above, below, or outside a band (both ends normal). */
type RangeComparison = 'atLeast' | 'above' | 'below' | 'outside';

export type MarkedReading = 'RCPi02' | 'RCP' | 'RCT' | 'RCRH' | 'HmSP02' | 'HmHR' | 'HmBP';

/** The occupant's readings: their rules apply only while a session runs. */
export const VITAL_READINGS: readonly MarkedReading[] = ['HmSP02', 'HmHR', 'HmBP'];

type Limit = number | readonly [low: number, high: number];

/** What a mark depends on beyond the reading: the device's type. */
export interface RangeContext {
  /** The rated maximum pressure of the device's type, ATA (docs/device-types.md). */
  ratedMaxAta: number;
}

const DEFAULT_CONTEXT: RangeContext = { ratedMaxAta: DEFAULT_RATED_MAX_ATA };

interface Band {
  level: RangeLevel;
  comparison: RangeComparison;
  /** The limit, or how to find it in the reading (the set point) or the device's type; undefined when the reading lacks it. */
  limit: Limit | ((reading: Telemetry, context: RangeContext) => number | undefined);
}
/** How far above its set point the cabin pressure may be, ATA. */
const ABOVE_SET_POINT_ATA = 0.1;

/** Per reading, its bands, the most severe first: the first a value falls in is its mark. */
export const READING_RANGES: Readonly<Record<MarkedReading, readonly Band[]>> = {
  RCPi02: [
    { level: 'high', comparison: 'atLeast', limit: 23.5 },
    { level: 'medium', comparison: 'atLeast', limit: 23.0 },
  ],
  RCP: [
    { level: 'high', comparison: 'above', limit: (_reading, { ratedMaxAta }) => ratedMaxAta },
    // Rounded to the reading's hundredths, so 1.3 + 0.1 is 1.4 and not 1.4000000000000001.
    { level: 'medium', comparison: 'above', limit: (reading) => (reading.SP === undefined ? undefined : Math.round((reading.SP + ABOVE_SET_POINT_ATA) * 100) / 100) },
  ],
  RCT: [
    { level: 'high', comparison: 'above', limit: 30 },
    { level: 'medium', comparison: 'outside', limit: [18, 26] },
  ],
  RCRH: [{ level: 'low', comparison: 'outside', limit: [50, 85] }],
  HmSP02: [
    { level: 'high', comparison: 'below', limit: 90 },
    { level: 'medium', comparison: 'below', limit: 94 },
  ],
  HmHR: [
    { level: 'high', comparison: 'outside', limit: [40, 140] },
    { level: 'medium', comparison: 'outside', limit: [50, 120] },
  ],
  // Systolic, mmHg.
  HmBP: [
    { level: 'high', comparison: 'atLeast', limit: 180 },
    { level: 'medium', comparison: 'atLeast', limit: 160 },
  ],
};

/** A value outside its normal range: the band it fell in and that band's limit. */
export interface RangeMark {
  level: RangeLevel;
  comparison: RangeComparison;
  limit: Limit;
}

/** A band (a pair of limits) is crossed outside it; a single limit as the comparison says. */
const crosses = (value: number, comparison: RangeComparison, limit: Limit): boolean => {
  if (typeof limit !== 'number') return value < limit[0] || value > limit[1];
  if (comparison === 'atLeast') return value >= limit;
  return comparison === 'above' ? value > limit : value < limit;
};

/** The number a reading's bands test: the value itself, or the systolic of a blood pressure. */
const testedValue = (reading: Telemetry, field: MarkedReading): number | undefined => {
  const value = reading[field];
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? systolicOf(value) : undefined;
};

/**
 * The mark of `field` in `reading`, or undefined when its value is missing or normal; the cabin pressure is
 * marked against the device type's rated maximum (the default type's, 2.0 ATA, when the caller has none).
 */
export const rangeMark = (reading: Telemetry, field: MarkedReading, context: RangeContext = DEFAULT_CONTEXT): RangeMark | undefined => {
  const value = testedValue(reading, field);
  if (value === undefined) return undefined;
  for (const band of READING_RANGES[field]) {
    const limit = typeof band.limit === 'function' ? band.limit(reading, context) : band.limit;
    if (limit !== undefined && crosses(value, band.comparison, limit)) return { level: band.level, comparison: band.comparison, limit };
  }
  return undefined;
};
