import { evaluateEvent, evaluateReading, newDeviceTracks, type DeviceTracks, type RuleEvent } from '../../src/domain/alarms/evaluator';
import { PRIORITY_RANK, VITAL_KINDS, type AlarmKind, type AlarmPriority } from '../../src/domain/alarms/rules';
import { nextAlarmState } from '../../src/domain/alarms/states';
import type { MessageNotice } from '../../src/domain/live';
import type { Telemetry } from '../../src/domain/mqtt/payloads';
import type { AppContext } from '../context';
import { SYSTEM_ACTOR } from '../audit/trail';
import type { AlarmRow } from '../db/schema';
import { transact } from '../db/transact';
import { announceMessages } from '../messages/post';
import type { LimitedLog } from '../telemetry/log';
import { loadRules, type RulesOfType } from './rules';
import { changeAlarm, openAlarm, openAlarmsOf, recordOf, stateOf } from './store';
import { sweepAlarms } from './sweep';

/**
 * The safety alarm engine (docs/alarms.md, "How alarms are evaluated"): the pure evaluator
 * (src/domain/alarms/) per device, fed strictly after commit with every reading a batch stored, each
 * device's in Time order, the emergency events and the offline sweep, in the order they committed (one queue). Alarm
 * states live in the store and are changed there in one transaction with their transitions and audit
 * entries, then announced as live `alarm` events. What is kept in memory is only each rule's timers: after
 * a restart an on-delay or off-delay starts again from the next reading (a standing alarm is loaded as
 * raised, so it still returns to normal), which delays an alarm by at most one on-delay and never loses one.
 */
export interface AlarmEngine {
  /**
   * Readings committed (each with its device's Id): those a batch stored, not the ones it found stored
   * already, each device's in Time order. A reading not later than its device's newest evaluated is skipped.
   */
  readingsStored(readings: readonly (Telemetry & { Id: string })[]): void;
  /** An event rule's condition, after its event committed: the emergency (`erd`) or lost telemetry (`offline`). */
  eventReported(deviceId: string, kind: 'erd' | 'offline', present: boolean): void;
  /** Expired shelves, suppression of devices whose state or session changed, rules edited (a timer does it every `intervalMs`). */
  sweep(): Promise<void>;
  /** Waits for everything queued so far. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface DeviceMemory {
  type: number;
  tracks: DeviceTracks;
}

export interface AlarmEngineOptions {
  ctx: Pick<AppContext, 'db' | 'now' | 'live'>;
  log: LimitedLog;
  /** How often `sweep` runs; 0: only when called (tests). */
  intervalMs: number;
}

/** How often shelves expire, suppression follows the devices and edited rules apply. */
export const ALARM_SWEEP_INTERVAL_MS = 5_000;

export const createAlarmEngine = ({ ctx, log, intervalMs }: AlarmEngineOptions): AlarmEngine => {
  const { db } = ctx;
  const devices = new Map<string, DeviceMemory>();
  let rules: Promise<RulesOfType> | undefined;
  /** Every type's rules with its rated maximum (./rules.ts), loaded once and again after each sweep. */
  const rulesByType = (): Promise<RulesOfType> => (rules ??= loadRules(db));

  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch((error: unknown) => log('error', 'alarms', { err: error }, 'alarms: evaluation failed; the next reading evaluates again'));
  };

  /** The devices' memories, loading those not seen yet: their type and the alarms standing for them. */
  const remember = async (deviceIds: readonly string[]): Promise<void> => {
    const unseen = [...new Set(deviceIds)].filter((id) => !devices.has(id));
    if (unseen.length === 0) return;
    const rows = await db.selectFrom('devices').select(['id', 'type']).where('id', 'in', unseen).execute();
    const standing = new Map<string, Partial<Record<AlarmKind, AlarmPriority>>>();
    for (const alarm of await openAlarmsOf(db, unseen)) {
      if (alarm.condition === 0) continue;
      standing.set(alarm.device_id, { ...standing.get(alarm.device_id), [alarm.kind]: alarm.priority as AlarmPriority });
    }
    for (const row of rows) devices.set(row.id, { type: row.type, tracks: newDeviceTracks(standing.get(row.id)) });
  };

  /** The events of some devices turned into alarm states, in one transaction, then announced. */
  const apply = async (fired: ReadonlyMap<string, RuleEvent[]>): Promise<void> => {
    const ids = [...fired.keys()];
    const at = ctx.now();
    const context = new Map(
      (await db.selectFrom('devices').select(['id', 'state', 'session_oc']).where('id', 'in', ids).execute()).map((row) => [row.id, row]),
    );
    const { rows: changed, notices } = await transact(db, async (trx) => {
      const rows: AlarmRow[] = [];
      const notices: MessageNotice[] = [];
      const open = new Map((await openAlarmsOf(trx, ids)).map((row) => [`${row.device_id} ${row.kind}`, row]));
      for (const [deviceId, events] of fired) {
        const device = context.get(deviceId);
        if (device === undefined) continue;
        for (const { kind, event } of events) {
          const suppressed = device.state === 'Repair' || (VITAL_KINDS.includes(kind) && device.session_oc === null);
          const current = open.get(`${deviceId} ${kind}`);
          let row: AlarmRow | undefined;
          if (event.type === 'clear') {
            if (current === undefined) continue;
            const to = nextAlarmState(stateOf(current), 'clear', { condition: false, suppressed }) ?? stateOf(current);
            row = await changeAlarm(trx, current, { to, columns: { condition: 0 }, action: 'alarm.change' }, SYSTEM_ACTOR, at, notices);
          } else if (current === undefined) {
            if (event.type === 'escalate') continue;
            row = await openAlarm(trx, { deviceId, kind, priority: event.level, state: suppressed ? 'suppressed' : 'active-unacked', value: event.value, threshold: event.threshold }, SYSTEM_ACTOR, at, notices);
          } else {
            const raises = event.type === 'raise' ? nextAlarmState(stateOf(current), 'raise', { condition: true, suppressed }) : undefined;
            const higher = PRIORITY_RANK[event.level] > PRIORITY_RANK[current.priority as AlarmPriority];
            if (raises === undefined && !higher && current.condition === 1) continue;
            const columns = { condition: 1, ...(higher || raises !== undefined ? { priority: higher ? event.level : current.priority, value: event.value, threshold: event.threshold } : {}) };
            row = await changeAlarm(trx, current, { to: raises ?? stateOf(current), columns, action: 'alarm.change' }, SYSTEM_ACTOR, at, notices);
          }
          if (row === undefined) continue;
          rows.push(row);
          if (row.state === 'closed') open.delete(`${deviceId} ${kind}`);
          else open.set(`${deviceId} ${kind}`, row);
        }
      }
      return { rows, notices };
    });
    for (const row of changed) ctx.live.publish({ type: 'alarm', data: recordOf(row) });
    announceMessages(ctx, notices);
  };

  const readingsStored = (readings: readonly (Telemetry & { Id: string })[]): void => {
    if (readings.length === 0) return;
    enqueue(async () => {
      await remember(readings.map((reading) => reading.Id));
      const rulesOf = await rulesByType();
      const fired = new Map<string, RuleEvent[]>();
      for (const reading of readings) {
        const device = devices.get(reading.Id);
        if (device === undefined) continue;
        const events = evaluateReading(rulesOf(device.type), device.tracks, reading);
        if (events.length === 0) continue;
        // A backlog may raise and return an alarm within one batch: its events stay in order.
        const earlier = fired.get(reading.Id);
        if (earlier === undefined) fired.set(reading.Id, events);
        else earlier.push(...events);
      }
      if (fired.size > 0) await apply(fired);
    });
  };

  const eventReported = (deviceId: string, kind: 'erd' | 'offline', present: boolean): void =>
    enqueue(async () => {
      await remember([deviceId]);
      const device = devices.get(deviceId);
      const rulesOf = await rulesByType();
      const rule = device === undefined ? undefined : rulesOf(device.type).find((each) => each.kind === kind);
      if (device === undefined || rule === undefined) return;
      const events = evaluateEvent(rule, device.tracks, present);
      if (events.length > 0) await apply(new Map([[deviceId, events]]));
    });

  const sweep = async (): Promise<void> => {
    // Edited rules and types' rated maxima apply from here on, and devices moved to another type.
    rules = undefined;
    const known = [...devices.keys()];
    for (let start = 0; start < known.length; start += 1000) {
      const rows = await db.selectFrom('devices').select(['id', 'type']).where('id', 'in', known.slice(start, start + 1000)).execute();
      for (const row of rows) {
        const device = devices.get(row.id);
        if (device !== undefined) device.type = row.type;
      }
    }
    const notices: MessageNotice[] = [];
    const changed = await sweepAlarms(db, ctx.now(), notices);
    for (const row of changed) ctx.live.publish({ type: 'alarm', data: recordOf(row) });
    announceMessages(ctx, notices);
  };

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (): void => {
    if (intervalMs <= 0 || stopped) return;
    timer = setTimeout(() => {
      enqueue(sweep);
      void queue.finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    readingsStored,
    eventReported,
    sweep: () => {
      enqueue(sweep);
      return queue;
    },
    settled: () => queue,
    async close() {
      stopped = true;
      clearTimeout(timer);
      await queue;
    },
  };
};
