import type { DevicePatch } from '../../src/domain/live';
import { parseMessage, type RejectReason } from '../../src/domain/mqtt/parse';
import { parseTopic } from '../../src/domain/mqtt/topics';
import { applyAck } from '../commands/acks';
import type { CommandLog } from '../commands/outcomes';
import type { AppContext } from '../context';
import type { InboundMessage } from '../mqtt/transport';
import { createBatchWriter, type BatchEntry, type BatchResult, type BatchWriter } from './batch';
import { createThreadedBatchWriter, type RawEntry, type ThreadedResult } from './threaded-writer';
import { handleEvent, type EventOutcome } from './events';
import { LOG_BURST, LOG_WINDOW_MS, printable, rateLimitedLog, type IngestLog, type LimitedLog, type LogLevel } from './log';
import { markSilentDevicesOffline, OFFLINE_AFTER_MS, OFFLINE_SWEEP_INTERVAL_MS, presencePatch } from './presence';

/**
 * Ingestion (issue 5, point 4; docs/ingest.md): every message a device publishes, as the MQTT transport
 * hands it over, validated with the shared contract (src/domain/mqtt.ts), stored, and acknowledged
 * (`settle()`, the QoS 1 PUBACK) only once it is handled for good.
 *
 *   accept ─▶ parseMessage ─┬─ refused ───────────────┐
 *                           ├─ telemetry, status ─────┼─▶ the open batch ─(batchSize or maxWaitMs)─┐
 *                           └─ event, ack ─▶ a step ──┘                                            │
 *   queue (in arrival order per device) ◀──────────────────────────────────────────────────────────┘
 *     └─▶ one worker: a batch in one transaction (batch.ts) or a step (events.ts, applyAck),
 *         retried with backoff until it commits ─▶ settle its messages ─▶ live patches
 *
 * Per-device order: a step (an event or an ack) of a device whose messages wait in the open batch
 * closes that batch first, so it runs after them; a refused message waits in the open batch so that its
 * acknowledgement keeps its place among the device's (MQTT acknowledges QoS 1 in order).
 *
 * With the writer thread (`writerThread`, the default on SQLite: threaded-writer.ts), telemetry and
 * status skip parseMessage here: they join the batch raw, and the thread parses and writes them, saying
 * which it refused and why; the worker then counts, settles and publishes as above.
 */

/** Entries per batch: at 10,000 messages/s a batch fills in 100 ms, so `maxWaitMs` is what usually closes it. */
export const BATCH_SIZE = 1000;
/** How long a batch stays open while the worker is free (while it writes, until it is free); acknowledgement latency is this plus the write. */
export const BATCH_MAX_WAIT_MS = 20;
/** Messages accepted and not yet settled beyond which new ones are refused unacknowledged (about 5 s at the target rate). */
export const MAX_PENDING = 50_000;
/** Backoff between attempts of a failed batch or step: doubling from the first to the last. */
export const RETRY_FIRST_MS = 100;
export const RETRY_MAX_MS = 5_000;

export interface IngestOptions {
  log: IngestLog;
  batchSize?: number;
  maxWaitMs?: number;
  maxPending?: number;
  /** The offline rule (presence.ts): silence during a session longer than this; default OFFLINE_AFTER_MS (30 s). */
  offlineAfterMs?: number;
  /** How often the offline rule is applied; 0 applies it only when `sweep()` is called (tests). */
  sweepIntervalMs?: number;
  retryFirstMs?: number;
  retryMaxMs?: number;
  /** Log lines per kind per window (log.ts). */
  logBurst?: number;
  logWindowMs?: number;
  /**
   * Telemetry and status parsed and written by a thread of their own (threaded-writer.ts). Default: on
   * SQLite, where the batch's transaction is CPU on the event loop; PostgreSQL's runs in its own server.
   */
  writerThread?: boolean;
}

/** Why a message was handled without effect (settled): the parse reasons, and the rest. */
export type DropReason = RejectReason | 'unknownDevice' | 'internal';
/** Why a message was not taken (not settled: the device sends it again when it reconnects). */
export type RefuseReason = 'overload' | 'closed';

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

export interface Ingest {
  /** Takes a device's message; never throws. The transport stops calling it before `close`. */
  accept(message: InboundMessage): void;
  /** Applies the offline rule now (a timer does every `sweepIntervalMs`); answers the devices marked offline. */
  sweep(): Promise<string[]>;
  /** Writes what is pending and stops the timers. A write that fails now is not retried: its messages stay unacknowledged. */
  close(): Promise<void>;
  readonly counters: Readonly<IngestCounters>;
}

type StepOutcome = EventOutcome | { acked: true };

/** A batch's entries: parsed here, or raw for the writer thread to parse. */
type QueuedEntry = BatchEntry | RawEntry;

type Work =
  | { kind: 'batch'; entries: QueuedEntry[]; devices: Set<string> }
  | { kind: 'step'; deviceId: string; message: InboundMessage; run: () => Promise<StepOutcome> };

export const createIngest = (ctx: AppContext, options: IngestOptions): Ingest => {
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const maxWaitMs = options.maxWaitMs ?? BATCH_MAX_WAIT_MS;
  const maxPending = options.maxPending ?? MAX_PENDING;
  const offlineAfterMs = options.offlineAfterMs ?? OFFLINE_AFTER_MS;
  const sweepIntervalMs = options.sweepIntervalMs ?? OFFLINE_SWEEP_INTERVAL_MS;
  const retryFirstMs = options.retryFirstMs ?? RETRY_FIRST_MS;
  const retryMaxMs = options.retryMaxMs ?? RETRY_MAX_MS;
  const log: LimitedLog = rateLimitedLog(options.log, {
    burst: options.logBurst ?? LOG_BURST,
    windowMs: options.logWindowMs ?? LOG_WINDOW_MS,
    now: ctx.now,
  });
  const thread =
    (options.writerThread ?? ctx.kind === 'sqlite')
      ? createThreadedBatchWriter(ctx.config, {
          checkpoints: { onError: (error) => log('warn', 'checkpoint', { err: error }, 'sqlite: the checkpoint thread failed; the WAL is checkpointed by its writers from now on') },
        })
      : undefined;
  let writeHere: BatchWriter | undefined;
  /** A batch's raw entries written by the thread, or the batch written here (without a thread nothing is raw). */
  const writeBatch = (entries: QueuedEntry[]): Promise<BatchResult | ThreadedResult> => {
    if (thread !== undefined) return thread.write(entries.filter((entry): entry is RawEntry => entry.kind === 'raw'));
    writeHere ??= createBatchWriter(ctx.db);
    return writeHere(entries.filter((entry): entry is BatchEntry => entry.kind !== 'raw'));
  };

  const counters: IngestCounters = {
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
  };

  /** applyAck's log lines (an ignored ack: unknown command, another device's), rate-limited like ours. */
  const ackLine =
    (level: LogLevel) =>
    (fields: unknown, message?: string): void =>
      log(level, `ack:${level}`, typeof fields === 'object' && fields !== null ? fields : { detail: fields }, message ?? 'ack');
  const ackLog: CommandLog = { info: ackLine('info'), warn: ackLine('warn'), error: ackLine('error') };

  // -------------------------------------------------------------------------------------------------
  // Settling and publishing: after a commit, never retried, each guarded so one failure stops nothing.

  const settle = (message: InboundMessage): void => {
    counters.pending -= 1;
    try {
      message.settle();
    } catch (error) {
      log('error', 'settle', { err: error, topic: printable(message.topic) }, 'mqtt: acknowledging a message failed');
    }
  };

  const publish = (patch: DevicePatch): void => {
    try {
      ctx.live.publish({ type: 'device', data: patch });
    } catch (error) {
      log('error', 'live', { err: error, deviceId: patch.Id }, 'live: publishing a device patch failed');
    }
  };

  const drop = (reason: DropReason, fields: { deviceId?: string; topic: unknown; detail?: string }): void => {
    counters.dropped[reason] = (counters.dropped[reason] ?? 0) + 1;
    log('warn', `drop:${reason}`, { ...fields, topic: printable(fields.topic), reason }, 'mqtt message dropped');
  };

  const refuse = (message: InboundMessage, reason: RefuseReason): void => {
    counters.refused[reason] += 1;
    log('warn', `refuse:${reason}`, { topic: printable(message.topic), reason, pending: counters.pending }, 'mqtt message refused, not acknowledged');
  };

  // -------------------------------------------------------------------------------------------------
  // The queue and its worker

  const queue: Work[] = [];
  let open: Extract<Work, { kind: 'batch' }> | undefined;
  let openTimer: NodeJS.Timeout | undefined;
  let worker: Promise<void> | undefined;
  let closing = false;
  let wake: (() => void) | undefined;

  /** The open batch has waited `maxWaitMs` while the worker was busy: the worker seals it when it is free. */
  let openDue = false;

  const seal = (): void => {
    if (open === undefined) return;
    clearTimeout(openTimer);
    openDue = false;
    queue.push(open);
    open = undefined;
    kick();
  };

  /**
   * The open batch's wait is over. While the worker is still writing, the batch keeps filling (up to
   * `batchSize`) instead of queueing behind it as one more small batch: under load batches grow, and each
   * commit, devices update and WAL page serves more readings (docs/ingest.md, "Batches").
   */
  const sealWhenFree = (): void => {
    if (worker === undefined) seal();
    else openDue = true;
  };

  const addToBatch = (entry: QueuedEntry): void => {
    if (open === undefined) {
      open = { kind: 'batch', entries: [], devices: new Set() };
      openTimer = setTimeout(sealWhenFree, maxWaitMs);
      openTimer.unref();
    }
    open.entries.push(entry);
    open.devices.add(entry.deviceId);
    if (open.entries.length >= batchSize) seal();
  };

  const addStep = (deviceId: string, message: InboundMessage, run: () => Promise<StepOutcome>): void => {
    if (open?.devices.has(deviceId)) seal();
    queue.push({ kind: 'step', deviceId, message, run });
    kick();
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });

  /** After a batch committed: its counts, its acknowledgements in arrival order, then one patch per device. */
  const finishBatch = (work: Extract<Work, { kind: 'batch' }>, result: BatchResult | ThreadedResult): void => {
    counters.stored += result.stored;
    counters.duplicates += result.duplicates;
    counters.statuses += result.statuses;
    const refused = 'dropped' in result ? result.dropped : undefined;
    for (const entry of work.entries) {
      const parseFault = entry.kind === 'raw' ? refused?.get(entry) : undefined;
      if (parseFault !== undefined) drop(parseFault.reason, { deviceId: entry.deviceId, topic: entry.message.topic, detail: parseFault.detail });
      else if (entry.kind !== 'drop' && result.unknown.has(entry.deviceId)) drop('unknownDevice', { deviceId: entry.deviceId, topic: entry.message.topic });
      settle(entry.message);
    }
    for (const patch of result.patches) publish(patch);
  };

  const finishStep = (work: Extract<Work, { kind: 'step' }>, outcome: StepOutcome): void => {
    if ('dropped' in outcome) drop(outcome.dropped, { deviceId: work.deviceId, topic: work.message.topic });
    else if ('acked' in outcome) counters.acks += 1;
    else counters.events += 1;
    settle(work.message);
    if ('patch' in outcome) publish(outcome.patch);
  };

  /** Runs one work item until it commits (true), or until it fails while closing (false). */
  const perform = async (work: Work): Promise<boolean> => {
    for (let attempt = 1; ; attempt += 1) {
      let finish: () => void;
      try {
        if (work.kind === 'batch') {
          const result = await writeBatch(work.entries);
          finish = () => finishBatch(work, result);
        } else {
          const outcome = await work.run();
          finish = () => finishStep(work, outcome);
        }
      } catch (error) {
        counters.failures += 1;
        const messages = work.kind === 'batch' ? work.entries.length : 1;
        const retryInMs = Math.min(retryMaxMs, retryFirstMs * 2 ** Math.min(attempt - 1, 30));
        log('error', 'failure', { err: error, work: work.kind, messages, attempt, retryInMs: closing ? null : retryInMs }, 'ingest: write failed; messages not acknowledged');
        if (closing) return false;
        await pause(retryInMs);
        if (closing) return false;
        continue;
      }
      // Committed: from here on nothing is retried (a retry would acknowledge twice).
      counters.commits += 1;
      finish();
      return true;
    }
  };

  /** Set when a write failed while closing: the queue is left as it is, unacknowledged. */
  let gaveUp = false;

  const drain = async (): Promise<void> => {
    for (let work = queue[0]; work !== undefined; work = queue[0]) {
      if (!(await perform(work))) {
        gaveUp = true;
        return;
      }
      queue.shift();
      if (queue.length === 0 && openDue) seal();
    }
  };

  function kick(): void {
    if (gaveUp) return;
    worker ??= drain().finally(() => {
      worker = undefined;
      // Work queued while the last item was finishing.
      if (queue.length > 0) kick();
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Accepting

  /** Hands a message to the queue (raw for the writer thread, or parsed here), or settles a refused one; the message is pending from here. */
  const take = (message: InboundMessage, receivedAt: number): void => {
    if (thread !== undefined) {
      const topic = parseTopic(message.topic);
      if (topic?.kind === 'telemetry' || topic?.kind === 'status') {
        counters.pending += 1;
        return addToBatch({ kind: 'raw', deviceId: topic.deviceId, message, receivedAt });
      }
    }
    const parsed = parseMessage(message.topic, message.payload, receivedAt);
    counters.pending += 1;
    if (!parsed.ok || parsed.kind === 'cmd') {
      const deviceId = parseTopic(message.topic)?.deviceId;
      const why = parsed.ok ? { reason: 'topic' as const, detail: 'cmd is published by the server' } : parsed;
      drop(why.reason, { deviceId, topic: message.topic, detail: why.detail });
      // Acknowledged in its device's order; a topic naming no device has no order to keep.
      if (deviceId === undefined) settle(message);
      else addToBatch({ kind: 'drop', deviceId, message });
      return;
    }
    const { deviceId } = parsed;
    switch (parsed.kind) {
      case 'telemetry':
        return addToBatch({ kind: 'telemetry', deviceId, message, receivedAt, reading: parsed.message });
      case 'status':
        return addToBatch({ kind: 'status', deviceId, message, receivedAt, status: parsed.message });
      case 'event': {
        const event = parsed.message;
        return addStep(deviceId, message, () => handleEvent({ ctx, log }, deviceId, event, receivedAt));
      }
      case 'ack': {
        const ack = parsed.message;
        return addStep(deviceId, message, async () => {
          await applyAck(ctx, deviceId, ack, ackLog);
          return { acked: true };
        });
      }
    }
  };

  const accept = (message: InboundMessage): void => {
    counters.received += 1;
    const pendingBefore = counters.pending;
    try {
      if (closing) return refuse(message, 'closed');
      if (counters.pending >= maxPending) return refuse(message, 'overload');
      take(message, ctx.now());
    } catch (error) {
      // Not reachable by design (parseMessage never throws); a message must never take ingestion down. One
      // that failed before it was taken is settled here; once taken, it is the queue's to settle.
      counters.dropped.internal = (counters.dropped.internal ?? 0) + 1;
      log('error', 'internal', { err: error, topic: printable(message.topic) }, 'ingest: message dropped on an internal error');
      if (counters.pending === pendingBefore) {
        counters.pending += 1;
        settle(message);
      }
    }
  };

  // -------------------------------------------------------------------------------------------------
  // The offline rule

  const sweep = async (): Promise<string[]> => {
    const silent = await markSilentDevicesOffline(ctx.db, ctx.now(), offlineAfterMs);
    for (const row of silent) {
      // The "no telemetry for 30 s during a session" alarm's hook (decisions.md, "Safety alarms").
      log('warn', 'offline:silent', { deviceId: row.id, lastSeen: row.last_seen_at, offlineAfterMs }, 'device offline: silent during a session');
      publish(presencePatch(row));
    }
    return silent.map((row) => row.id);
  };

  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  const scheduleSweep = (): void => {
    if (sweepIntervalMs <= 0 || closing) return;
    sweepTimer = setTimeout(() => {
      sweeping = sweep()
        .then(
          () => undefined,
          (error: unknown) => log('error', 'sweep', { err: error }, 'ingest: offline sweep failed'),
        )
        .finally(() => {
          sweeping = undefined;
          scheduleSweep();
        });
    }, sweepIntervalMs);
    sweepTimer.unref();
  };
  scheduleSweep();

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      closing = true;
      clearTimeout(sweepTimer);
      // Seal and write what is pending; a worker waiting out a backoff gives up instead.
      seal();
      wake?.();
      kick();
      while (worker !== undefined) await worker;
      await sweeping;
      await thread?.close();
      if (counters.pending > 0) {
        log('warn', 'close', { pending: counters.pending }, 'ingest closed with messages not acknowledged: their devices send them again');
      }
    })());

  return { accept, sweep, close, counters };
};
