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
 * day is 1,464 of them). It looks before it deletes, and yields to the event loop between statements:
 * on SQLite every delete waits for the write lock, synchronously, on the thread that runs the broker's
 * sockets, so a delete per device that finds nothing (one per device and width, every sweep) stalled
 * every acknowledgement behind it (docs/performance.md, "The ingest path").
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

/** Between statements: what waits on the event loop (the broker's sockets, acknowledgements) goes first. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export const sweepRetention = async (ctx: Pick<AppContext, 'db' | 'config'>, now: number): Promise<RetentionSwept> => {
  const { db, config } = ctx;
  const rawBefore = now - config.rawRetentionDays * DAY_MS;
  let readings = 0;
  for (;;) {
    const past = db.selectFrom('state_records').select('state_records.id').where('state_records.time', '<', rawBefore);
    // A read takes no write lock: the delete runs only when there is something to delete.
    if ((await past.limit(1).executeTakeFirst()) === undefined) break;
    const result = await db.deleteFrom('state_records').where('id', 'in', past.limit(RETENTION_CHUNK_ROWS)).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    readings += deleted;
    await yieldToLoop();
    if (deleted < RETENTION_CHUNK_ROWS) break;
  }
  const rollupBefore = now - config.rollupRetentionDays * DAY_MS;
  let rollups = 0;
  for (const width of ROLLUP_WIDTHS) {
    // A bucket goes once all of it is past (it ends at or before the limit).
    const end = rollupBefore - width;
    // One read over every device's key range finds those with buckets to delete (most sweeps: none).
    const devices = await db
      .selectFrom('devices')
      .select('id')
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('reading_rollups')
            .select('reading_rollups.device_id')
            .whereRef('reading_rollups.device_id', '=', 'devices.id')
            .where('reading_rollups.bucket_ms', '=', width)
            .where('reading_rollups.start', '<=', end),
        ),
      )
      .execute();
    for (const { id } of devices) {
      const result = await db.deleteFrom('reading_rollups').where('device_id', '=', id).where('bucket_ms', '=', width).where('start', '<=', end).executeTakeFirst();
      rollups += Number(result.numDeletedRows);
      await yieldToLoop();
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
