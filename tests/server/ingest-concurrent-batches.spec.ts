import { describe, expect, it } from 'vitest';
import type { BatchEntry } from '../../server/telemetry/batch';
import { createBatchWriter } from '../../server/telemetry/batch';
import { deviceRow, T0 } from './fleet';
import { readingAt } from './readings';
import { STORE_KINDS, useStore } from './stores';

/**
 * Several server instances share one PostgreSQL (docs/scaling.md), and a shared subscription hands one
 * chamber's messages to any of them: two instances' batches then touch the same devices' rows at the same
 * time. Each batch locks its devices in Id order, so no two batches wait on each other in a cycle.
 */
describe.each(STORE_KINDS)('batches written at once over the same devices (%s)', (kind) => {
  const store = useStore(kind);
  const DEVICES = Array.from({ length: 40 }, (_, index) => `OC-LOCK-${String(index).padStart(2, '0')}`);
  const ROUNDS = 15;

  const batch = (devices: readonly string[], round: number, offset: number): BatchEntry[] =>
    devices.map((deviceId) => {
      const reading = readingAt(T0, round * 2 + offset);
      return { kind: 'telemetry', deviceId, receivedAt: reading.Time, reading, message: { topic: '', payload: Buffer.alloc(0), qos: 1, settle: () => undefined } };
    });

  it('stores every reading of both writers, each once, and leaves every device on its newest reading', async () => {
    const ctx = store.context();
    await ctx.db.insertInto('devices').values(DEVICES.map((id) => deviceRow(id, id, 1, 'Hall', 'Work'))).execute();
    const touch = { touch: () => undefined };
    const first = createBatchWriter(ctx.db, ctx.kind, touch);
    const second = createBatchWriter(ctx.db, ctx.kind, touch);
    // The two writers take the devices in opposite orders, as two instances' batches would hold them.
    const reversed = [...DEVICES].reverse();
    const results = await Promise.all(
      Array.from({ length: ROUNDS }, (_, round) => [first(batch(DEVICES, round, 0)), second(batch(reversed, round, 1))]).flat(),
    );

    expect(results.reduce((sum, result) => sum + result.stored, 0)).toBe(DEVICES.length * ROUNDS * 2);
    const rows = await ctx.db.selectFrom('state_records').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(Number(rows.count)).toBe(DEVICES.length * ROUNDS * 2);
    const newest = readingAt(T0, (ROUNDS - 1) * 2 + 1).Time;
    const devices = await ctx.db.selectFrom('devices').select(['id', 'latest', 'online', 'last_seen_at']).where('id', 'in', DEVICES).execute();
    for (const device of devices) {
      expect(device.online).toBe(1);
      expect(Number(device.last_seen_at)).toBe(newest);
      expect(JSON.parse(device.latest ?? '{}')).toMatchObject({ Id: device.id, Time: newest });
    }
  });
});
