import { ALARM_SWEEP_INTERVAL_MS, createAlarmEngine, type AlarmEngine } from '../alarms/engine';
import type { AppContext } from '../context';
import type { InboundMessage } from '../mqtt/transport';
import { createCommit } from './commit';
import { createOutcomes, newCounters, type IngestCounters } from './counters';
import { createIntake } from './intake';
import { LOG_BURST, LOG_WINDOW_MS, printable, rateLimitedLog, type IngestLog, type LimitedLog } from './log';
import { startOfflineSweep } from './offline-sweep';
import { OFFLINE_AFTER_MS, OFFLINE_SWEEP_INTERVAL_MS } from './presence';
import { createRollupFlusher } from './rollups';
import { createThreadedBatchWriter } from './threaded-writer';
import { createWorkQueue } from './work-queue';

/**
 * Ingestion (docs/ingest.md): every message a device publishes, as the MQTT transport
 * hands it over, validated with the shared contract (src/domain/mqtt/), stored, and acknowledged
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
 *
 * Composed here: where a taken message goes (intake.ts), the open batch, the queue and its worker with
 * retries (work-queue.ts), the write and what follows its commit (commit.ts), what becomes of each
 * message, counted (counters.ts), the offline rule's timer (offline-sweep.ts), and the safety alarms,
 * evaluated after each commit (server/alarms/engine.ts; in the app, the alarm plugin's engine).
 */

/** Entries per batch: at 10,000 messages/s a batch fills in 100 ms, so `maxWaitMs` is what usually closes it. */
const BATCH_SIZE = 1000;
/** How long a batch stays open while the worker is free (while it writes, until it is free); acknowledgement latency is this plus the write. */
const BATCH_MAX_WAIT_MS = 20;
/** Messages accepted and not yet settled beyond which new ones are refused unacknowledged (about 5 s at the target rate). */
const MAX_PENDING = 50_000;
/** Backoff between attempts of a failed batch or step: doubling from the first to the last. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

export interface IngestOptions {
  log: IngestLog;
  batchSize?: number;
  maxWaitMs?: number;
  maxPending?: number;
  /** The offline rule (presence.ts): silence during a session longer than this; default OFFLINE_AFTER_MS (30 s). */
  offlineAfterMs?: number;
  /** How often the offline rule is applied; 0 applies it only when `sweep()` is called (tests). */
  sweepIntervalMs?: number;
  /** How often the alarm engine sweeps (shelves, suppression, edited rules); default: alarmSweepIntervalOf. */
  alarmSweepIntervalMs?: number;
  /**
   * The alarm engine fed after each commit: the app's (server/alarms/plugin.ts), closed by its owner after
   * ingestion. Default: one of ingestion's own, closed with it.
   */
  alarms?: AlarmEngine;
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

export interface Ingest {
  /** Takes a device's message; never throws. The transport stops calling it before `close`. */
  accept(message: InboundMessage): void;
  /** Applies the offline rule now (a timer does every `sweepIntervalMs`); answers the devices marked offline. */
  sweep(): Promise<string[]>;
  /** Writes what is pending and stops the timers. A write that fails now is not retried: its messages stay unacknowledged. */
  close(): Promise<void>;
  readonly counters: Readonly<IngestCounters>;
  /** The safety alarms evaluated from what this ingestion stores. */
  readonly alarms: AlarmEngine;
}

/** The alarm sweep's interval for these options: as given, else none when the offline rule has no timer either (tests), else ALARM_SWEEP_INTERVAL_MS. */
export const alarmSweepIntervalOf = (options: Pick<IngestOptions, 'alarmSweepIntervalMs' | 'sweepIntervalMs'>): number =>
  options.alarmSweepIntervalMs ?? (options.sweepIntervalMs === 0 ? 0 : ALARM_SWEEP_INTERVAL_MS);

export const createIngest = (ctx: AppContext, options: IngestOptions): Ingest => {
  const offlineAfterMs = options.offlineAfterMs ?? OFFLINE_AFTER_MS;
  const maxPending = options.maxPending ?? MAX_PENDING;
  const log: LimitedLog = rateLimitedLog(options.log, {
    burst: options.logBurst ?? LOG_BURST,
    windowMs: options.logWindowMs ?? LOG_WINDOW_MS,
    now: ctx.now,
  });
  const rollupFailed = (error: unknown, what: 'flush' | 'repair'): void =>
    log('warn', 'rollups', { err: error }, what === 'flush' ? 'rollups: a flush failed; its buckets are recomputed at the next' : 'rollups: the repair after the start failed');
  const thread =
    (options.writerThread ?? ctx.kind === 'sqlite')
      ? createThreadedBatchWriter(ctx.config, {
          checkpoints: { onError: (error) => log('warn', 'checkpoint', { err: error }, 'sqlite: the checkpoint thread failed; the WAL is checkpointed by its writers from now on') },
          onRollupError: (error, what) => rollupFailed(error, what),
        })
      : undefined;
  // Batches written here have their rollups flushed here; the writer thread flushes its own.
  const rollups =
    thread === undefined
      ? createRollupFlusher(ctx.db, ctx.kind, { intervalMs: ctx.config.rollupFlushMs, onError: (error, what) => rollupFailed(error, what) })
      : undefined;

  const ownsAlarms = options.alarms === undefined;
  const alarms = options.alarms ?? createAlarmEngine({ ctx, log, intervalMs: alarmSweepIntervalOf(options) });
  const counters = newCounters();
  const outcomes = createOutcomes(ctx, counters, log);
  const { settle, refuse } = outcomes;
  const queue = createWorkQueue({
    batchSize: options.batchSize ?? BATCH_SIZE,
    maxWaitMs: options.maxWaitMs ?? BATCH_MAX_WAIT_MS,
    retryFirstMs: options.retryFirstMs ?? RETRY_FIRST_MS,
    retryMaxMs: options.retryMaxMs ?? RETRY_MAX_MS,
    counters,
    log,
    pipelined: thread !== undefined,
    attempt: createCommit({ ctx, thread, counters, outcomes, alarms, rollups: rollups ?? { touch: () => undefined } }),
  });
  const take = createIntake({ ctx, log, threaded: thread !== undefined, counters, outcomes, queue, alarms });
  const offline = startOfflineSweep({
    ctx,
    log,
    publish: outcomes.publish,
    alarms,
    offlineAfterMs,
    intervalMs: options.sweepIntervalMs ?? OFFLINE_SWEEP_INTERVAL_MS,
  });

  let closing = false;
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

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      closing = true;
      const sweepStopped = offline.stop();
      await queue.close();
      await sweepStopped;
      if (ownsAlarms) await alarms.close();
      await rollups?.close().catch((error: unknown) => rollupFailed(error, 'flush'));
      await thread?.close();
      if (counters.pending > 0) {
        log('warn', 'close', { pending: counters.pending }, 'ingest closed with messages not acknowledged: their devices send them again');
      }
    })());

  return { accept, sweep: offline.sweep, close, counters, alarms };
};
