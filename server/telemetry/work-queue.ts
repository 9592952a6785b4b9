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
  /**
   * The batch after the one being written is handed to `attempt` at once, without waiting for the one
   * before to finish: for a writer (the writer thread) that takes its batches in order, and refuses
   * unwritten those it holds behind one that failed, so a device's messages are still written in order.
   */
  pipelined: boolean;
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
 * after their first; work is finished one item at a time, in queue order, each retried with backoff
 * (doubling from `retryFirstMs` to `retryMaxMs`) until it commits, and only then finished. Pipelined,
 * the batch behind the one being written is already with the writer; nothing else runs early.
 */
export const createWorkQueue = ({ batchSize, maxWaitMs, retryFirstMs, retryMaxMs, counters, log, pipelined, attempt }: WorkQueueOptions): WorkQueue => {
  const queue: Work[] = [];
  let open: BatchWork | undefined;
  let openTimer: NodeJS.Timeout | undefined;
  let worker: Promise<void> | undefined;
  let closing = false;
  let wake: (() => void) | undefined;

  /** The open batch has waited `maxWaitMs` while the worker was busy: the worker seals it when it is free. */
  let openDue = false;
  /** The work whose attempt is awaited now. */
  let writing: Work | undefined;
  /** Attempts started ahead (pipelined): the batch after the one being written, already with the writer. */
  const ahead = new Map<Work, Promise<() => void>>();

  /**
   * Whether a sealed batch would go to the writer now: nothing is being written, or (pipelined) only the
   * batch being written is queued. Otherwise the open batch keeps filling.
   */
  const writerTakes = (): boolean => worker === undefined || (pipelined && writing?.kind === 'batch' && queue.length === 1 && queue[0] === writing);

  /** Pipelined: the batch queued right after the one being written is handed over now, not after its finish. */
  const sendAhead = (): void => {
    const next = queue[1];
    if (!pipelined || writing?.kind !== 'batch' || queue[0] !== writing || next?.kind !== 'batch' || ahead.has(next)) return;
    const attempted = attempt(next);
    // Its failure is met where it is awaited (perform); until then it must not count as unhandled.
    attempted.catch(() => undefined);
    ahead.set(next, attempted);
  };

  const seal = (): void => {
    if (open === undefined) return;
    clearTimeout(openTimer);
    openDue = false;
    queue.push(open);
    open = undefined;
    kick();
    sendAhead();
  };

  /**
   * The open batch's wait is over. While the worker is still writing, the batch keeps filling (up to
   * `batchSize`) instead of queueing behind it as one more small batch: under load batches grow, and each
   * commit, devices update and WAL page serves more readings (docs/ingest.md, "Batches").
   */
  const sealWhenFree = (): void => {
    if (writerTakes()) seal();
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
      const started = ahead.get(work) ?? attempt(work);
      ahead.delete(work);
      // Nothing is sent ahead of a retry: the writer failed, and would refuse what is behind it.
      writing = attemptNo === 1 ? work : undefined;
      if (openDue && writerTakes()) seal();
      sendAhead();
      try {
        finish = await started;
      } catch (error) {
        writing = undefined;
        // The batch sent behind this one is refused unwritten by the writer; it is sent again behind the retry.
        ahead.clear();
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
      writing = undefined;
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
