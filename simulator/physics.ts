import type { Random } from '../src/domain/random';
import type { SPEEDS } from '../src/domain/mqtt/payloads';

/**
 * The simulated chamber's physics: pressure rates, the bands readings live in, and the noise that moves
 * them (docs/simulator.md, "Physics"). Pure functions of a seeded generator.
 */

export type Speed = (typeof SPEEDS)[number];

/** Pressurisation and ordinary decompression, ATA per minute, by the set speed SS. */
export const RATE_ATA_PER_MIN: Readonly<Record<Speed, number>> = { F: 0.1, M: 0.05, S: 0.025 };

/** Emergency rapid depressurisation: 1 ATA a minute (1.5 ATA to ambient in about 30 s). */
export const ERD_RATE_ATA_PER_MIN = 1;

/** One standard atmosphere in kPa: ambient pressure in ATA is RAP / this. */
export const KPA_PER_ATA = 101.325;

/**
 * A slowly varying signal: an Ornstein–Uhlenbeck process around `mean`, with standard deviation `sd`
 * once settled and correlation time `tau` seconds, kept inside [min, max].
 */
export interface Band {
  mean: number;
  sd: number;
  tau: number;
  min: number;
  max: number;
}

/** A standard normal deviate (Box–Muller), from two draws of the seeded generator. */
export const gaussian = (random: Random): number => {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
};

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** `value` after `dt` seconds of the band's process (the exact discretisation, so any dt is right). */
export const drift = (random: Random, value: number, band: Band, dt: number): number => {
  const keep = Math.exp(-dt / band.tau);
  const next = band.mean + (value - band.mean) * keep + band.sd * Math.sqrt(1 - keep * keep) * gaussian(random);
  return clamp(next, band.min, band.max);
};

/** A value drawn uniformly from [min, max). */
export const between = (random: Random, min: number, max: number): number => min + random() * (max - min);

export const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The bands of normal operation. Their limits sit inside docs/product.md's alarm thresholds (cabin O2 below
 * 23.0 %, temperature 18–26 °C, humidity 50–85 %RH, SpO2 from 94 %, heart rate 50–120 bpm, systolic
 * below 160), so a chamber without faults never raises an alarm; faults (faults.ts) cross them.
 */
export const BANDS = {
  /** Cabin O2 at rest: room air. */
  cabinO2Idle: { mean: 20.9, sd: 0.08, tau: 120, min: 20.6, max: 21.3 },
  /** Cabin O2 in a session: the oxygen supply lifts it a little (mean per chamber, see chamber.ts). */
  cabinO2Session: { mean: 21.8, sd: 0.15, tau: 120, min: 21, max: 22.5 },
  generatorO2: { mean: 93, sd: 0.6, tau: 300, min: 90, max: 95 },
  temperature: { mean: 22.5, sd: 0.3, tau: 600, min: 20, max: 25 },
  humidity: { mean: 60, sd: 2, tau: 600, min: 55, max: 70 },
  ambientKpa: { mean: 101.3, sd: 0.1, tau: 3600, min: 99, max: 103.5 },
  heartRate: { mean: 72, sd: 3, tau: 60, min: 55, max: 100 },
  spo2: { mean: 97.5, sd: 0.4, tau: 60, min: 96, max: 99.4 },
} as const satisfies Record<string, Band>;

/** Compressing the cabin warms it and decompressing cools it by about this much (°C). */
export const COMPRESSION_HEAT_C = 0.8;
/** An occupant's breath raises the cabin's humidity by about this much (%RH). */
export const OCCUPANT_HUMIDITY = 4;
/** SpO2 rises by this much per ATA above ambient (more oxygen dissolves under pressure), up to the band's max. */
export const SPO2_PER_ATA = 1.6;
/** The pressure sensor's white noise (ATA, standard deviation). */
export const PRESSURE_NOISE_ATA = 0.003;
/** Blood pressure: the cuff measures every this many (programme) seconds. */
export const BP_INTERVAL_S = 300;
export const SYSTOLIC = { min: 100, max: 139, sd: 4 } as const;
export const DIASTOLIC = { min: 60, max: 89, sd: 3 } as const;
