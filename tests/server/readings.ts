import type { Telemetry } from '../../src/domain/mqtt/payloads';
import type { AppContext } from '../../server/context';
import type { InboundMessage } from '../../server/mqtt/transport';
import { createBatchWriter, type BatchResult } from '../../server/telemetry/batch';
import { createRollupFlusher, type RollupTouches } from '../../server/telemetry/rollups';

/**
 * Readings written as ingestion writes them (server/telemetry/batch.ts, the writer of both the thread and
 * the process), without a broker: for the rollup, history and retention tests.
 */

const unsettled: InboundMessage = { topic: '', payload: Buffer.alloc(0), qos: 1, settle: () => undefined };

/** The i-th reading of a chamber reporting once a second from `start`: values that vary within each minute. */
export const readingAt = (start: number, i: number): Telemetry => ({
  Time: start + i * 1000,
  RCP: Math.round((1 + (i % 37) / 100) * 1000) / 1000,
  SP: 1.5,
  RCT: 20 + (i % 11),
  // Every seventh reading has no oxygen value and no blood pressure.
  ...(i % 7 === 0 ? {} : { RCPi02: 21 + (i % 5), HmBP: `${110 + (i % 13)}/${70 + (i % 9)}` }),
});

/**
 * Writes `readings` of `deviceId` in batches of `batchSize`, as the batch writer does; answers each batch's
 * result. Their rollups are flushed at the end, unless `rollups` is given: then they are its to flush.
 */
export const writeReadings = async (
  ctx: Pick<AppContext, 'db' | 'kind'>,
  deviceId: string,
  readings: readonly Telemetry[],
  batchSize = 500,
  rollups?: RollupTouches,
): Promise<BatchResult[]> => {
  const flusher = createRollupFlusher(ctx.db, ctx.kind);
  const write = createBatchWriter(ctx.db, ctx.kind, rollups ?? flusher);
  const results: BatchResult[] = [];
  for (let offset = 0; offset < readings.length; offset += batchSize) {
    const batch = readings.slice(offset, offset + batchSize);
    results.push(await write(batch.map((reading) => ({ kind: 'telemetry', deviceId, message: unsettled, receivedAt: reading.Time, reading }))));
  }
  if (rollups === undefined) await flusher.flush();
  return results;
};

/** `count` readings once a second from `start`. */
export const everySecond = (start: number, count: number, first = 0): Telemetry[] => Array.from({ length: count }, (_, i) => readingAt(start, first + i));
