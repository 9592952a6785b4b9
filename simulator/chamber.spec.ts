import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '../src/domain/mqtt/parse';
import { type Command, type DeviceEvent, type Telemetry } from '../src/domain/mqtt/payloads';
import { topicFor } from '../src/domain/mqtt/topics';
import { Chamber, ERD_MIN_S, type ChamberOptions, type Emission } from './chamber';
import { ALARM_THRESHOLDS, FAULT_KINDS, type FaultKind } from './faults';
import { DEFAULT_DEVICE_TYPES, isAboveRating } from '../src/domain/deviceTypes';
import { evaluateReading, newDeviceTracks } from '../src/domain/alarms/evaluator';
import { DEFAULT_ALARM_RULES, withRatedMax } from '../src/domain/alarms/rules';
import { ERD_RATE_ATA_PER_MIN, RATE_ATA_PER_MIN } from './physics';

const T0 = Date.UTC(2026, 0, 5, 8);

/** A chamber and its clock: `run` steps it `seconds` long in steps of `dt` and keeps what it published. */
const rig = (options: Partial<ChamberOptions> = {}) => {
  const chamber = new Chamber({ id: 'SIM-0001', seed: 7, settings: { SP: 1.5, ST: 10, SS: 'M' }, ...options });
  let now = T0;
  const emissions: { at: number; emission: Emission }[] = [];
  const record = (list: Emission[]) => list.forEach((emission) => emissions.push({ at: now, emission }));
  return {
    chamber,
    emissions,
    now: () => now,
    step(dt = 1) {
      now += Math.round(dt * 1000);
      record(chamber.step(dt, now));
    },
    run(seconds: number, dt = 1) {
      for (let elapsed = 0; elapsed < seconds - 1e-9; elapsed += dt) this.step(dt);
    },
    /** Steps until `done` holds (at most `limit` s); answers the seconds it took. */
    until(done: () => boolean, limit: number, dt = 1): number {
      let elapsed = 0;
      while (!done()) {
        if (elapsed >= limit) throw new Error(`not done after ${limit} s: ${JSON.stringify(chamber.view())}`);
        this.step(dt);
        elapsed += dt;
      }
      return elapsed;
    },
    start(oc = '583920') {
      record(chamber.startSession(oc, now));
    },
    command(command: Command) {
      return chamber.command(command, now);
    },
    telemetry: (): Telemetry[] => emissions.flatMap(({ emission }) => (emission.kind === 'telemetry' ? [emission.message] : [])),
    events: (): DeviceEvent[] => emissions.flatMap(({ emission }) => (emission.kind === 'event' ? [emission.message] : [])),
  };
};

const phase = (chamber: Chamber) => chamber.view().phase;

describe('chamber: a session', () => {
  it.each(['F', 'M', 'S'] as const)('pressurises at the rate of SS %s to SP, holds ST minutes, decompresses, ends', (speed) => {
    const sim = rig({ settings: { SP: 1.5, ST: 10, SS: speed } });
    sim.run(5);
    const ambient = sim.chamber.view().ambient;
    sim.start();
    expect(sim.events().at(-1)).toEqual({ type: 'sessionStart', Time: sim.now(), OC: '583920' });

    const rate = RATE_ATA_PER_MIN[speed];
    const rampSeconds = ((1.5 - ambient) / rate) * 60;
    const pressures: number[] = [];
    const ramp = sim.until(() => {
      pressures.push(sim.chamber.view().pressure);
      return phase(sim.chamber) === 'holding';
    }, 3600);
    expect(Math.abs(ramp - rampSeconds)).toBeLessThanOrEqual(1);
    // Every full step of the ramp adds exactly rate/60 ATA.
    const steps = pressures.slice(1, -1).map((pressure, index) => pressure - (pressures[index] ?? 0));
    for (const step of steps) expect(step).toBeCloseTo(rate / 60, 9);
    expect(sim.chamber.view().pressure).toBe(1.5);

    const hold = sim.until(() => phase(sim.chamber) === 'decompressing', 3600);
    expect(hold).toBe(10 * 60);

    const down = sim.until(() => phase(sim.chamber) === 'idle', 3600);
    expect(Math.abs(down - ((1.5 - sim.chamber.view().ambient) / rate) * 60)).toBeLessThanOrEqual(1.5);
    expect(sim.events().at(-1)).toEqual({ type: 'sessionEnd', Time: sim.now() });
  });

  it('reports once a second in a session, RRD counting down the hold, and every 30–60 s when idle', () => {
    const sim = rig({ settings: { SP: 1.3, ST: 5, SS: 'F' } });
    sim.run(180);
    const idle = sim.telemetry().map((record) => record.Time);
    expect(idle.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < idle.length; index += 1) {
      const gap = ((idle[index] ?? 0) - (idle[index - 1] ?? 0)) / 1000;
      expect(gap).toBeGreaterThanOrEqual(30);
      expect(gap).toBeLessThanOrEqual(61);
    }
    expect(sim.telemetry().every((record) => record.L === 0 && record.HmHR === undefined && record.RRD === 0)).toBe(true);

    const before = sim.telemetry().length;
    sim.start();
    sim.until(() => phase(sim.chamber) === 'idle', 3600);
    const session = sim.telemetry().slice(before);
    const seconds = (sim.now() - (session[0]?.Time ?? 0)) / 1000;
    expect(session.length).toBeGreaterThanOrEqual(seconds);
    const inSession = session.slice(0, -1);
    expect(inSession.every((record) => record.L === 1 && record.HmHR !== undefined && record.HmSP02 !== undefined && record.HmBP !== undefined)).toBe(true);
    const remaining = inSession.map((record) => record.RRD ?? -1);
    expect(remaining[0]).toBe(5);
    expect(remaining.at(-1)).toBe(0);
    for (let index = 1; index < remaining.length; index += 1) expect(remaining[index]).toBeLessThanOrEqual(remaining[index - 1] ?? 0);
    expect(new Set(remaining)).toEqual(new Set([5, 4, 3, 2, 1, 0]));
  });

  it('compresses the programme with speed, not the telemetry interval', () => {
    const sim = rig({ speed: 60, settings: { SP: 1.5, ST: 60, SS: 'S' } });
    sim.start();
    const seconds = sim.until(() => phase(sim.chamber) === 'idle', 3600);
    const programme = ((2 * (1.5 - sim.chamber.view().ambient)) / RATE_ATA_PER_MIN.S) * 60 + 60 * 60;
    expect(Math.abs(seconds - programme / 60)).toBeLessThanOrEqual(3);
    expect(sim.telemetry().length).toBeGreaterThanOrEqual(seconds - 1);
  });

  it('takes up a session the server has running where its last reading left it', () => {
    const held = rig({ settings: { SP: 1.4, ST: 60, SS: 'M' }, resume: { pressure: 1.4, remainingMinutes: 42 } });
    expect(held.chamber.view()).toMatchObject({ phase: 'holding', remaining: 42, oc: null });
    held.step();
    expect(held.telemetry()[0]).toMatchObject({ RRD: 42, L: 1, SP: 1.4 });
    expect(held.telemetry()[0]?.HmHR).toBeDefined();
    expect(held.until(() => held.chamber.view().phase === 'decompressing', 3600)).toBe(42 * 60 - 1);

    const rising = rig({ settings: { SP: 1.5, ST: 60, SS: 'M' }, resume: { pressure: 1.2, remainingMinutes: 55 } });
    expect(rising.chamber.view()).toMatchObject({ phase: 'pressurising', pressure: 1.2 });
    const ending = rig({ resume: { pressure: 1.3, remainingMinutes: 0 } });
    expect(ending.chamber.view().phase).toBe('decompressing');
    ending.until(() => ending.chamber.view().phase === 'idle', 3600);
    expect(ending.events()).toEqual([{ type: 'sessionEnd', Time: ending.now() }]);
  });

  it('starts a session only when idle, open and not in repair', () => {
    expect(rig({ permission: 'Close' }).chamber.canStart()).toBe('closed');
    expect(rig({ state: 'Repair' }).chamber.canStart()).toBe('repair');
    const sim = rig();
    expect(sim.chamber.canStart()).toBeNull();
    sim.start();
    expect(sim.chamber.canStart()).toBe('busy');
    expect(() => sim.start()).toThrow(/busy/);
  });

  it("chooses its set point below its type's rated maximum pressure", () => {
    const setPoints = (ratedMaxAta: number) =>
      new Set(Array.from({ length: 40 }, (_, index) => new Chamber({ id: `SIM-${index}`, seed: 1, ratedMaxAta }).view().settings.SP));
    expect([...setPoints(1.3)]).toEqual([1.2]);
    expect([...setPoints(1.5)].sort()).toEqual([1.3, 1.4]);
    expect([...setPoints(2.0)].sort()).toEqual([1.3, 1.4, 1.5]);
  });

  it("runs whole sessions within its type's rating and raises no pressure alarm of its own, whatever the seed and rating", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 9999 }),
        fc.oneof(
          fc.constantFrom(...DEFAULT_DEVICE_TYPES.map((type) => type.ratedMaxAta)),
          // From 1.1 ATA: ambient air alone (up to 1.01 ATA) would pass a rating of 1.0.
          fc.integer({ min: 110, max: 300 }).map((hundredths) => hundredths / 100),
        ),
        fc.boolean(),
        (seed, index, ratedMaxAta, resumeAbove) => {
          // A resumed session may come with a set point from before the rating was lowered: it is brought down.
          const settings = { ST: 3, ...(resumeAbove ? { SP: ratedMaxAta + 0.2 } : {}) };
          const chamber = new Chamber({ id: `SIM-${index}`, seed, speed: 5, ratedMaxAta, settings, ...(resumeAbove ? { resume: { remainingMinutes: 2 } } : {}) });
          let now = T0;
          const telemetry: Telemetry[] = [];
          const keep = (emissions: Emission[]) => emissions.forEach((emission) => emission.kind === 'telemetry' && telemetry.push(emission.message));
          if (!resumeAbove) keep(chamber.startSession('583920', now));
          for (let second = 0; second < 600 && (second < 5 || chamber.view().phase !== 'idle'); second += 1) {
            now += 1000;
            keep(chamber.step(1, now));
          }
          expect(chamber.view().phase).toBe('idle');
          expect(telemetry.length).toBeGreaterThan(20);
          const rules = withRatedMax(DEFAULT_ALARM_RULES, ratedMaxAta).filter((rule) => rule.kind === 'pressure-high');
          const tracks = newDeviceTracks();
          const raised = telemetry.flatMap((reading) => evaluateReading(rules, tracks, reading)).filter((event) => event.event.type === 'raise');
          expect(telemetry.every((reading) => reading.SP !== undefined && !isAboveRating(reading.SP, ratedMaxAta))).toBe(true);
          expect(raised).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('chamber: commands', () => {
  const base = { cmdId: 'c1', Time: T0 };

  it("refuses a set point above its type's rating, keeping its settings, and takes one exactly at it", () => {
    const sim = rig({ ratedMaxAta: 1.3 });
    const before = sim.chamber.view().settings;
    expect(sim.command({ ...base, type: 'settings', SP: 1.4, ST: 30 })).toEqual({ cmdId: 'c1', ok: false, error: 'SP 1.4 above the rated maximum 1.3 ATA' });
    expect(sim.chamber.view().settings).toEqual(before);
    expect(sim.command({ ...base, cmdId: 'c2', type: 'settings', SP: 1.3 })).toEqual({ cmdId: 'c2', ok: true });
    expect(sim.chamber.view().settings.SP).toBe(1.3);
  });

  it('applies permission, state and settings, acknowledging each once and repeating the answer for a redelivery', () => {
    const sim = rig();
    expect(sim.command({ ...base, type: 'permission', Permission: 'Close' })).toEqual({ cmdId: 'c1', ok: true });
    expect(sim.chamber.canStart()).toBe('closed');
    // The same cmdId again: the same answer, not applied twice (an Open under the old id changes nothing).
    expect(sim.command({ ...base, type: 'permission', Permission: 'Open' })).toEqual({ cmdId: 'c1', ok: true });
    expect(sim.chamber.view().permission).toBe('Close');
    expect(sim.command({ ...base, cmdId: 'c2', type: 'permission', Permission: 'Open' })).toEqual({ cmdId: 'c2', ok: true });

    sim.start();
    sim.until(() => phase(sim.chamber) === 'holding', 3600);
    expect(sim.command({ ...base, cmdId: 'c3', Time: sim.now(), type: 'settings', SP: 1.8, SA: 1 })).toEqual({ cmdId: 'c3', ok: true });
    sim.step();
    expect(sim.telemetry().at(-1)).toMatchObject({ SP: 1.8, SA: 1 });
    const climb = sim.until(() => sim.chamber.view().pressure === 1.8, 3600);
    expect(Math.abs(climb - (0.3 / RATE_ATA_PER_MIN.M) * 60)).toBeLessThanOrEqual(1);

    expect(sim.command({ ...base, cmdId: 'c4', Time: sim.now(), type: 'state', State: 'Repair' })).toEqual({
      cmdId: 'c4',
      ok: false,
      error: 'session running: stop it first',
    });
    expect(sim.command({ ...base, cmdId: 'c5', Time: sim.now(), type: 'state', State: 'Stop' })).toEqual({ cmdId: 'c5', ok: true });
    expect(phase(sim.chamber)).toBe('decompressing');
    sim.until(() => phase(sim.chamber) === 'idle', 3600);
    expect(sim.command({ ...base, cmdId: 'c6', Time: sim.now(), type: 'state', State: 'Repair' })).toEqual({ cmdId: 'c6', ok: true });
    expect(sim.chamber.canStart()).toBe('repair');
  });

  it('shortens the hold when ST is lowered below the time already held', () => {
    const sim = rig({ settings: { SP: 1.3, ST: 30, SS: 'F' } });
    sim.start();
    sim.until(() => phase(sim.chamber) === 'holding', 3600);
    sim.run(5 * 60);
    sim.command({ cmdId: 'st', Time: sim.now(), type: 'settings', ST: 4 });
    sim.step();
    expect(phase(sim.chamber)).toBe('decompressing');
  });

  it('refuses a command older than a minute, and settings during an emergency', () => {
    const sim = rig();
    sim.run(120);
    expect(sim.command({ cmdId: 'old', Time: sim.now() - 60_001, type: 'permission', Permission: 'Close' })).toEqual({
      cmdId: 'old',
      ok: false,
      error: 'expired',
    });
    expect(sim.chamber.view().permission).toBe('Open');
    sim.start();
    sim.until(() => phase(sim.chamber) === 'holding', 3600);
    sim.chamber.injectFault('erd', sim.now());
    expect(sim.command({ cmdId: 'sp', Time: sim.now(), type: 'settings', SP: 2 })).toEqual({
      cmdId: 'sp',
      ok: false,
      error: 'emergency depressurisation: settings locked',
    });
  });
});

/**
 * Normal operation: inside the contract's ranges and below every alarm threshold of docs/product.md. Answers
 * what is wrong with the record (one expect per run, not per record: a day has 86,400 of them).
 */
const abnormal = (record: Telemetry, setPoint: number): string[] => {
  const problems: string[] = [];
  const within = (name: keyof Telemetry, value: number | undefined, min: number, max: number) => {
    if (value === undefined || !(value >= min && value <= max)) problems.push(`${name} ${String(value)} outside ${min}–${max} at ${record.Time}`);
  };
  if (!parseMessage(topicFor('SIM-0001', 'telemetry'), JSON.stringify(record), record.Time).ok) problems.push(`refused: ${JSON.stringify(record)}`);
  within('RCPi02', record.RCPi02, 20.6, 22.5);
  within('RGPi02', record.RGPi02, 90, 95);
  within('RCT', record.RCT, 20, 25);
  within('RCRH', record.RCRH, 55, 70);
  within('RCP', record.RCP, 0.95, Math.max(setPoint, 1.03) + 0.02);
  if (record.HmHR === undefined) return problems;
  within('HmHR', record.HmHR, 55, 100);
  within('HmSP02', record.HmSP02, 96, 99);
  const [systolic, diastolic] = (record.HmBP ?? '').split('/').map(Number);
  within('HmBP', systolic, 100, 139);
  within('HmBP', diastolic, 60, 89);
  return problems;
};
const abnormalAll = (records: Telemetry[], setPoint: number) => records.flatMap((record) => abnormal(record, setPoint)).slice(0, 5);

describe('chamber: noise', () => {
  it('stays inside the contract and the normal bands, whatever the seed, settings, speed and step sizes', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.constantFrom(1, 1.3, 1.5, 2, 2.5, 3),
        fc.integer({ min: 0, max: 90 }),
        fc.constantFrom('F', 'M', 'S'),
        fc.constantFrom(1, 10, 60),
        fc.array(fc.double({ min: 0.2, max: 5, noNaN: true }), { minLength: 200, maxLength: 400 }),
        fc.integer({ min: 0, max: 120 }),
        (seed, SP, ST, SS, speed, steps, startAfter) => {
          const sim = rig({ seed, speed, settings: { SP, ST, SS } });
          let taken = 0;
          for (const dt of steps) {
            if (taken === startAfter) sim.start();
            sim.step(dt);
            taken += 1;
          }
          expect(abnormalAll(sim.telemetry(), SP)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('holds over a whole day of idle and sessions back to back', () => {
    const sim = rig({ seed: 2026, settings: { SP: 2, ST: 60, SS: 'F' } });
    for (let hour = 0; hour < 24; hour += 1) {
      if (sim.chamber.canStart() === null) sim.start(`${100000 + hour}`);
      sim.run(3600);
    }
    expect(sim.telemetry().length).toBeGreaterThan(40_000);
    expect(abnormalAll(sim.telemetry(), 2)).toEqual([]);
  });
});

/** Runs a chamber into its hold, injects `kind`, and steps until it has come and gone. */
const withFault = (kind: FaultKind, seed = 11) => {
  const sim = rig({ seed, settings: { SP: 1.5, ST: 60, SS: 'F' } });
  sim.start();
  sim.until(() => phase(sim.chamber) === 'holding', 3600);
  const from = sim.telemetry().length;
  const at = sim.now();
  sim.emissions.push(...sim.chamber.injectFault(kind, at).map((emission) => ({ at, emission })));
  expect(sim.chamber.view().fault).toBe(kind === 'erd' ? null : kind);
  sim.until(() => sim.chamber.view().fault === null && phase(sim.chamber) !== 'emergency', 1800);
  sim.run(5);
  return { sim, during: sim.telemetry().slice(from), at };
};

/** Seconds (one record a second) for which `test` held. */
const secondsWhere = (records: Telemetry[], test: (record: Telemetry) => boolean) => records.filter(test).length;

describe('chamber: faults cross the alarm thresholds of docs/product.md', () => {
  it.each([3, 11, 99])('oxygen enrichment past 23.0 % then 23.5 %, each long enough to raise (seed %i)', (seed) => {
    const { during } = withFault('oxygen', seed);
    const o2 = (record: Telemetry) => record.RCPi02 ?? 0;
    const firstWarning = during.findIndex((record) => o2(record) >= ALARM_THRESHOLDS.cabinO2.warning);
    const firstCritical = during.findIndex((record) => o2(record) >= ALARM_THRESHOLDS.cabinO2.critical);
    expect(firstWarning).toBeGreaterThan(0);
    expect(firstCritical).toBeGreaterThan(firstWarning);
    expect(secondsWhere(during, (record) => o2(record) >= ALARM_THRESHOLDS.cabinO2.critical)).toBeGreaterThanOrEqual(60);
    expect(during.at(-1)?.RCPi02).toBeLessThan(22.6);
  });

  it.each([3, 11, 99])('overpressure above the set point, then back (seed %i)', (seed) => {
    const { during } = withFault('pressure', seed);
    expect(secondsWhere(during, (record) => (record.RCP ?? 0) > 1.5 + 0.15)).toBeGreaterThanOrEqual(60);
    expect(during.every((record) => (record.RCP ?? 0) <= 1.5 + 0.31)).toBe(true);
    expect(during.at(-1)?.RCP).toBeCloseTo(1.5, 1);
  });

  it.each([3, 11, 99])("on a chamber held below its type's rating, still raises the high pressure alarm (seed %i)", (seed) => {
    const sim = rig({ seed, ratedMaxAta: 1.3, settings: { ST: 60, SS: 'F' } });
    sim.start();
    sim.until(() => phase(sim.chamber) === 'holding', 3600);
    const at = sim.now();
    sim.emissions.push(...sim.chamber.injectFault('pressure', at).map((emission) => ({ at, emission })));
    sim.until(() => sim.chamber.view().fault === null, 1800);
    const tracks = newDeviceTracks();
    const raised = sim.telemetry().flatMap((reading) => evaluateReading(withRatedMax(DEFAULT_ALARM_RULES, 1.3), tracks, reading));
    expect(raised).toContainEqual({ kind: 'pressure-high', event: expect.objectContaining({ type: 'raise', level: 'high', threshold: 1.3 }) });
  });

  it.each([3, 11, 99])('SpO2 below 94 % then below 90 % (seed %i)', (seed) => {
    const { during } = withFault('spo2', seed);
    const spo2 = (record: Telemetry) => record.HmSP02 ?? 100;
    const firstWarning = during.findIndex((record) => spo2(record) < ALARM_THRESHOLDS.spo2.warning);
    expect(firstWarning).toBeGreaterThan(0);
    expect(during.findIndex((record) => spo2(record) < ALARM_THRESHOLDS.spo2.critical)).toBeGreaterThan(firstWarning);
    expect(secondsWhere(during, (record) => spo2(record) < ALARM_THRESHOLDS.spo2.critical)).toBeGreaterThanOrEqual(60);
    expect(during.at(-1)?.HmSP02).toBeGreaterThanOrEqual(96);
  });

  it('heart rate past the critical limits, high for most seeds and low for some', () => {
    const directions = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { during } = withFault('heartRate', seed);
      const rate = (record: Telemetry) => record.HmHR ?? 72;
      const high = secondsWhere(during, (record) => rate(record) > ALARM_THRESHOLDS.heartRate.criticalHigh);
      const low = secondsWhere(during, (record) => rate(record) < ALARM_THRESHOLDS.heartRate.criticalLow);
      expect(Math.max(high, low)).toBeGreaterThanOrEqual(60);
      directions.add(high > 0 ? 'high' : 'low');
    }
    expect(directions).toEqual(new Set(['high', 'low']));
  });

  it('emergency rapid depressurisation: active, a fast drop to ambient, inactive, the session ends', () => {
    const { sim, at } = withFault('erd');
    const events = sim.events().filter((event) => event.type !== 'sessionStart');
    expect(events[0]).toEqual({ type: 'emergency', Time: at, active: true });
    expect(events[1]).toMatchObject({ type: 'emergency', active: false });
    expect(events[2]).toMatchObject({ type: 'sessionEnd' });
    const lasted = ((events[1]?.Time ?? 0) - at) / 1000;
    expect(lasted).toBeGreaterThanOrEqual(ERD_MIN_S);
    const drop = sim.telemetry().filter((record) => record.Time > at && record.Time <= at + 20_000);
    // 1 ATA a minute: 20 s take about a third of an atmosphere off.
    expect((drop[0]?.RCP ?? 0) - (drop.at(-1)?.RCP ?? 0)).toBeCloseTo((ERD_RATE_ATA_PER_MIN * 19) / 60, 1);
    expect(phase(sim.chamber)).toBe('idle');
  });

  it('offline: the connection drops, nothing is published, events wait, then it returns', () => {
    // Ten times faster: the session (1 minute of hold) ends while the chamber is away.
    const sim = rig({ seed: 5, speed: 10, settings: { SP: 1.3, ST: 1, SS: 'F' } });
    sim.start();
    sim.until(() => phase(sim.chamber) === 'holding', 3600);
    const at = sim.now();
    expect(sim.chamber.injectFault('offline', at)).toEqual([{ kind: 'drop' }]);
    expect(sim.chamber.canStart()).toBe('offline');
    sim.until(() => sim.chamber.view().fault === null, 600);
    const back = sim.emissions.findIndex(({ emission }) => emission.kind === 'return');
    const away = sim.emissions.filter(({ at: time }, index) => time > at && index < back);
    expect(away).toEqual([]);
    // Its end is sent after the return.
    expect(sim.emissions[back + 1]?.emission).toMatchObject({ kind: 'event', message: { type: 'sessionEnd' } });
    expect((sim.emissions[back]?.at ?? 0) - at).toBeGreaterThanOrEqual(45_000);
  });

  it('silent: connected but no telemetry for longer than the 30 s of the offline rule', () => {
    const { sim, at } = withFault('silent');
    const times = sim.telemetry().map((record) => record.Time);
    const gap = Math.max(...times.slice(1).map((time, index) => time - (times[index] ?? time)));
    expect(gap).toBeGreaterThan(ALARM_THRESHOLDS.silenceS * 1000);
    expect(times.some((time) => time > at)).toBe(true);
  });

  it('sensor: a fault event, then cabin O2 missing from telemetry until it recovers', () => {
    const { sim, during, at } = withFault('sensor');
    expect(sim.events()).toContainEqual({ type: 'fault', Time: at, code: 'O2_SENSOR', message: 'cabin oxygen sensor not responding' });
    expect(secondsWhere(during, (record) => record.RCPi02 === undefined)).toBeGreaterThanOrEqual(59);
    expect(during.at(-1)?.RCPi02).toBeDefined();
  });

  it('begins faults by itself at the configured rate, only where they can happen', () => {
    const sim = rig({ seed: 3, faults: FAULT_KINDS, faultRate: 20, settings: { SP: 1.4, ST: 60, SS: 'F' } });
    const seen = new Set<FaultKind>();
    const idleSeen = new Set<FaultKind>();
    for (let second = 0; second < 12 * 3600; second += 1) {
      if (sim.chamber.canStart() === null && second % 3600 < 1800) sim.start();
      sim.step();
      const { fault, phase: now } = sim.chamber.view();
      if (fault !== null) (now === 'idle' ? idleSeen : seen).add(fault);
    }
    const emergencies = sim.events().filter((event) => event.type === 'emergency' && event.active).length;
    expect(emergencies).toBeGreaterThan(0);
    expect(seen).toEqual(new Set(FAULT_KINDS.filter((kind) => kind !== 'erd')));
    for (const kind of idleSeen) expect(['sensor', 'offline']).toContain(kind);
  });

  it('never begins one by itself without --faults', () => {
    const sim = rig({ faultRate: 3600 });
    sim.start();
    sim.run(3600);
    expect(sim.events().filter((event) => event.type !== 'sessionStart' && event.type !== 'sessionEnd')).toEqual([]);
    expect(abnormalAll(sim.telemetry(), 1.5)).toEqual([]);
  });
});

describe('chamber: determinism', () => {
  const script = (seed: number) => {
    const sim = rig({ seed, faults: FAULT_KINDS, faultRate: 30 });
    for (let minute = 0; minute < 180; minute += 1) {
      if (minute % 40 === 0 && sim.chamber.canStart() === null) sim.start(`OC${minute}`);
      if (minute === 70) sim.command({ cmdId: `m${minute}`, Time: sim.now(), type: 'settings', SP: 2 });
      sim.run(60, 0.5 + (minute % 3) * 0.25);
    }
    return sim.emissions;
  };

  it('publishes the same sequence for the same seed and calls, and another for another seed', () => {
    const first = script(42);
    expect(script(42)).toEqual(first);
    expect(script(43)).not.toEqual(first);
    expect(first.some(({ emission }) => emission.kind === 'drop' || (emission.kind === 'event' && emission.message.type === 'fault'))).toBe(true);
  });

  it('restarts an emergency the server shows active, repeats it on connecting, ends it after a minute', () => {
    const sim = rig({ emergency: true });
    expect(sim.chamber.connected(sim.now())).toEqual([{ kind: 'event', message: { type: 'emergency', Time: sim.now(), active: true } }]);
    sim.until(() => phase(sim.chamber) === 'idle', 600);
    expect(sim.events()).toEqual([{ type: 'emergency', Time: T0 + ERD_MIN_S * 1000, active: false }]);
    expect(sim.chamber.connected(sim.now())).toEqual([]);
    // A chamber reports as soon as it is connected, whatever its idle interval.
    const before = sim.telemetry().length;
    sim.step();
    expect(sim.telemetry().length).toBe(before + 1);
  });
});
