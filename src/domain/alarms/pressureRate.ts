import type { Telemetry } from '../mqtt/payloads';

/**
 * The cabin pressure's rate of change for the `pressure-rate` rule, ATA a minute. A chamber's pressure
 * sensor is noisy to a hundredth of an ATA, so the rate is measured over RATE_WINDOW_MS, not between two
 * readings a second apart; and only while the cabin holds its set point (both ends within HOLD_BAND_ATA of
 * SP), since pressurisation and decompression change the pressure on purpose.
 */

const RATE_WINDOW_MS = 10_000;
/** How close to its set point the cabin is while it holds pressure (the pressure-high rule's medium margin). */
const HOLD_BAND_ATA = 0.1;

export interface PressureSample {
  time: number;
  rcp: number;
  sp: number | undefined;
}

const holding = (sample: PressureSample): boolean => sample.sp !== undefined && Math.abs(sample.rcp - sample.sp) <= HOLD_BAND_ATA;

/**
 * Adds `reading` to the window (oldest first, later readings only) and answers the rate over it: undefined
 * until the window spans RATE_WINDOW_MS, 0 outside a hold. The window keeps one sample at least
 * RATE_WINDOW_MS old, the rate's starting point.
 */
export const pressureRate = (window: PressureSample[], reading: Telemetry): number | undefined => {
  if (reading.RCP === undefined) return undefined;
  const sample: PressureSample = { time: reading.Time, rcp: reading.RCP, sp: reading.SP };
  window.push(sample);
  while (window.length > 2 && sample.time - (window[1]?.time ?? sample.time) >= RATE_WINDOW_MS) window.shift();
  const start = window[0] ?? sample;
  const span = sample.time - start.time;
  if (span < RATE_WINDOW_MS) return undefined;
  if (!holding(start) || !holding(sample)) return 0;
  return (Math.abs(sample.rcp - start.rcp) / span) * 60_000;
};
