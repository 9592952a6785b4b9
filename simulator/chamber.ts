import type { Ack, Command, DeviceEvent, Telemetry } from '../src/domain/mqtt/payloads';
import { seededRandomFor, type Random } from '../src/domain/random';
import type { DeviceState } from '../src/domain/devices';
import { DEFAULT_RATED_MAX_ATA, isAboveRating, sessionSetPoint } from '../src/domain/deviceTypes';
import {
  amplitude,
  continuesIn,
  drawFault,
  duration,
  FAULT_COOLDOWN_S,
  mayBegin,
  onsetProbability,
  type Fault,
  type FaultKind,
  type FaultPhase,
} from './faults';
import {
  BANDS,
  between,
  BP_INTERVAL_S,
  clamp,
  COMPRESSION_HEAT_C,
  DIASTOLIC,
  drift,
  ERD_RATE_ATA_PER_MIN,
  gaussian,
  KPA_PER_ATA,
  OCCUPANT_HUMIDITY,
  PRESSURE_NOISE_ATA,
  RATE_ATA_PER_MIN,
  round,
  SPO2_PER_ATA,
  SYSTOLIC,
  type Band,
  type Speed,
} from './physics';

/**
 * One simulated chamber as a pure state machine: `step(dt, now)` advances it by `dt` wall-clock seconds
 * and answers what it publishes (telemetry, events, and when its connection drops or returns). No MQTT,
 * no timers, no clock of its own: the same seed and the same calls give the same answers
 * (docs/simulator.md).
 *
 *   idle ──startSession(OC)──▶ pressurising ──(RCP reaches SP)──▶ holding ──(ST minutes)──▶ decompressing ──▶ idle
 *                                   └──────────── erd fault ───────────┴──▶ emergency ──(ambient, ≥ 60 s)──▶ idle
 *
 * `--speed` compresses the programme (pressurisation, hold, decompression, noise); telemetry intervals,
 * faults and the emergency run on wall-clock time.
 */

export type Phase = FaultPhase;

export interface Settings {
  SP: number;
  ST: number;
  SS: Speed;
  SL: 0 | 1;
  SA: 0 | 1;
}

export type Emission =
  | { kind: 'telemetry'; message: Telemetry }
  | { kind: 'event'; message: DeviceEvent }
  /** Lose the connection without a clean disconnect (the broker publishes the last will). */
  | { kind: 'drop' }
  /** Connect again after a drop. */
  | { kind: 'return' };

export interface ChamberOptions {
  id: string;
  /** With the Id, seeds the chamber's generator (`--seed`). */
  seed: number;
  /** Programme time compression (`--speed`), default 1. */
  speed?: number;
  /** Kinds that may begin by themselves, at `faultRate` an hour. */
  faults?: readonly FaultKind[];
  faultRate?: number;
  settings?: Partial<Settings>;
  /**
   * The chamber's type's rated maximum pressure, ATA (default 2.0): the set point it chooses stays below it,
   * a resumed session's set point above it is brought down, and a settings command above it is refused.
   */
  ratedMaxAta?: number;
  permission?: 'Open' | 'Close';
  state?: DeviceState;
  /** The server has a session running on this chamber: take it up where its last reading left it. */
  resume?: { pressure?: number; remainingMinutes?: number };
  /** The server shows emergency depressurisation active: it is still under way. */
  emergency?: boolean;
}

export interface ChamberView {
  id: string;
  phase: Phase;
  /** Cabin pressure as controlled (ATA, absolute), before sensor noise and faults. */
  pressure: number;
  /** Ambient pressure, ATA. */
  ambient: number;
  settings: Settings;
  /** Whole minutes left of the hold. */
  remaining: number;
  oc: string | null;
  permission: 'Open' | 'Close';
  state: DeviceState;
  fault: FaultKind | null;
  /** Dropped by an offline fault. */
  offline: boolean;
}

/** Why a session cannot start now. */
export type StartRefusal = 'busy' | 'closed' | 'repair' | 'offline';

/** In a session the chamber reports about once a second; idle, every 30–60 s. */
const SESSION_INTERVAL_S = 1;
const IDLE_INTERVAL_S: readonly [number, number] = [30, 60];
/** Emergency depressurisation lasts at least this long, even from low pressure. */
export const ERD_MIN_S = 60;
/** A command issued longer ago than this is refused as expired (docs/mqtt.md, "Late commands"). */
const COMMAND_MAX_AGE_MS = 60_000;
/** Acknowledgements remembered per chamber, so a redelivered command gets the same answer. */
const ACKS_KEPT = 256;
/** A telemetry due this close (s) is sent now: steps come about a second apart, never exactly. */
const DUE_SLACK_S = 0.1;

interface Occupant {
  heartRate: Band;
  spo2Base: number;
  systolic: number;
  diastolic: number;
}

/** `value` moved toward `target` by at most `step`. */
const approach = (value: number, target: number, step: number): number =>
  value < target ? Math.min(target, value + step) : Math.max(target, value - step);

export class Chamber {
  readonly id: string;
  private readonly random: Random;
  private readonly speed: number;
  private readonly faultKinds: readonly FaultKind[];
  private readonly faultRate: number;
  private readonly ratedMaxAta: number;
  private settings: Settings;
  private permission: 'Open' | 'Close';
  private state: DeviceState;

  private phase: Phase = 'idle';
  private pressure: number;
  private holdElapsed = 0;
  private emergencyElapsed = 0;
  private oc: string | null = null;
  private occupant: Occupant | null = null;

  private fault: Fault | null = null;
  private cooldown = 0;
  /** Events that happened while the connection was down, sent when it returns. */
  private outbox: DeviceEvent[] = [];
  private telemetryDue = 0;
  private readonly acks = new Map<string, Ack>();

  // Slowly varying readings, each with this chamber's own mean.
  private readonly bands: { cabinO2Session: Band; generatorO2: Band; temperature: Band; humidity: Band; ambientKpa: Band };
  private cabinO2: number;
  private generatorO2: number;
  private temperature: number;
  private humidity: number;
  private ambientKpa: number;
  private heartRate = 0;
  private spo2 = 0;
  private bloodPressure = { systolic: 0, diastolic: 0 };
  private bpClock = 0;

  constructor(options: ChamberOptions) {
    this.id = options.id;
    this.random = seededRandomFor(`${options.seed}:${options.id}`);
    this.speed = options.speed ?? 1;
    this.faultKinds = options.faults ?? [];
    this.faultRate = options.faultRate ?? 0;
    this.ratedMaxAta = options.ratedMaxAta ?? DEFAULT_RATED_MAX_ATA;
    const random = this.random;
    const chosen = sessionSetPoint(random, this.ratedMaxAta);
    this.settings = {
      SP: chosen,
      ST: 60,
      SS: (['F', 'M', 'S'] as const)[Math.floor(random() * 3)] ?? 'M',
      SL: 1,
      SA: random() < 0.5 ? 1 : 0,
      ...options.settings,
    };
    // A last reading from before the type's rating was lowered (or from older demo data) is not run above it.
    if (isAboveRating(this.settings.SP, this.ratedMaxAta)) this.settings.SP = chosen;
    this.permission = options.permission ?? 'Open';
    this.state = options.state ?? 'Stop';
    this.bands = {
      cabinO2Session: { ...BANDS.cabinO2Session, mean: between(random, 21.5, 22) },
      generatorO2: { ...BANDS.generatorO2, mean: between(random, 92, 94) },
      temperature: { ...BANDS.temperature, mean: between(random, 21.5, 23.5) },
      humidity: { ...BANDS.humidity, mean: between(random, 57, 63) },
      ambientKpa: { ...BANDS.ambientKpa, mean: between(random, 100, 102.5) },
    };
    this.cabinO2 = BANDS.cabinO2Idle.mean;
    this.generatorO2 = this.bands.generatorO2.mean;
    this.temperature = this.bands.temperature.mean;
    this.humidity = this.bands.humidity.mean;
    this.ambientKpa = this.bands.ambientKpa.mean;
    this.pressure = this.ambient();
    // Idle chambers report at staggered times (and once connected, at once: `connected`).
    this.telemetryDue = between(random, 0, IDLE_INTERVAL_S[1]);

    const { resume } = options;
    if (resume !== undefined) {
      this.enterSession(null);
      const remaining = clamp(resume.remainingMinutes ?? this.settings.ST, 0, this.settings.ST);
      this.holdElapsed = (this.settings.ST - remaining) * 60;
      this.pressure = clamp(resume.pressure ?? this.settings.SP, this.ambient(), this.settings.SP);
      this.phase = remaining === 0 ? 'decompressing' : this.pressure < this.settings.SP - 0.02 ? 'pressurising' : 'holding';
    }
    if (options.emergency === true) {
      this.phase = 'emergency';
      this.emergencyElapsed = 0;
    }
    // A session or an emergency under way reports at once.
    if (this.phase !== 'idle') this.telemetryDue = 0;
  }

  // -------------------------------------------------------------------------------------------------
  // What the runner asks

  view(): ChamberView {
    return {
      id: this.id,
      phase: this.phase,
      pressure: this.pressure,
      ambient: this.ambient(),
      settings: { ...this.settings },
      remaining: this.remainingMinutes(),
      oc: this.oc,
      permission: this.permission,
      state: this.state,
      fault: this.fault?.kind ?? null,
      offline: this.fault?.kind === 'offline',
    };
  }

  /** Why a booking's session cannot start now, or null when it can. */
  canStart(): StartRefusal | null {
    if (this.fault?.kind === 'offline') return 'offline';
    if (this.phase !== 'idle') return 'busy';
    if (this.state === 'Repair') return 'repair';
    if (this.permission === 'Close') return 'closed';
    return null;
  }

  /** A guest starts the session of a booking with its operation code: sessionStart, then pressurisation. */
  startSession(oc: string, now: number): Emission[] {
    const refusal = this.canStart();
    if (refusal !== null) throw new Error(`${this.id} cannot start a session: ${refusal}`);
    this.enterSession(oc);
    this.holdElapsed = 0;
    this.phase = 'pressurising';
    this.telemetryDue = 0;
    return this.emit({ type: 'sessionStart', Time: now, OC: oc });
  }

  /** Ends the session early (an operator's Stop, or a start the server refused): ordinary decompression. */
  finishSession(): void {
    if (this.phase === 'pressurising' || this.phase === 'holding') this.phase = 'decompressing';
  }

  /** On every (re)connection, after `online`: an emergency still under way now, telemetry at the next step. */
  connected(now: number): Emission[] {
    this.telemetryDue = 0;
    return this.phase === 'emergency' ? [{ kind: 'event', message: { type: 'emergency', Time: now, active: true } }] : [];
  }

  /** Begins a fault now, if none is under way and the chamber's phase allows it. */
  injectFault(kind: FaultKind, now: number): Emission[] {
    if (this.fault !== null || !mayBegin(kind, this.phase)) return [];
    return this.beginFault(drawFault(kind, this.random), now);
  }

  /** Applies or refuses a command and answers its acknowledgement; a repeated cmdId gets the same answer. */
  command(command: Command, now: number): Ack {
    const seen = this.acks.get(command.cmdId);
    if (seen !== undefined) return seen;
    const ack = this.apply(command, now);
    this.acks.set(command.cmdId, ack);
    if (this.acks.size > ACKS_KEPT) this.acks.delete(this.acks.keys().next().value as string);
    // The settings it runs with are what its next telemetry reports: send it at the next step.
    if (ack.ok) this.telemetryDue = 0;
    return ack;
  }

  /** Advances the chamber by `dt` wall-clock seconds to `now` (epoch ms) and answers what it publishes. */
  step(dt: number, now: number): Emission[] {
    const emissions: Emission[] = [];
    emissions.push(...this.stepFault(dt, now));
    emissions.push(...this.stepProgramme(dt, now));
    // The occupant's and the cabin's faults end with the session (or an emergency).
    if (this.fault !== null && !continuesIn(this.fault.kind, this.phase)) emissions.push(...this.endFault(this.fault));
    this.stepReadings(dt * this.speed);
    this.telemetryDue -= dt;
    if (this.telemetryDue <= DUE_SLACK_S) {
      this.telemetryDue = this.phase === 'idle' ? between(this.random, ...IDLE_INTERVAL_S) : SESSION_INTERVAL_S;
      if (this.fault?.kind !== 'offline' && this.fault?.kind !== 'silent') emissions.push({ kind: 'telemetry', message: this.reading(now) });
    }
    return emissions;
  }

  // -------------------------------------------------------------------------------------------------
  // Inside

  private ambient(): number {
    return this.ambientKpa / KPA_PER_ATA;
  }

  private remainingMinutes(): number {
    if (this.phase === 'pressurising' || this.phase === 'holding') return Math.ceil(Math.max(0, this.settings.ST * 60 - this.holdElapsed) / 60);
    return 0;
  }

  private enterSession(oc: string | null): void {
    const random = this.random;
    this.oc = oc;
    this.occupant = {
      heartRate: { ...BANDS.heartRate, mean: between(random, 62, 85) },
      spo2Base: between(random, 96.8, 98.3),
      systolic: between(random, 108, 132),
      diastolic: between(random, 68, 82),
    };
    this.heartRate = this.occupant.heartRate.mean;
    this.spo2 = this.occupant.spo2Base;
    this.bpClock = 0;
    this.measureBloodPressure(this.occupant);
  }

  private leaveSession(now: number, emissions: Emission[]): void {
    this.phase = 'idle';
    this.oc = null;
    this.occupant = null;
    this.holdElapsed = 0;
    emissions.push(...this.emit({ type: 'sessionEnd', Time: now }));
  }

  /** Events go out now, or wait in the outbox while the connection is down. */
  private emit(event: DeviceEvent): Emission[] {
    if (this.fault?.kind === 'offline') {
      this.outbox.push(event);
      return [];
    }
    return [{ kind: 'event', message: event }];
  }

  private beginFault(fault: Fault, now: number): Emission[] {
    this.fault = fault;
    switch (fault.kind) {
      case 'erd':
        this.fault = null;
        this.cooldown = FAULT_COOLDOWN_S;
        this.phase = 'emergency';
        this.emergencyElapsed = 0;
        this.telemetryDue = 0;
        return this.emit({ type: 'emergency', Time: now, active: true });
      case 'sensor':
        return this.emit({ type: 'fault', Time: now, code: 'O2_SENSOR', message: 'cabin oxygen sensor not responding' });
      case 'offline':
        return [{ kind: 'drop' }];
      default:
        return [];
    }
  }

  private endFault(fault: Fault): Emission[] {
    this.fault = null;
    this.cooldown = FAULT_COOLDOWN_S;
    if (fault.kind !== 'offline') return [];
    const held = this.outbox.map((message): Emission => ({ kind: 'event', message }));
    this.outbox = [];
    this.telemetryDue = 0;
    return [{ kind: 'return' }, ...held];
  }

  private stepFault(dt: number, now: number): Emission[] {
    // One draw every step, whatever happens, so a chamber's sequence depends only on its seed and calls.
    const draw = this.random();
    const fault = this.fault;
    if (fault !== null) {
      fault.elapsed += dt;
      return fault.elapsed >= duration(fault.profile) ? this.endFault(fault) : [];
    }
    this.cooldown = Math.max(0, this.cooldown - dt);
    if (this.cooldown > 0 || this.faultKinds.length === 0 || draw >= onsetProbability(this.faultRate, dt)) return [];
    const possible = this.faultKinds.filter((kind) => mayBegin(kind, this.phase));
    const kind = possible[Math.floor(this.random() * possible.length)];
    return kind === undefined ? [] : this.beginFault(drawFault(kind, this.random), now);
  }

  private stepProgramme(dt: number, now: number): Emission[] {
    const emissions: Emission[] = [];
    const minutes = (dt * this.speed) / 60;
    const rate = RATE_ATA_PER_MIN[this.settings.SS];
    switch (this.phase) {
      case 'idle':
        this.pressure = this.ambient();
        break;
      case 'pressurising':
        this.pressure = approach(this.pressure, this.settings.SP, rate * minutes);
        if (this.pressure === this.settings.SP) this.phase = 'holding';
        break;
      case 'holding':
        // A settings command may have moved SP: follow it at the set speed; the hold clock runs on.
        this.pressure = approach(this.pressure, this.settings.SP, rate * minutes);
        this.holdElapsed += dt * this.speed;
        if (this.holdElapsed >= this.settings.ST * 60) this.phase = 'decompressing';
        break;
      case 'decompressing':
        this.pressure = approach(this.pressure, this.ambient(), rate * minutes);
        if (this.pressure === this.ambient()) this.leaveSession(now, emissions);
        break;
      case 'emergency':
        this.pressure = approach(this.pressure, this.ambient(), (ERD_RATE_ATA_PER_MIN * dt) / 60);
        this.emergencyElapsed += dt;
        if (this.pressure === this.ambient() && this.emergencyElapsed >= ERD_MIN_S) {
          emissions.push(...this.emit({ type: 'emergency', Time: now, active: false }));
          if (this.occupant === null) this.phase = 'idle';
          else this.leaveSession(now, emissions);
        }
        break;
    }
    return emissions;
  }

  private stepReadings(dt: number): void {
    const random = this.random;
    const inSession = this.occupant !== null;
    this.ambientKpa = drift(random, this.ambientKpa, this.bands.ambientKpa, dt);
    this.cabinO2 = drift(random, this.cabinO2, inSession ? this.bands.cabinO2Session : BANDS.cabinO2Idle, dt);
    this.generatorO2 = drift(random, this.generatorO2, this.bands.generatorO2, dt);
    const heat = this.phase === 'pressurising' ? COMPRESSION_HEAT_C : this.phase === 'decompressing' || this.phase === 'emergency' ? -COMPRESSION_HEAT_C : 0;
    const temperature = this.bands.temperature;
    this.temperature = drift(random, this.temperature, { ...temperature, mean: temperature.mean + heat }, dt);
    const humidity = this.bands.humidity;
    this.humidity = drift(random, this.humidity, { ...humidity, mean: humidity.mean + (inSession ? OCCUPANT_HUMIDITY : 0) }, dt);
    const occupant = this.occupant;
    if (occupant === null) return;
    this.heartRate = drift(random, this.heartRate, occupant.heartRate, dt);
    const pressureGain = Math.max(0, this.pressure - this.ambient()) * SPO2_PER_ATA;
    this.spo2 = drift(random, this.spo2, { ...BANDS.spo2, mean: occupant.spo2Base + pressureGain }, dt);
    this.bpClock += dt;
    if (this.bpClock >= BP_INTERVAL_S) {
      this.bpClock = 0;
      this.measureBloodPressure(occupant);
    }
  }

  private measureBloodPressure(occupant: Occupant): void {
    const systolic = Math.round(clamp(occupant.systolic + SYSTOLIC.sd * gaussian(this.random), SYSTOLIC.min, SYSTOLIC.max));
    const diastolic = Math.round(clamp(occupant.diastolic + DIASTOLIC.sd * gaussian(this.random), DIASTOLIC.min, DIASTOLIC.max));
    this.bloodPressure = { systolic, diastolic };
  }

  /** The fault's pull on a reading: `value` moved toward `target` by the fault's strength now. */
  private pulled(kind: FaultKind, value: number, target: (fault: Fault) => number): number {
    const fault = this.fault;
    if (fault?.kind !== kind) return value;
    const strength = amplitude(fault.profile, fault.elapsed);
    return value + strength * (target(fault) - value);
  }

  private reading(now: number): Telemetry {
    const random = this.random;
    const session = this.phase !== 'idle';
    const sensed = this.pressure + PRESSURE_NOISE_ATA * gaussian(random);
    const pressure = this.pulled('pressure', sensed, (fault) => sensed + fault.target);
    const record: Telemetry = {
      Time: now,
      L: session ? 1 : 0,
      ...this.settings,
      RCP: round(clamp(pressure, 0, 6), 2),
      RRD: this.remainingMinutes(),
      RCPi02: round(this.pulled('oxygen', this.cabinO2, (fault) => fault.target), 1),
      RGPi02: round(this.generatorO2, 1),
      RCT: round(this.temperature, 1),
      RCRH: round(this.humidity, 1),
      RAP: round(this.ambientKpa, 1),
    };
    if (this.fault?.kind === 'sensor') delete record.RCPi02;
    if (this.occupant !== null) {
      record.HmHR = Math.round(this.pulled('heartRate', this.heartRate, (fault) => fault.target));
      record.HmSP02 = Math.round(this.pulled('spo2', this.spo2, (fault) => fault.target));
      record.HmBP = `${this.bloodPressure.systolic}/${this.bloodPressure.diastolic}`;
    }
    return record;
  }

  private apply(command: Command, now: number): Ack {
    if (now - command.Time > COMMAND_MAX_AGE_MS) return { cmdId: command.cmdId, ok: false, error: 'expired' };
    const refuse = (error: string): Ack => ({ cmdId: command.cmdId, ok: false, error });
    switch (command.type) {
      case 'permission':
        // Closing stops new sessions; a session under way runs to its end.
        this.permission = command.Permission;
        break;
      case 'state':
        if (command.State === 'Repair' && this.phase !== 'idle') return refuse('session running: stop it first');
        if (command.State === 'Stop') this.finishSession();
        this.state = command.State;
        break;
      case 'settings': {
        if (this.phase === 'emergency') return refuse('emergency depressurisation: settings locked');
        const { SP, ST, SS, SL, SA } = command;
        if (SP !== undefined && isAboveRating(SP, this.ratedMaxAta)) return refuse(`SP ${SP} above the rated maximum ${this.ratedMaxAta} ATA`);
        this.settings = {
          SP: SP ?? this.settings.SP,
          ST: ST ?? this.settings.ST,
          SS: SS ?? this.settings.SS,
          SL: SL ?? this.settings.SL,
          SA: SA ?? this.settings.SA,
        };
        break;
      }
    }
    return { cmdId: command.cmdId, ok: true };
  }
}
