import { sql } from 'kysely';
import { describe, expect, it, beforeAll, vi } from 'vitest';
import { seedFleet, T0 } from '../../tests/server/fleet';
import { MINUTE, useStore } from '../../tests/server/stores';
import type { CheckpointReport } from '../db/checkpointer';
import type { InboundMessage } from '../mqtt/transport';
import { createThreadedBatchWriter, type RawEntry } from './threaded-writer';

const AT = T0 + 30 * MINUTE;

/** Raw entries whose payloads are views into one shared buffer, as a socket's reads hand them over. */
const entriesOf = (messages: readonly (readonly [string, string, string | Uint8Array])[]): RawEntry[] => {
  const parts = messages.map(([, , payload]) => (typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload)));
  const shared = Buffer.concat([Buffer.from('unrelated bytes before'), ...parts, Buffer.from('and after')]);
  let offset = 'unrelated bytes before'.length;
  return messages.map(([deviceId, kind], index) => {
    const length = parts[index]?.byteLength ?? 0;
    const message: InboundMessage = { topic: `oc/${deviceId}/${kind}`, payload: shared.subarray(offset, offset + length), qos: 1, settle: () => undefined };
    offset += length;
    return { kind: 'raw', deviceId, message, receivedAt: AT + MINUTE };
  });
};

describe('the writer thread: raw telemetry and status parsed and written off the event loop (SQLite)', () => {
  const store = useStore('sqlite');
  beforeAll(async () => {
    await seedFleet(store.context());
  });

  it('stores what parses, answers why the rest was refused, and keeps each entry its own', async () => {
    const writer = createThreadedBatchWriter(store.config());
    try {
      const entries = entriesOf([
        ['OC-A1', 'telemetry', JSON.stringify({ Time: AT, RCP: 1.5 })],
        ['OC-A1', 'telemetry', '{"Time":'],
        ['OC-C2', 'telemetry', new Uint8Array([0x7b, 0xff, 0x7d])],
        ['OC-C2', 'telemetry', JSON.stringify({ Time: AT + 1000, RCP: 2 })],
        ['OC-C2', 'status', 'offline'],
        ['OC-Z9', 'telemetry', JSON.stringify({ Time: AT, RCP: 1 })],
      ]);
      const result = await writer.write(entries);
      expect(result).toMatchObject({ stored: 2, statuses: 1, unknown: new Set(['OC-Z9']) });
      expect([...result.dropped].map(([entry, why]) => [entries.indexOf(entry), why.reason])).toEqual([
        [1, 'json'],
        [2, 'encoding'],
      ]);
      expect(result.patches.map((patch) => [patch.Id, patch.Online])).toEqual([
        ['OC-A1', true],
        ['OC-C2', false],
      ]);
      const rows = await store.database.db.selectFrom('state_records').select(['device_id', 'time', 'rcp']).where('time', '>=', AT).orderBy('time').execute();
      expect(rows).toEqual([
        { device_id: 'OC-A1', time: AT, rcp: 1.5 },
        { device_id: 'OC-C2', time: AT + 1000, rcp: 2 },
      ]);
      // What the alarm engine evaluates: the readings stored, with their device; none when sent again.
      expect(result.readings).toEqual([
        { Id: 'OC-A1', Time: AT, RCP: 1.5 },
        { Id: 'OC-C2', Time: AT + 1000, RCP: 2 },
      ]);
      expect(await writer.write(entriesOf([['OC-A1', 'telemetry', JSON.stringify({ Time: AT, RCP: 1.5 })]]))).toMatchObject({ stored: 0, duplicates: 1, readings: [] });
    } finally {
      await writer.close();
    }
  });

  it('checkpoints the store from a thread of its own while it writes, until it is closed', async () => {
    const reports: CheckpointReport[] = [];
    const writer = createThreadedBatchWriter(store.config(), { checkpoints: { intervalMs: 10, onReport: (report) => reports.push(report) } });
    await writer.write(entriesOf([['OC-A1', 'telemetry', JSON.stringify({ Time: AT + 1500 })]]));
    await vi.waitFor(() => expect(reports.some((report) => report.log > 0 && report.checkpointed === report.log)).toBe(true), { timeout: 10_000 });
    await writer.close();
    const seen = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reports.length).toBe(seen);
  });

  it('has the rollups of what it stored written by the time it is closed, its flush interval not yet over', async () => {
    const writer = createThreadedBatchWriter(store.config());
    await writer.write(entriesOf([0, 1, 2].map((i) => ['OC-B1', 'telemetry', JSON.stringify({ Time: AT + 20_000 + i * 1000, RCP: 1 + i })] as const)));
    const minute = () =>
      store.database.db
        .selectFrom('reading_rollups')
        .select(['rcp_min', 'rcp_max', 'rcp_sum', 'rcp_n'])
        .where('device_id', '=', 'OC-B1')
        .where('bucket_ms', '=', MINUTE)
        .where('start', '=', AT)
        .execute();
    await writer.close();
    expect(await minute()).toEqual([{ rcp_min: 1, rcp_max: 3, rcp_sum: 6, rcp_n: 3 }]);
  });

  it('refuses unwritten a batch sent behind one that fails, and writes it when it is sent again behind the retry', async () => {
    const { db } = store.database;
    // One reading the store refuses: the batch holding it fails, as a store error would.
    await sql`create trigger writer_spec_fail before insert on state_records when new.rcp = 1.75 begin select raise(abort, 'injected failure'); end`.execute(db);
    const writer = createThreadedBatchWriter(store.config());
    try {
      const failing = entriesOf([['OC-A2', 'telemetry', JSON.stringify({ Time: AT + 60_000, RCP: 1.75 })]]);
      const behind = entriesOf([
        ['OC-A2', 'telemetry', JSON.stringify({ Time: AT + 61_000, RCP: 1 })],
        ['OC-A2', 'status', 'offline'],
      ]);
      // Sent together: the second is with the thread before the first has failed.
      const answers = await Promise.allSettled([writer.write(failing), writer.write(behind)]);
      expect(answers.map((answer) => (answer.status === 'rejected' ? String(answer.reason) : 'written'))).toEqual([
        expect.stringContaining('injected failure'),
        expect.stringContaining('the batch before it failed'),
      ]);
      const stored = () => db.selectFrom('state_records').select('time').where('device_id', '=', 'OC-A2').where('time', '>=', AT + 60_000).execute();
      expect(await stored()).toEqual([]);
      // The failed one again (healed), and the one behind it after: both written, in their order.
      await sql`drop trigger writer_spec_fail`.execute(db);
      const [retried, again] = await Promise.all([writer.write(failing), writer.write(behind)]);
      expect([retried.stored, again.stored, again.statuses]).toEqual([1, 1, 1]);
      expect((await stored()).map((row) => row.time)).toEqual([AT + 60_000, AT + 61_000]);
      expect(await db.selectFrom('devices').select('online').where('id', '=', 'OC-A2').executeTakeFirstOrThrow()).toEqual({ online: 0 });
    } finally {
      await sql`drop trigger if exists writer_spec_fail`.execute(db);
      await writer.close();
    }
  });

  it('starts a thread again for a write after close', async () => {
    const writer = createThreadedBatchWriter(store.config());
    await writer.write(entriesOf([['OC-A1', 'telemetry', JSON.stringify({ Time: AT + 2000 })]]));
    await writer.close();
    const again = await writer.write(entriesOf([['OC-A1', 'telemetry', JSON.stringify({ Time: AT + 3000 })]]));
    await writer.close();
    expect(again.stored).toBe(1);
  });
});
