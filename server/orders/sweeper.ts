import fp from 'fastify-plugin';
import { sweepEvery } from '../sweep';
import { expireOverdue } from './expiry';

export interface OrderSweeperOptions {
  /** How often overdue bookings are expired, in ms (default ORDER_SWEEP_INTERVAL_MS). */
  intervalMs?: number;
}

/** A booking's window is counted in minutes; checking every half minute expires it at most 30 s late. */
export const ORDER_SWEEP_INTERVAL_MS = 30_000;

/**
 * Expires overdue bookings (`expireOverdue` at the app's clock) every `intervalMs` (server/sweep.ts),
 * through the services' context (it depends on the context plugin).
 */
export const orderSweeperPlugin = fp<OrderSweeperOptions>(
  async (app, options) => {
    sweepEvery(
      app,
      'orderSweeperPlugin',
      options.intervalMs ?? ORDER_SWEEP_INTERVAL_MS,
      async () => {
        const { count, orderNums } = await expireOverdue(app.ctx, app.ctx.now());
        if (count > 0) app.log.info({ count, orderNums: orderNums.slice(0, 100) }, 'bookings expired');
      },
      'expiring overdue bookings failed',
    );
  },
  { name: 'oxygen-order-sweeper', fastify: '5.x', dependencies: ['oxygen-context'] },
);
