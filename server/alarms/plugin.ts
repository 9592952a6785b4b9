import fp from 'fastify-plugin';
import { LOG_BURST, LOG_WINDOW_MS, rateLimitedLog } from '../telemetry/log';
import { ALARM_SWEEP_INTERVAL_MS, createAlarmEngine, type AlarmEngine } from './engine';

declare module 'fastify' {
  interface FastifyInstance {
    /** The safety alarm engine; present in the process that runs ingestion (server/telemetry/plugin.ts feeds it). */
    alarms: AlarmEngine;
  }
}

export interface AlarmsPluginOptions {
  /** How often the engine sweeps (shelves, suppression, edited rules); 0: only when called (tests). Default ALARM_SWEEP_INTERVAL_MS. */
  intervalMs?: number;
  /** Log lines per kind per window (server/telemetry/log.ts). */
  logBurst?: number;
  logWindowMs?: number;
}

/**
 * Decorates `alarms`: the safety alarm engine (docs/alarms.md), fed by ingestion after each commit.
 * It closes after ingestion (which depends on it), so what ingestion's last batches raise is evaluated.
 */
export const alarmsPlugin = fp<AlarmsPluginOptions>(
  async (app, options) => {
    const { ctx } = app;
    const log = rateLimitedLog(app.log.child({ component: 'mqtt' }), {
      burst: options.logBurst ?? LOG_BURST,
      windowMs: options.logWindowMs ?? LOG_WINDOW_MS,
      now: ctx.now,
    });
    const alarms = createAlarmEngine({ ctx, log, intervalMs: options.intervalMs ?? ALARM_SWEEP_INTERVAL_MS });
    app.decorate('alarms', alarms);
    app.addHook('onClose', () => alarms.close());
  },
  { name: 'oxygen-alarms', fastify: '5.x', dependencies: ['oxygen-context'], decorators: { fastify: ['ctx'] } },
);
