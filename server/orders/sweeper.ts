import { globalPlugin } from '../plugin';
import { expireOverdue } from './lifecycle';

export interface OrderSweeperOptions {
  /** How often overdue bookings are expired, in ms (default ORDER_SWEEP_INTERVAL_MS). */
  intervalMs?: number;
}

/** A booking's window is counted in minutes; checking every half minute expires it at most 30 s late. */
export const ORDER_SWEEP_INTERVAL_MS = 30_000;

/**
 * Expires overdue bookings (`expireOverdue` at the app's clock) every `intervalMs`, from the moment the
 * app is ready; the first sweep comes one interval after that, once main.ts has migrated the store. The
 * timer is unref'd (it never keeps the process alive), sweeps never overlap (the next is scheduled when
 * one ends), a failed sweep is logged and the next one tried, and closing the app stops the timer and
 * waits for a sweep under way (preClose), before the database closes. Register it after the database:
 *   void app.register(orderSweeperPlugin);
 */
export const orderSweeperPlugin = globalPlugin<OrderSweeperOptions>('oxygen-order-sweeper', async (app, options) => {
  const intervalMs = options.intervalMs ?? ORDER_SWEEP_INTERVAL_MS;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new Error(`orderSweeperPlugin: intervalMs must be a positive number of milliseconds (got ${String(intervalMs)})`);
  }
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const sweep = async (): Promise<void> => {
    try {
      const { count, orderNums } = await expireOverdue(app.ctx, app.ctx.now());
      if (count > 0) app.log.info({ count, orderNums: orderNums.slice(0, 100) }, 'bookings expired');
    } catch (error) {
      app.log.error({ err: error }, 'expiring overdue bookings failed');
    }
  };

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep().finally(() => {
        running = undefined;
        schedule();
      });
    }, intervalMs);
    timer.unref();
  };

  app.addHook('onReady', async () => {
    schedule();
  });
  // preClose runs before every onClose hook, the database's included: a sweep under way ends first.
  app.addHook('preClose', async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  });
});
