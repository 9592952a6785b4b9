import type { SqliteSynchronous } from '../config';
import { startTsWorker } from './ts-worker';

/**
 * Checkpoints a SQLite store's WAL from a thread and connection of its own (docs/ingest.md,
 * "Checkpoints"). A PASSIVE checkpoint copies the committed frames into the database file without
 * taking the write lock, so the writer thread keeps committing batches while the pages are copied and
 * fsynced, instead of stopping for them after a commit (about 250 ms every 2–3 s at 8,000 readings/s,
 * docs/performance.md). A WAL restarts only when a transaction begins with every frame copied,
 * which under a steady load a PASSIVE pass never leaves (frames are committed while it copies), so once
 * the log is long a RESTART pass follows: it holds the writers off only while it copies what was
 * committed during the first pass. The connections' own autocheckpoint (SQLITE_WAL_CHECKPOINT_FRAMES)
 * stays as the backstop, should this thread fail.
 */

/** How often the thread checkpoints: at 10,000 readings/s, about 14,000 frames, whose pages (each device's newest) are copied once a second. */
const SQLITE_CHECKPOINT_INTERVAL_MS = 1000;
/** WAL frames from which a checkpoint also restarts the WAL (about 40 MB at 4 KiB pages). */
const SQLITE_CHECKPOINT_RESTART_FRAMES = 10_000;
/**
 * How long a restart waits, holding the writers off, for the writer's transaction to end and for the
 * readers of the log to finish (a list being streamed reads for as long as it takes). Longer than a batch's
 * transaction; past it the restart gives up until the next checkpoint, instead of holding the writer for the
 * connections' busy_timeout of 5 s, which would fail its transaction.
 */
const SQLITE_CHECKPOINT_RESTART_WAIT_MS = 100;

/** What one checkpoint did: SQLite's answer to its last pass, whether it restarted the WAL, and its time. */
export interface CheckpointReport {
  /** Frames in the WAL. */
  log: number;
  /** Of them, copied into the database file: all when equal to `log`. */
  checkpointed: number;
  /** 1 when a reader, a writer or another checkpoint kept the last pass from copying every frame. */
  busy: number;
  /** The WAL will start from its beginning at the next transaction. */
  restarted: boolean;
  ms: number;
}

export interface CheckpointerData {
  file: string;
  synchronous: SqliteSynchronous;
  intervalMs: number;
  restartFrames: number;
  restartWaitMs: number;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  restartFrames?: number;
  /** Every checkpoint's report (tests, measurements). */
  onReport?: (report: CheckpointReport) => void;
  /** The thread failed: checkpoints fall back to the connections' own autocheckpoint. */
  onError?: (error: Error) => void;
}

export interface Checkpointer {
  /** Ends the thread after the checkpoint under way, its connection closed. */
  stop: () => Promise<void>;
}

export const startCheckpointer = (file: string, synchronous: SqliteSynchronous, options: CheckpointerOptions = {}): Checkpointer => {
  const data: CheckpointerData = {
    file,
    synchronous,
    intervalMs: options.intervalMs ?? SQLITE_CHECKPOINT_INTERVAL_MS,
    restartFrames: options.restartFrames ?? SQLITE_CHECKPOINT_RESTART_FRAMES,
    restartWaitMs: SQLITE_CHECKPOINT_RESTART_WAIT_MS,
  };
  const thread = startTsWorker(new URL('./checkpoint-thread.ts', import.meta.url), data);
  let running = true;
  thread.on('message', (report: CheckpointReport) => options.onReport?.(report));
  // A thread that throws also exits: its failure is reported once. What it threw arrives cloned: a
  // SQLite error as a plain object of its own fields ({ code }), without its class or message.
  thread.on('error', (error: unknown) => {
    if (running) options.onError?.(error instanceof Error ? error : new Error(`the checkpoint thread failed: ${JSON.stringify(error)}`));
    running = false;
  });
  const exited = new Promise<void>((resolve) =>
    thread.once('exit', (code) => {
      if (running) options.onError?.(new Error(`the checkpoint thread exited (${code})`));
      running = false;
      resolve();
    }),
  );
  return {
    stop: () => {
      if (running) thread.postMessage('stop');
      running = false;
      return exited;
    },
  };
};
