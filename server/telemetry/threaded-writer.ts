import type { Worker } from 'node:worker_threads';
import type { RejectReason } from '../../src/domain/mqtt/parse';
import type { Config } from '../config';
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from '../db/checkpointer';
import { startTsWorker } from '../db/ts-worker';
import type { InboundMessage } from '../mqtt/transport';
import type { BatchResult } from './batch';

/**
 * Batches written by a thread of their own (docs/ingest.md, "The writer thread"): on SQLite, the
 * parsing and the transaction of every telemetry and status message leave the event loop that runs the
 * broker's sockets, so the two cores share the work (docs/performance.md: the acknowledgement's
 * median at 10,000 messages/s from 90–105 ms to 33–46 ms). The main thread sends each batch's raw messages, unparsed, in one transferred
 * buffer; the thread parses them with the shared contract, writes them with the same batch writer on
 * its own connection, and answers once the transaction has committed. A thread that fails or exits
 * fails the batches it held, which ingestion retries (a new thread is started): nothing is acknowledged
 * before its commit.
 */

/** A telemetry or status message as published, parsed by the thread. */
export interface RawEntry {
  kind: 'raw';
  deviceId: string;
  message: InboundMessage;
  receivedAt: number;
}

/** What the thread gets: each message's topic and where its payload ends in `payloads`. */
export interface ThreadJob {
  id: number;
  /** The job still unanswered when this one was sent: if it fails, this one is refused unwritten (writer-thread.ts). */
  after?: number;
  messages: { topic: string; deviceId: string; receivedAt: number; end: number }[];
  payloads: ArrayBuffer;
}

export interface ThreadDrop {
  /** The message's index in the job. */
  index: number;
  reason: RejectReason;
  detail?: string;
}

export type ThreadAnswer =
  | { id: number; ok: true; unknown: string[]; stored: number; duplicates: number; statuses: number; patches: string; readings: string; drops: ThreadDrop[] }
  | { id: number; ok: false; error: string };

/** Unasked: a flush or repair of the thread's rollups (rollups.ts) failed. */
export interface ThreadNotice {
  rollupError: 'flush' | 'repair';
  error: string;
}

export interface ThreadedResult extends BatchResult {
  /** The entries the thread refused at parsing, with why. */
  dropped: Map<RawEntry, Omit<ThreadDrop, 'index'>>;
}

export interface ThreadedBatchWriterOptions {
  /** On SQLite, the WAL's checkpoints are a thread's of their own (server/db/checkpointer.ts), started and stopped with the writer's. */
  checkpoints?: CheckpointerOptions;
  /** The thread's rollups failed to flush or repair (flushed again at its next flush). */
  onRollupError?: (error: Error, what: ThreadNotice['rollupError']) => void;
}

export interface ThreadedBatchWriter {
  write: (entries: readonly RawEntry[]) => Promise<ThreadedResult>;
  /** Stops the threads (their connections closed); call once nothing is being written. */
  close: () => Promise<void>;
}

/** The raw messages of a batch, their payloads copied into one buffer the thread takes over. */
const jobOf = (id: number, after: number | undefined, entries: readonly RawEntry[]): ThreadJob => {
  const payloads = new ArrayBuffer(entries.reduce((total, entry) => total + entry.message.payload.byteLength, 0));
  const bytes = new Uint8Array(payloads);
  let end = 0;
  const messages = entries.map(({ deviceId, message, receivedAt }) => {
    bytes.set(message.payload, end);
    end += message.payload.byteLength;
    return { topic: message.topic, deviceId, receivedAt, end };
  });
  return { id, ...(after === undefined ? {} : { after }), messages, payloads };
};

/**
 * Starts the thread at once (its memory is the server's from the start, not the first devices'), and
 * again for a write after it failed or was closed.
 */
export const createThreadedBatchWriter = (
  config: Pick<Config, 'database' | 'sqliteSynchronous' | 'rollupFlushMs'>,
  options: ThreadedBatchWriterOptions = {},
): ThreadedBatchWriter => {
  let jobs = 0;
  let checkpointer: Checkpointer | undefined;
  const waiting = new Map<number, { entries: readonly RawEntry[]; resolve: (result: ThreadedResult) => void; reject: (error: Error) => void }>();

  const failAll = (failed: Worker, error: Error): void => {
    if (thread === failed) thread = undefined;
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  };

  const answered = (answer: ThreadAnswer | ThreadNotice): void => {
    if ('rollupError' in answer) return options.onRollupError?.(new Error(answer.error), answer.rollupError);
    const job = waiting.get(answer.id);
    if (job === undefined) return;
    waiting.delete(answer.id);
    if (!answer.ok) return job.reject(new Error(answer.error));
    const dropped = new Map<RawEntry, Omit<ThreadDrop, 'index'>>();
    for (const { index, ...why } of answer.drops) {
      const entry = job.entries[index];
      if (entry !== undefined) dropped.set(entry, why);
    }
    const { unknown, stored, duplicates, statuses } = answer;
    job.resolve({
      unknown: new Set(unknown),
      stored,
      duplicates,
      statuses,
      patches: JSON.parse(answer.patches) as BatchResult['patches'],
      readings: JSON.parse(answer.readings) as BatchResult['readings'],
      dropped,
    });
  };

  function start(): Worker {
    const { database } = config;
    if (database.kind === 'sqlite') checkpointer ??= startCheckpointer(database.file, config.sqliteSynchronous, options.checkpoints);
    // Ingestion's own close stops it.
    const started = startTsWorker(new URL('./writer-thread.ts', import.meta.url), {
      database: config.database,
      sqliteSynchronous: config.sqliteSynchronous,
      rollupFlushMs: config.rollupFlushMs,
    });
    started.on('message', answered);
    started.on('error', (error) => failAll(started, error));
    started.on('exit', (code) => failAll(started, new Error(`the batch writer's thread exited (${code})`)));
    return started;
  }
  let thread: Worker | undefined = start();

  return {
    write: (entries) =>
      new Promise((resolve, reject) => {
        const previous = waiting.has(jobs) ? jobs : undefined;
        jobs += 1;
        const job = jobOf(jobs, previous, entries);
        thread ??= start();
        waiting.set(job.id, { entries, resolve, reject });
        thread.postMessage(job, [job.payloads]);
      }),
    close: async () => {
      const running = thread;
      const checkpoints = checkpointer;
      thread = undefined;
      checkpointer = undefined;
      await checkpoints?.stop();
      if (running === undefined) return;
      running.postMessage('close');
      await new Promise((resolve) => running.once('exit', resolve));
    },
  };
};
