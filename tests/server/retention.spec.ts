import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../server/db/database';
import { sweepRetention } from '../../server/history/retention';
import { HOUR_MS, MINUTE_MS } from '../../src/domain/time';
import { seedFleet, T0 } from './fleet';
import { everySecond, writeReadings } from './readings';
import { HOUR, STORE_KINDS, useStore } from './stores';

/** Retention (docs/monitoring.md, "Retention") on both stores: what the sweeper deletes and what it keeps. */

const START = T0 + 2 * HOUR;
const DAY = 24 * HOUR;

describe.each(STORE_KINDS)('retention (%s)', (kind) => {
  const store = useStore(kind);

  beforeEach(async () => {
    await store.wipe();
    const ctx = store.context();
    await seedFleet(ctx);
    // Two hours once a second, after the fleet's own five readings a device.
    await writeReadings(ctx, 'OC-A1', everySecond(START, 7200));
  });

  const readingTimes = async () => (await store.database.db.selectFrom('state_records').select('time').orderBy('time').execute()).map((row) => row.time);
  const rollupStarts = async (width: number) =>
    (await store.database.db.selectFrom('reading_rollups').select('start').where('bucket_ms', '=', width).orderBy('start').execute()).map((row) => row.start);

  it('deletes raw readings older than RAW_RETENTION_DAYS, in chunks, and keeps the younger ones and every rollup', async () => {
    const ctx = store.context();
    const limit = START + 6000 * 1000;
    expect(await sweepRetention(ctx, limit + 30 * DAY)).toEqual({ readings: 6000 + 30, rollups: 0 });
    expect(await readingTimes()).toEqual(everySecond(START, 1200, 6000).map((reading) => reading.Time));
    expect(await rollupStarts(MINUTE_MS)).toHaveLength(120);
    expect(await rollupStarts(HOUR_MS)).toEqual([START, START + HOUR]);
    // Nothing more to do: a second sweep deletes nothing.
    expect(await sweepRetention(ctx, limit + 30 * DAY)).toEqual({ readings: 0, rollups: 0 });
  });

  it('deletes rollups once all of their bucket is older than ROLLUP_RETENTION_DAYS', async () => {
    const ctx = store.context({ RAW_RETENTION_DAYS: '1', ROLLUP_RETENTION_DAYS: '2' });
    const limit = START + 90 * MINUTE_MS;
    const swept = await sweepRetention(ctx, limit + 2 * DAY);
    // Raw rows are a day old at most: all gone. Minutes before the limit gone; the hour that ends after it kept.
    expect(swept).toEqual({ readings: 7200 + 30, rollups: 90 + 1 });
    expect(await readingTimes()).toEqual([]);
    expect(await rollupStarts(MINUTE_MS)).toEqual(Array.from({ length: 30 }, (_, i) => limit + i * MINUTE_MS));
    expect(await rollupStarts(HOUR_MS)).toEqual([START + HOUR]);
    // The readings' day ends after the limit: kept until its end is two days past.
    const day = START - (START % DAY);
    expect(await rollupStarts(DAY)).toEqual([day]);
    expect(await sweepRetention(ctx, day + DAY + 2 * DAY - 1)).toEqual({ readings: 0, rollups: 30 + 1 });
    expect(await sweepRetention(ctx, day + DAY + 2 * DAY)).toEqual({ readings: 0, rollups: 1 });
    expect(await rollupStarts(DAY)).toEqual([]);
  });
  it('writes nothing when nothing is past its retention: it sweeps while another connection holds the write lock', async () => {
    const ctx = store.context();
    // Ingestion's writer holds the lock most of the time on a busy SQLite store: a delete would wait for it.
    const other = createDatabase(store.config());
    try {
      const swept = await other.db.transaction().execute(async (trx) => {
        if (kind === 'postgres') await sql`lock table state_records, reading_rollups in exclusive mode`.execute(trx);
        else await trx.updateTable('devices').set({ online: 0 }).where('id', '=', 'OC-A1').execute();
        return sweepRetention(ctx, START);
      });
      expect(swept).toEqual({ readings: 0, rollups: 0 });
    } finally {
      await other.db.destroy();
    }
    expect(await readingTimes()).toHaveLength(7200 + 30);
  });
});
