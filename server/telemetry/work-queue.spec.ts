import { describe, expect, it, vi } from 'vitest';
import type { InboundMessage } from '../mqtt/transport';
import { newCounters } from './counters';
import { createWorkQueue, type Work } from './work-queue';

/** An attempt held open until the test answers it, as a write in progress. */
interface Held {
  work: Work;
  commit: () => void;
  fail: (error: Error) => void;
}

const message: InboundMessage = { topic: 'oc/OC-A1/status', payload: Buffer.from('online'), qos: 1, settle: () => undefined };
const entry = (deviceId: string) => ({ kind: 'drop' as const, deviceId, message });
const sizeOf = (work: Work) => (work.kind === 'batch' ? work.entries.length : 0);

/** A queue whose every attempt waits for the test; `finished` lists the batches finished, by size, in order. */
const queueOf = (pipelined: boolean) => {
  const attempts: Held[] = [];
  const finished: number[] = [];
  const counters = newCounters();
  const queue = createWorkQueue({
    batchSize: 100,
    maxWaitMs: 5,
    retryFirstMs: 1,
    retryMaxMs: 1,
    counters,
    log: () => undefined,
    pipelined,
    attempt: (work) =>
      new Promise((resolve, reject) => {
        attempts.push({ work, commit: () => resolve(() => finished.push(sizeOf(work))), fail: reject });
      }),
  });
  return { queue, attempts, finished, counters };
};

/** Past the open batch's wait. */
const waitOut = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the work queue: batches to the writer', () => {
  it('pipelined, hands the next batch over while one is written, keeps a third filling, and finishes them in order', async () => {
    const { queue, attempts, finished } = queueOf(true);
    queue.addToBatch(entry('OC-A1'));
    await vi.waitFor(() => expect(attempts).toHaveLength(1));
    queue.addToBatch(entry('OC-A1'));
    queue.addToBatch(entry('OC-B1'));
    await waitOut();
    // The second went to the writer behind the first, which is still being written.
    expect(attempts.map(({ work }) => sizeOf(work))).toEqual([1, 2]);
    queue.addToBatch(entry('OC-C1'));
    queue.addToBatch(entry('OC-C1'));
    queue.addToBatch(entry('OC-C1'));
    await waitOut();
    expect(attempts).toHaveLength(2);
    // Committed out of order by the test: finished in queue order all the same.
    attempts[1]?.commit();
    await waitOut();
    expect(finished).toEqual([]);
    attempts[0]?.commit();
    await vi.waitFor(() => expect(attempts).toHaveLength(3));
    expect(finished).toEqual([1, 2]);
    // The third filled while the first was written, and went over as one.
    expect(sizeOf(attempts[2]?.work as Work)).toBe(3);
    attempts[2]?.commit();
    await queue.close();
    expect(finished).toEqual([1, 2, 3]);
  });

  it('one at a time otherwise: the next batch fills until the one written has finished', async () => {
    const { queue, attempts, finished } = queueOf(false);
    queue.addToBatch(entry('OC-A1'));
    await vi.waitFor(() => expect(attempts).toHaveLength(1));
    queue.addToBatch(entry('OC-B1'));
    await waitOut();
    queue.addToBatch(entry('OC-B1'));
    await waitOut();
    expect(attempts).toHaveLength(1);
    attempts[0]?.commit();
    await vi.waitFor(() => expect(attempts).toHaveLength(2));
    expect(sizeOf(attempts[1]?.work as Work)).toBe(2);
    attempts[1]?.commit();
    await queue.close();
    expect(finished).toEqual([1, 2]);
  });

  it('pipelined, after a failure retries the failed batch first and sends the one behind it again after, nothing ahead of a retry', async () => {
    const { queue, attempts, finished, counters } = queueOf(true);
    queue.addToBatch(entry('OC-A1'));
    await vi.waitFor(() => expect(attempts).toHaveLength(1));
    queue.addToBatch(entry('OC-A1'));
    queue.addToBatch(entry('OC-A1'));
    await vi.waitFor(() => expect(attempts).toHaveLength(2));
    // The writer fails the first, and refuses the one it held behind it.
    attempts[0]?.fail(new Error('injected failure'));
    attempts[1]?.fail(new Error('not written: the batch before it failed'));
    await vi.waitFor(() => expect(attempts).toHaveLength(3));
    await waitOut();
    // Only the retry: the batch behind waits for it, not sent ahead of a retry.
    expect(attempts.map(({ work }) => sizeOf(work))).toEqual([1, 2, 1]);
    attempts[2]?.commit();
    await vi.waitFor(() => expect(attempts).toHaveLength(4));
    expect(sizeOf(attempts[3]?.work as Work)).toBe(2);
    attempts[3]?.commit();
    await queue.close();
    expect(finished).toEqual([1, 2]);
    // One failure: the batch refused for being behind it was never the writer's failure.
    expect(counters).toMatchObject({ failures: 1, commits: 2 });
  });
});
