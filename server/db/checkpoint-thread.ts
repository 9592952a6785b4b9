import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointerData, CheckpointReport } from './checkpointer';
import { openSqlite } from './sqlite';

/** The checkpoint thread (checkpointer.ts starts it): checkpoints on its own connection, on a timer. */

const { file, synchronous, intervalMs, restartFrames, restartWaitMs } = workerData as CheckpointerData;
const connection = openSqlite(file, synchronous);
// Only a restart waits (a PASSIVE pass never does), and not for long: SQLITE_CHECKPOINT_RESTART_WAIT_MS.
connection.pragma(`busy_timeout = ${restartWaitMs}`);

type Answer = Omit<CheckpointReport, 'restarted' | 'ms'>;

const pass = (mode: 'PASSIVE' | 'RESTART'): Answer | undefined => (connection.pragma(`wal_checkpoint(${mode})`) as Answer[])[0];

/**
 * The log a RESTART pass left all copied. Until a transaction starts the WAL again the log stays so, and
 * another RESTART would copy nothing while still holding the writers off (idle after a busy spell).
 */
let restartedLog = -1;

/**
 * A PASSIVE pass copies the frames committed so far while the writer goes on. Once the log is long, a
 * RESTART pass follows at once: it holds the writers off while it copies what they committed during the
 * first pass (little), so the next transaction starts the WAL from its beginning.
 */
const checkpoint = (): void => {
  const started = performance.now();
  const passive = pass('PASSIVE');
  const restart = passive !== undefined && passive.busy === 0 && passive.log >= restartFrames && passive.log !== restartedLog;
  const answer = restart ? pass('RESTART') : passive;
  if (restart && answer?.busy === 0) restartedLog = answer.log;
  if (answer !== undefined) parentPort?.postMessage({ ...answer, restarted: restart && answer.busy === 0, ms: performance.now() - started } satisfies CheckpointReport);
};

const timer = setInterval(checkpoint, intervalMs);

parentPort?.on('message', (message: 'stop') => {
  if (message !== 'stop') return;
  clearInterval(timer);
  connection.close();
  parentPort?.close();
});
