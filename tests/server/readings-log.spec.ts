import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListAnswer } from '../../src/resources/query';
import { stateRecordsConfig } from '../../src/resources/state-records/config';
import { demoTokens, seedFleet, T0, type DemoName } from './fleet';
import { call, envelope } from './http';
import { everySecond, writeReadings } from './readings';
import { HOUR, STORE_KINDS, useStore } from './stores';

/**
 * The readings log (`list/get_OCState`, docs/server-lists.md, "Totals of the readings log") on both stores:
 * a match larger than the resource counts (countUpTo) answers a lower bound that says so; a smaller one
 * its exact total.
 */

const UP_TO = stateRecordsConfig.countUpTo ?? 0;
/** OC-A1's readings beyond the fleet's five: more than the log counts. */
const MANY = UP_TO + 25;
const START = T0 + 2 * HOUR;

describe.each(STORE_KINDS)('readings log totals (%s)', (kind) => {
  const store = useStore(kind);
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;

  beforeEach(async () => {
    await store.wipe();
    const ctx = store.context();
    await seedFleet(ctx);
    await writeReadings(ctx, 'OC-A1', everySecond(START, MANY), 1000);
    app = await store.app();
    tokens = await demoTokens(app);
  });

  const page = async (as: DemoName, body: object) => {
    const response = await call(app, '/list/get_OCState', body, { token: tokens[as] });
    expect(response.statusCode, response.body).toBe(200);
    return envelope<ListAnswer>(response).data;
  };

  it('answers the unfiltered log, newest first, with a lower bound of its total that says so', async () => {
    expect(UP_TO).toBeGreaterThan(0);
    for (const as of ['admin', 'client'] as const) {
      const first = await page(as, { current: 1, pageSize: 10 });
      expect(first.totalIsLowerBound, as).toBe(true);
      expect(first.total, as).toBe(UP_TO + 1);
      expect(first.list.map((record) => record.Time)).toEqual(Array.from({ length: 10 }, (_, i) => START + (MANY - 1 - i) * 1000));
    }
  });

  it('reads a page past the counted records, and counts to the end of the last one', async () => {
    const deep = await page('client', { current: UP_TO / 10 + 2, pageSize: 10 });
    expect(deep.list.map((record) => record.Time)).toEqual(Array.from({ length: 10 }, (_, i) => START + (MANY - 1 - UP_TO - 10 - i) * 1000));
    expect(deep).toMatchObject({ totalIsLowerBound: true, total: UP_TO + 21 });
    // OC-A1 holds MANY + 5 readings: counted to the end for its last page, the total is exact again.
    const last = await page('client', { current: (MANY + 5) / 10, pageSize: 10 });
    expect(last).toEqual({ list: expect.any(Array), total: MANY + 5 });
    expect(last.list).toHaveLength(10);
    expect((await page('client', { current: (MANY + 5) / 10 + 1, pageSize: 10 })).list).toEqual([]);
  });

  it('answers an exact total, without the flag, when the match is within what it counts', async () => {
    const oneDevice = await page('admin', { current: 1, pageSize: 2, filter: { Id: 'OC-B1' } });
    expect(oneDevice).toEqual({ list: expect.any(Array), total: 5 });
    const range = await page('admin', { current: 2, pageSize: 10, filter: { Id: 'OC-A1', Time: { gte: START, lte: START + 99_000 } } });
    expect(range).toEqual({ list: expect.any(Array), total: 100 });
    expect(range.list).toHaveLength(10);
  });
});
