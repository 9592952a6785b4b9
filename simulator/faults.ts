import type { Random } from '../src/domain/random';
import { between } from './physics';

/**
 * Faults a simulated chamber can be made to have (`--faults`), each an episode in wall-clock seconds
 * (never compressed by --speed, so the server's alarm raise and clear delays see them as they would
 * from a real chamber). docs/simulator.md, "Faults".
 */

export const FAULT_KINDS = ['oxygen', 'pressure', 'spo2', 'heartRate', 'erd', 'sensor', 'silent', 'offline'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** docs/product.md, "Not built yet: safety alarms": the thresholds the faults cross (and normal operation never does). */
export const ALARM_THRESHOLDS = {
  cabinO2: { warning: 23.0, critical: 23.5 },
  spo2: { warning: 94, critical: 90 },
  heartRate: { warningLow: 50, warningHigh: 120, criticalLow: 40, criticalHigh: 140 },
  /** "No telemetry for 30 s during a session". */
  silenceS: 30,
} as const;

/** How an overlay fault's strength moves: 0 → 1 over `rise` s, 1 for `hold` s, back to 0 over `fall` s. */
export interface Profile {
  rise: number;
  hold: number;
  fall: number;
}

export interface Fault {
  kind: FaultKind;
  /** Seconds since it began. */
  elapsed: number;
  profile: Profile;
  /**
   * What it drives the reading to: cabin O2 % (oxygen), ATA above the set point (pressure), SpO2 %
   * (spo2), bpm (heartRate); unused by the others.
   */
  target: number;
}

export const duration = (profile: Profile): number => profile.rise + profile.hold + profile.fall;

/** The fault's strength `t` seconds in: 0 before and after, 1 while it holds. */
export const amplitude = (profile: Profile, t: number): number => {
  if (t < 0 || t >= duration(profile)) return 0;
  if (t < profile.rise) return t / profile.rise;
  if (t < profile.rise + profile.hold) return 1;
  return 1 - (t - profile.rise - profile.hold) / profile.fall;
};

/** A chamber waits this long after one fault ends before another may begin. */
export const FAULT_COOLDOWN_S = 120;

/** Where each kind can happen: vitals and cabin faults need an occupant, overpressure and ERD a pressurised cabin. */
export type FaultPhase = 'idle' | 'pressurising' | 'holding' | 'decompressing' | 'emergency';
const WHERE: Readonly<Record<FaultKind, readonly FaultPhase[]>> = {
  oxygen: ['pressurising', 'holding', 'decompressing'],
  pressure: ['holding'],
  spo2: ['pressurising', 'holding', 'decompressing'],
  heartRate: ['pressurising', 'holding', 'decompressing'],
  erd: ['pressurising', 'holding'],
  sensor: ['idle', 'pressurising', 'holding', 'decompressing'],
  silent: ['pressurising', 'holding', 'decompressing'],
  offline: ['idle', 'pressurising', 'holding', 'decompressing'],
};

export const mayBegin = (kind: FaultKind, phase: FaultPhase): boolean => WHERE[kind].includes(phase);

/**
 * Whether a fault under way goes on in `phase`: the occupant's and the cabin's end with the session
 * (or an emergency), the connection faults and the sensor's run their course.
 */
export const continuesIn = (kind: FaultKind, phase: FaultPhase): boolean =>
  kind === 'sensor' || kind === 'offline' || (phase !== 'idle' && phase !== 'emergency');

/** A fault of `kind` with its episode drawn from `random`. */
export const drawFault = (kind: FaultKind, random: Random): Fault => {
  const episode = (rise: [number, number], hold: [number, number], fall: [number, number]): Profile => ({
    rise: between(random, ...rise),
    hold: between(random, ...hold),
    fall: between(random, ...fall),
  });
  const outage = (min: number, max: number): Profile => ({ rise: 0, hold: between(random, min, max), fall: 0 });
  switch (kind) {
    case 'oxygen':
      // Enrichment to 23.9–24.3 %: past 23.0 (warning) and 23.5 (critical), held a minute or two.
      return { kind, elapsed: 0, profile: episode([150, 210], [60, 120], [90, 150]), target: between(random, 23.9, 24.3) };
    case 'pressure':
      // A sticking valve: 0.2–0.3 ATA above the set point, then the relief valve brings it back.
      return { kind, elapsed: 0, profile: episode([20, 40], [60, 120], [30, 60]), target: between(random, 0.2, 0.3) };
    case 'spo2':
      return { kind, elapsed: 0, profile: episode([90, 150], [60, 120], [60, 120]), target: between(random, 86, 88.5) };
    case 'heartRate':
      // Mostly tachycardia past 140, sometimes bradycardia below 40.
      return {
        kind,
        elapsed: 0,
        profile: episode([60, 120], [60, 120], [60, 120]),
        target: random() < 0.7 ? between(random, 145, 155) : between(random, 35, 38),
      };
    case 'sensor':
      return { kind, elapsed: 0, profile: outage(60, 120), target: 0 };
    case 'silent':
      // Longer than the 30 s of silence that marks a chamber in session offline.
      return { kind, elapsed: 0, profile: outage(45, 90), target: 0 };
    case 'offline':
      return { kind, elapsed: 0, profile: outage(45, 120), target: 0 };
    case 'erd':
      // The chamber's emergency phase carries it (chamber.ts); the fault itself is only the trigger.
      return { kind, elapsed: 0, profile: outage(0, 0), target: 0 };
  }
};

/** The probability that a fault begins within `dt` seconds at `perHour` faults an hour (a Poisson process). */
export const onsetProbability = (perHour: number, dt: number): number => 1 - Math.exp((-perHour * dt) / 3600);

/** `--faults oxygen,offline,erd` or `all` → the kinds; throws naming an unknown one. */
export const parseFaults = (text: string): FaultKind[] => {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.includes('all')) return [...FAULT_KINDS];
  const kinds: FaultKind[] = [];
  for (const name of names) {
    const kind = FAULT_KINDS.find((candidate) => candidate === name);
    if (kind === undefined) throw new Error(`unknown fault "${name}": use all or some of ${FAULT_KINDS.join(', ')}`);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
};
