import type { Random } from '../src/domain/random';
import type { Telemetry } from '../src/domain/mqtt/payloads';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Set points of the seeded chambers' sessions, ATA. */
const SET_POINTS = [1.3, 1.5, 2.0] as const;

/**
 * A seeded chamber's newest reading, like the simulator's (docs/simulator.md): most within the normal ranges
 * of docs/product.md's alarm rules, every seventh out of several of them, so the oxygen monitor's marks show.
 */
export const seededReading = (index: number, random: Random, time: number): Telemetry => {
  const strained = index % 7 === 3;
  const SP = SET_POINTS[index % SET_POINTS.length] ?? 1.3;
  return {
    Time: time,
    SP,
    ST: 60,
    RCP: round(strained ? SP + 0.2 : SP - 0.03 + random() * 0.05, 2),
    RRD: Math.floor(random() * 60),
    RCPi02: round(strained ? 23.6 : 21 + random() * 1.5, 1),
    RGPi02: round(90 + random() * 5, 1),
    RCT: round(strained ? 27.4 : 21 + random() * 3, 1),
    RCRH: Math.round(55 + random() * 20),
    RAP: round(100 + random() * 2.5, 1),
    HmSP02: strained ? 92 : 95 + Math.floor(random() * 4),
    HmHR: strained ? 126 : 62 + Math.floor(random() * 25),
    HmBP: strained ? '165/96' : `${108 + Math.floor(random() * 20)}/${68 + Math.floor(random() * 12)}`,
  };
};
