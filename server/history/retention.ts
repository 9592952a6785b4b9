import fp from 'fastify-plugin';
import type { AppContext } from '../context';
import { sweepEvery } from '../sweep';
import { ROLLUP_WIDTHS } from '../telemetry/rollups';
import { DAY_MS } from '../../src/domain/time';

/**
 * Retention (docs/monitoring.md, "Retention"): raw readings older than RAW_RETENTION_DAYS and rollups
 * older than ROLLUP_RETENTION_DAYS are deleted. Raw rows go oldest first by the time index, at most
 * RETENTION_CHUNK_ROWS a statement, so a sweep never holds the store's write lock long (ingestion's
 * batches wait behind it on SQLite); rollups per device and width by their primary key (a device's
 * day is 1,464 of them).
 */

/** Rows deleted per statement. */
const RETENTION_CHUNK_ROWS = 5000;
/** A retention of days needs no finer sweep; ten minutes keeps each sweep's share small. */
const RETENTION_SWEEP_INTERVAL_MS = 600_000;
/** The first sweep after a start: a process restarted more often than the interval still sweeps. */
const RETENTION_FIRST_SWEEP_MS = 30_000;

export interface RetentionSwept {
  readings: number;
  rollups: number;
}

export const sweepRetention = async (ctx: Pick<AppContext, 'db' | 'config'>, now: number): Promise<RetentionSwept> => {
  const { db, config } = ctx;
  const rawBefore = now - config.rawRetentionDays * DAY_MS;
  let readings = 0;
  for (;;) {
    const oldest = db.selectFrom('state_records').select('state_records.id').where('state_records.time', '<', rawBefore).limit(RETENTION_CHUNK_ROWS);
    const result = await db.deleteFrom('state_records').where('id', 'in', oldest).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    readings += deleted;
    if (deleted < RETENTION_CHUNK_ROWS) break;
  }
  const rollupBefore = now - config.rollupRetentionDays * DAY_MS;
  let rollups = 0;
  const devices = await db.selectFrom('devices').select('id').execute();
  for (const { id } of devices) {
    for (const width of ROLLUP_WIDTHS) {
      const result = await db
        .deleteFrom('reading_rollups')
        .where('device_id', '=', id)
        .where('bucket_ms', '=', width)
        // A bucket goes once all of it is past (it ends at or before the limit).
        .where('start', '<=', rollupBefore - width)
        .executeTakeFirst();
      rollups += Number(result.numDeletedRows);
    }
  }
  return { readings, rollups };
};

export interface RetentionSweeperOptions {
  /** How often, in ms (default RETENTION_SWEEP_INTERVAL_MS). */
  intervalMs?: number;
}

/** Runs `sweepRetention` at the app's clock every `intervalMs` (server/sweep.ts), through the services' context. */
export const retentionSweeperPlugin = fp<RetentionSweeperOptions>(
  async (app, options) => {
    sweepEvery(
      app,
      'retentionSweeperPlugin',
      options.intervalMs ?? RETENTION_SWEEP_INTERVAL_MS,
      async () => {
        const swept = await sweepRetention(app.ctx, app.ctx.now());
        if (swept.readings + swept.rollups > 0) app.log.info(swept, 'readings and rollups past their retention deleted');
      },
      'deleting readings past their retention failed',
      Math.min(options.intervalMs ?? RETENTION_FIRST_SWEEP_MS, RETENTION_FIRST_SWEEP_MS),
    );
  },
  { name: 'oxygen-retention-sweeper', fastify: '5.x', dependencies: ['oxygen-context'] },
);
