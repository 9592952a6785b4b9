import type { InboundMessage } from '../mqtt/transport';
import type { BatchEntry } from './batch';
import type { IngestCounters } from './counters';
import type { EventOutcome } from './events';
import type { LimitedLog } from './log';
import type { RawEntry } from './threaded-writer';

/** What a step (an event or an ack) did, for its counters and its live patch. */
export type StepOutcome = EventOutcome | { acked: true };

/** A batch's entries: parsed on the main thread, or raw for the writer thread to parse. */
export type QueuedEntry = BatchEntry | RawEntry;

export type BatchWork = { kind: 'batch'; entries: QueuedEntry[]; devices: Set<string> };
export type StepWork = { kind: 'step'; deviceId: string; message: InboundMessage; run: () => Promise<StepOutcome> };
export type Work = BatchWork | StepWork;

interface WorkQueueOptions {
  batchSize: number;
  maxWaitMs: number;
  retryFirstMs: number;
  retryMaxMs: number;
  counters: IngestCounters;
  log: LimitedLog;
  /** One attempt at a work item: resolves after its commit with what finishes it (counts, acknowledgements, patches); rejects if it failed. */
  attempt(work: Work): Promise<() => void>;
}

export interface WorkQueue {
  /** Adds a telemetry, status or refused message to the open batch (opened, with its timer, if none is). */
  addToBatch(entry: QueuedEntry): void;
  /** Queues a step after the device's messages waiting in the open batch. */
  addStep(deviceId: string, message: InboundMessage, run: () => Promise<StepOutcome>): void;
  /** Seals and writes what is pending; a worker waiting out a backoff gives up instead, and a write that fails now is not retried. */
  close(): Promise<void>;
}

/**
 * The open batch, the queue and its one worker: batches close at `batchSize` entries or `maxWaitMs`
 * after their first; work runs one item at a time, in queue order, each retried with backoff (doubling
 * from `retryFirstMs` to `retryMaxMs`) until it commits, and only then finished.
 */
export const createWorkQueue = ({ batchSize, maxWaitMs, retryFirstMs, retryMaxMs, counters, log, attempt }: WorkQueueOptions): WorkQueue => {
  const queue: Work[] = [];
  let open: BatchWork | undefined;
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

  /** Runs one work item until it commits (true), or until it fails while closing (false). */
  const perform = async (work: Work): Promise<boolean> => {
    for (let attemptNo = 1; ; attemptNo += 1) {
      let finish: () => void;
      try {
        finish = await attempt(work);
      } catch (error) {
        counters.failures += 1;
        const messages = work.kind === 'batch' ? work.entries.length : 1;
        const retryInMs = Math.min(retryMaxMs, retryFirstMs * 2 ** Math.min(attemptNo - 1, 30));
        log('error', 'failure', { err: error, work: work.kind, messages, attempt: attemptNo, retryInMs: closing ? null : retryInMs }, 'ingest: write failed; messages not acknowledged');
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

  const close = async (): Promise<void> => {
    closing = true;
    seal();
    wake?.();
    kick();
    while (worker !== undefined) await worker;
  };

  return { addToBatch, addStep, close };
};
