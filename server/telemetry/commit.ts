import type { AlarmEngine } from '../alarms/engine';
import type { AppContext } from '../context';
import { createBatchWriter, type BatchEntry, type BatchResult, type BatchWriter } from './batch';
import type { IngestCounters, Outcomes } from './counters';
import type { RollupTouches } from './rollups';
import type { RawEntry, ThreadedBatchWriter, ThreadedResult } from './threaded-writer';
import type { BatchWork, QueuedEntry, StepOutcome, StepWork, Work } from './work-queue';

interface CommitParts {
  ctx: Pick<AppContext, 'db' | 'kind'>;
  /** The writer thread, when batches are written there (then every telemetry and status entry is raw). */
  thread: ThreadedBatchWriter | undefined;
  counters: IngestCounters;
  outcomes: Outcomes;
  alarms: AlarmEngine;
  /** Where the batches written here tell their stored readings (the thread has its own). */
  rollups: RollupTouches;
}

/**
 * One attempt at a work item (the queue's `attempt`): a batch written in one transaction, by the writer
 * thread or here, or a step run; once it committed, what finishes it: its counts, its acknowledgements in
 * arrival order, its live patches, then the safety alarms of every reading it stored (each device's in Time
 * order; a redelivered reading was not stored again, so it is not evaluated again).
 */
export const createCommit = ({ ctx, thread, counters, outcomes, alarms, rollups }: CommitParts): ((work: Work) => Promise<() => void>) => {
  const { settle, publish, drop } = outcomes;
  let writeHere: BatchWriter | undefined;
  /** A batch's raw entries written by the thread, or the batch written here (without a thread nothing is raw). */
  const writeBatch = (entries: QueuedEntry[]): Promise<BatchResult | ThreadedResult> => {
    if (thread !== undefined) return thread.write(entries.filter((entry): entry is RawEntry => entry.kind === 'raw'));
    writeHere ??= createBatchWriter(ctx.db, ctx.kind, rollups);
    return writeHere(entries.filter((entry): entry is BatchEntry => entry.kind !== 'raw'));
  };

  /** After a batch committed: its counts, its acknowledgements in arrival order, then one patch per device. */
  const finishBatch = (work: BatchWork, result: BatchResult | ThreadedResult): void => {
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
    alarms.readingsStored(result.readings);
  };

  const finishStep = (work: StepWork, outcome: StepOutcome): void => {
    if ('dropped' in outcome) drop(outcome.dropped, { deviceId: work.deviceId, topic: work.message.topic });
    else if ('acked' in outcome) counters.acks += 1;
    else counters.events += 1;
    settle(work.message);
    if ('patch' in outcome) publish(outcome.patch);
  };

  return (work) =>
    work.kind === 'batch'
      ? writeBatch(work.entries).then((result) => () => finishBatch(work, result))
      : work.run().then((outcome) => () => finishStep(work, outcome));
};
