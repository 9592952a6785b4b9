import type { DevicePatch } from '../../src/domain/live';
import type { RejectReason } from '../../src/domain/mqtt/parse';
import type { AppContext } from '../context';
import type { InboundMessage } from '../mqtt/transport';
import { printable, type LimitedLog } from './log';

/** Why a message was handled without effect (settled): the parse reasons, and the rest. */
type DropReason = RejectReason | 'unknownDevice' | 'internal';
/** Why a message was not taken (not settled: the device sends it again when it reconnects). */
type RefuseReason = 'overload' | 'closed';

/**
 * Read at any time. Every message received is, once handled, in exactly one of stored, duplicates,
 * statuses, events, acks, dropped, refused, or still pending:
 *   received = stored + duplicates + statuses + events + acks + Σ dropped + Σ refused + pending
 */
export interface IngestCounters {
  received: number;
  /** Readings inserted into state_records. */
  stored: number;
  /** Telemetry already stored (same device and Time): acknowledged, not stored twice. */
  duplicates: number;
  statuses: number;
  events: number;
  acks: number;
  /** Handled without effect, by reason; acknowledged. */
  dropped: Partial<Record<DropReason, number>>;
  /** Not taken, by reason; not acknowledged. */
  refused: Record<RefuseReason, number>;
  /** Accepted, not yet settled. */
  pending: number;
  /** Transactions and steps committed, and failed attempts (each retried). */
  commits: number;
  failures: number;
}

export const newCounters = (): IngestCounters => ({
  received: 0,
  stored: 0,
  duplicates: 0,
  statuses: 0,
  events: 0,
  acks: 0,
  dropped: {},
  refused: { overload: 0, closed: 0 },
  pending: 0,
  commits: 0,
  failures: 0,
});

/** What becomes of a message, counted and logged; settling and publishing are each guarded, so one failure stops nothing. */
export interface Outcomes {
  /** Acknowledges a pending message (the QoS 1 PUBACK). */
  settle: (message: InboundMessage) => void;
  /** A device patch to the live viewers. */
  publish: (patch: DevicePatch) => void;
  /** Handled without effect: counted by reason and logged (settled by the caller). */
  drop: (reason: DropReason, fields: { deviceId?: string; topic: unknown; detail?: string }) => void;
  /** Not taken, not acknowledged. */
  refuse: (message: InboundMessage, reason: RefuseReason) => void;
}

export const createOutcomes = (ctx: Pick<AppContext, 'live'>, counters: IngestCounters, log: LimitedLog): Outcomes => ({
  settle(message) {
    counters.pending -= 1;
    try {
      message.settle();
    } catch (error) {
      log('error', 'settle', { err: error, topic: printable(message.topic) }, 'mqtt: acknowledging a message failed');
    }
  },
  publish(patch) {
    try {
      ctx.live.publish({ type: 'device', data: patch });
    } catch (error) {
      log('error', 'live', { err: error, deviceId: patch.Id }, 'live: publishing a device patch failed');
    }
  },
  drop(reason, fields) {
    counters.dropped[reason] = (counters.dropped[reason] ?? 0) + 1;
    log('warn', `drop:${reason}`, { ...fields, topic: printable(fields.topic), reason }, 'mqtt message dropped');
  },
  refuse(message, reason) {
    counters.refused[reason] += 1;
    log('warn', `refuse:${reason}`, { topic: printable(message.topic), reason, pending: counters.pending }, 'mqtt message refused, not acknowledged');
  },
});
