import { parentPort, workerData } from 'node:worker_threads';
import { parseMessage } from '../../src/domain/mqtt/parse';
import type { Config } from '../config';
import { createDatabase } from '../db/database';
import type { InboundMessage } from '../mqtt/transport';
import { createBatchWriter, type BatchEntry } from './batch';
import { createRollupFlusher } from './rollups';
import type { ThreadAnswer, ThreadDrop, ThreadJob, ThreadNotice } from './threaded-writer';

/**
 * The batch writer's thread (threaded-writer.ts starts it): parses each raw telemetry or status message
 * with the shared contract, exactly as ingestion does in process, and writes the batch with the same
 * writer (batch.ts) on its own connection to the store. Answers each job, in order, once its
 * transaction has committed (or with the error that stopped it: nothing of it was written).
 */

const config = workerData as Pick<Config, 'database' | 'sqliteSynchronous' | 'rollupFlushMs'>;
// Its statements are a batch's (bounded): their statement journals stay in memory (server/db/sqlite.ts).
const { db, kind } = createDatabase(config, { sqlite: { tempInMemory: true } });
// The rollups of what this thread stores are flushed on its own connection, between its batches.
const rollups = createRollupFlusher(db, kind, {
  intervalMs: config.rollupFlushMs,
  onError: (error, what) => parentPort?.postMessage({ rollupError: what, error: error instanceof Error ? error.message : String(error) } satisfies ThreadNotice),
});
const write = createBatchWriter(db, kind, rollups);
/** The thread never settles a message: the main thread does, after this answer. */
const unsettled: InboundMessage = { topic: '', payload: Buffer.alloc(0), qos: 1, settle: () => undefined };

const entriesOf = (job: ThreadJob): { entries: BatchEntry[]; drops: ThreadDrop[] } => {
  const bytes = new Uint8Array(job.payloads);
  const entries: BatchEntry[] = [];
  const drops: ThreadDrop[] = [];
  job.messages.forEach(({ topic, deviceId, receivedAt, end }, index) => {
    const start = index === 0 ? 0 : (job.messages[index - 1]?.end ?? 0);
    const parsed = parseMessage(topic, bytes.subarray(start, end), receivedAt);
    if (parsed.ok && parsed.kind === 'telemetry') entries.push({ kind: 'telemetry', deviceId, message: unsettled, receivedAt, reading: parsed.message });
    else if (parsed.ok && parsed.kind === 'status') entries.push({ kind: 'status', deviceId, message: unsettled, receivedAt, status: parsed.message });
    else {
      // Only telemetry and status topics are sent here, so a parsed message is always one of them.
      drops.push(parsed.ok ? { index, reason: 'topic' } : { index, reason: parsed.reason, detail: parsed.detail });
      entries.push({ kind: 'drop', deviceId, message: unsettled });
    }
  });
  return { entries, drops };
};

/** A job's batch written, answered once committed, or with the error that stopped it (nothing of it written). */
const writeJob = async (job: ThreadJob): Promise<ThreadAnswer> => {
  const { entries, drops } = entriesOf(job);
  try {
    const result = await write(entries);
    return {
      id: job.id,
      ok: true,
      unknown: [...result.unknown],
      stored: result.stored,
      duplicates: result.duplicates,
      statuses: result.statuses,
      patches: JSON.stringify(result.patches),
      readings: JSON.stringify(result.readings),
      drops,
    };
  } catch (error) {
    return { id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
};

/**
 * Jobs are written one after another, in the order received. The main thread may send a batch while the
 * one before is still being written (`after`); if that one fails, this one is refused unwritten, since
 * the main thread sends the failed one again first and this one after it: a device's messages stay in order.
 */
let written: Promise<void> = Promise.resolve();
/** The job before, in the order written, if it failed or was refused: one sent behind it is refused too. */
let failedBefore: number | undefined;

parentPort?.on('message', (job: ThreadJob | 'close') => {
  if (job === 'close') {
    void written
      .then(() => rollups.close())
      .catch((error: unknown) => parentPort?.postMessage({ rollupError: 'flush', error: error instanceof Error ? error.message : String(error) } satisfies ThreadNotice))
      .then(() => db.destroy())
      .finally(() => parentPort?.close());
    return;
  }
  written = written.then(async () => {
    const answer: ThreadAnswer =
      job.after !== undefined && job.after === failedBefore
        ? { id: job.id, ok: false, error: 'not written: the batch before it failed, and is written again first' }
        : await writeJob(job);
    failedBefore = answer.ok ? undefined : job.id;
    parentPort?.postMessage(answer);
  });
});
