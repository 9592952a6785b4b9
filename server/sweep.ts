import type { FastifyInstance } from 'fastify';

/**
 * Runs `sweep` every `intervalMs` from the moment the app is ready (the first one interval after, once
 * main.ts has migrated the store). The timer is unref'd (it never keeps the process alive), sweeps
 * never overlap (the next is scheduled when one ends), a failed sweep is logged as `failure` and the
 * next one tried, and closing the app stops the timer and waits for a sweep under way (preClose runs
 * before every onClose hook, the database's included). Used by the order, command and retention sweepers.
 * `firstAfterMs` brings the first sweep forward, for a sweeper whose interval is longer than a process
 * may live (restarts, deployments).
 */
export const sweepEvery = (
  app: FastifyInstance,
  plugin: string,
  intervalMs: number,
  sweep: () => Promise<void>,
  failure: string,
  firstAfterMs = intervalMs,
): void => {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new Error(`${plugin}: intervalMs must be a positive number of milliseconds (got ${String(intervalMs)})`);
  }
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const guarded = async (): Promise<void> => {
    try {
      await sweep();
    } catch (error) {
      app.log.error({ err: error }, failure);
    }
  };
  const schedule = (afterMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = guarded().finally(() => {
        running = undefined;
        schedule(intervalMs);
      });
    }, afterMs);
    timer.unref();
  };

  app.addHook('onReady', async () => {
    schedule(firstAfterMs);
  });
  app.addHook('preClose', async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  });
};
