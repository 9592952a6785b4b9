import type { DevicePatch } from '../../src/domain/live';
import type { DeviceEvent } from '../../src/domain/mqtt/payloads';
import type { AlarmEngine } from '../alarms/engine';
import type { AppContext } from '../context';
import { flag, isSet } from '../db/schema';
import { endSession } from '../orders/session-end';
import { startSession } from '../orders/session-start';
import type { LimitedLog } from './log';
import { presencePatch, touchDevice, type DeviceAfterEvent } from './presence';

/**
 * A device's events (`oc/{Id}/event`, docs/mqtt.md "Events"; docs/ingest.md "Events"):
 *
 * - sessionStart: the order lifecycle's startSession with the event's OC and Time, then the device's
 *   running session (session_oc, session_started_at) is the one the chamber reports, whatever the
 *   booking's answer: an occupant is inside either way, so the offline rule watches it.
 * - sessionEnd: endSession, then the session is cleared.
 * - emergency: devices.erd, then the `erd` alarm raised or returned to normal (docs/alarms.md).
 * - fault: logged.
 *
 * Every event also marks the device online and moves its last-seen time. Each step commits on its own
 * and is safe to repeat (the lifecycle answers a repeated start or end without writing), so an event
 * whose handling failed halfway is simply handled again.
 */

export type EventOutcome = { dropped: 'unknownDevice' } | { patch: DevicePatch };

export interface EventDeps {
  ctx: AppContext;
  log: LimitedLog;
  alarms: AlarmEngine;
}

const sessionPatch = (row: DeviceAfterEvent): DevicePatch => ({
  ...presencePatch(row),
  State: row.state as NonNullable<DevicePatch['State']>,
  OrderNum: row.order_num,
  UpdateTime: Number(row.updated_at),
  SessionOC: row.session_oc,
});

const UNKNOWN: EventOutcome = { dropped: 'unknownDevice' };

export const handleEvent = async (deps: EventDeps, deviceId: string, event: DeviceEvent, receivedAt: number): Promise<EventOutcome> => {
  const { ctx } = deps;
  const at = event.Time;
  switch (event.type) {
    case 'sessionStart': {
      const result = await startSession(ctx, { deviceId, oc: event.OC, at });
      if (result.outcome === 'unknownDevice') return UNKNOWN;
      if (result.outcome === 'started') {
        deps.log('info', 'session:started', { deviceId, orderNum: result.order.orderNum, superseded: result.superseded }, 'session started: booking used');
      } else if (result.outcome !== 'alreadyRunning') {
        // A session without a usable booking: the chamber runs all the same; the operator should know.
        deps.log('warn', `session:${result.outcome}`, { deviceId, outcome: result.outcome, at }, 'session started without a usable booking');
      }
      const row = await touchDevice(ctx.db, deviceId, receivedAt, { session_oc: event.OC, session_started_at: at });
      return row === undefined ? UNKNOWN : { patch: sessionPatch(row) };
    }
    case 'sessionEnd': {
      const result = await endSession(ctx, { deviceId, at });
      if (result.outcome === 'unknownDevice') return UNKNOWN;
      if (result.outcome === 'finished') deps.log('info', 'session:finished', { deviceId, orderNum: result.order.orderNum }, 'session ended: booking finished');
      const row = await touchDevice(ctx.db, deviceId, receivedAt, { session_oc: null, session_started_at: null });
      return row === undefined ? UNKNOWN : { patch: sessionPatch(row) };
    }
    case 'emergency': {
      const row = await touchDevice(ctx.db, deviceId, receivedAt, { erd: flag(event.active) });
      if (row === undefined) return UNKNOWN;
      deps.alarms.eventReported(deviceId, 'erd', event.active);
      deps.log('warn', `emergency:${event.active ? 'on' : 'off'}`, { deviceId, active: event.active, at }, 'emergency rapid depressurisation');
      return { patch: { ...presencePatch(row), Emergency: isSet(row.erd) } };
    }
    case 'fault': {
      const row = await touchDevice(ctx.db, deviceId, receivedAt);
      if (row === undefined) return UNKNOWN;
      deps.log('warn', 'fault', { deviceId, code: event.code, detail: event.message, at }, 'device fault');
      return { patch: presencePatch(row) };
    }
  }
};
