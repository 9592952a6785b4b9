import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Insertable } from 'kysely';
import type { AlarmKind, AlarmPriority } from '../../src/domain/alarms/rules';
import { pivotAnswerSchema, statsOverviewSchema, statsReadingsSchema, type PivotAnswer } from '../../src/domain/stats';
import { openAlarm } from '../../server/alarms/store';
import { SYSTEM_ACTOR } from '../../server/audit/trail';
import { ROLLUP_COLUMNS, type DB } from '../../server/db/schema';
import { createBooking } from '../../server/orders/create-booking';
import { endSession } from '../../server/orders/session-end';
import { startSession } from '../../server/orders/session-start';
import { expireOverdue } from '../../server/orders/expiry';
import { demoTokens, seedFleet, type DemoName } from './fleet';
import { HOUR, STORE_KINDS, useStore } from './stores';

/**
 * `GET /api/v1/stats/...`: the analysis pages' aggregates, against figures worked out by hand from a
 * fleet made through the order lifecycle, with commands, alarms and hourly rollups written beside it;
 * each role counts its own chambers only.
 */

/** Two local days in China (getTimezoneOffset -480): 2026-01-12 and 2026-01-13; now is noon of the second. */
const CHINA = -480;
const DAY = Date.UTC(2026, 0, 11, 16);
const RANGE = `from=${DAY}&to=${DAY + 48 * HOUR}&tz=${CHINA}`;
const NOW = DAY + 36 * HOUR;

describe.each(STORE_KINDS)('the analysis aggregates (%s)', (kind) => {
  const store = useStore(kind);
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;
  const get = async (who: DemoName, path: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/stats/${path}`, headers: { authorization: `Bearer ${tokens[who]}` } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<unknown>();
  };
  const overview = async (who: DemoName) => statsOverviewSchema.parse(await get(who, `overview?${RANGE}`));
  const pivot = async (who: DemoName, query: string): Promise<PivotAnswer['rows']> => pivotAnswerSchema.parse(await get(who, `pivot?${RANGE}&${query}`)).rows;

  beforeEach(async () => {
    await store.wipe();
    const ctx = store.context({}, () => NOW);
    await seedFleet(ctx);
    const session = async (deviceId: string, oc: string, start: number, end?: number) => {
      await createBooking(ctx, { deviceId, setT: start, oc });
      expect((await startSession(ctx, { deviceId, oc, at: start })).outcome).toBe('started');
      if (end !== undefined) expect((await endSession(ctx, { deviceId, at: end })).outcome).toBe('finished');
    };
    // OC-A1: 09:00–10:00 on the first day, 02:00–04:00 on the second (3 hours).
    await session('OC-A1', 'A1-ONE', DAY + 9 * HOUR, DAY + 10 * HOUR);
    await session('OC-A1', 'A1-TWO', DAY + 26 * HOUR, DAY + 28 * HOUR);
    // OC-B1: from an hour before the range to an hour into it (1 hour inside, started the day before).
    await session('OC-B1', 'B1-EDGE', DAY - HOUR, DAY + HOUR);
    // OC-C1: since 10:00 on the second day, still running at noon (2 hours).
    await session('OC-C1', 'C1-NOW', DAY + 34 * HOUR);
    // OC-A2's 08:00 booking expired unused; OC-C2's at 20:00 on the second day is still open.
    await createBooking(ctx, { deviceId: 'OC-A2', setT: DAY + 8 * HOUR, oc: 'A2-MISSED' });
    await expireOverdue(ctx, NOW);
    await createBooking(ctx, { deviceId: 'OC-C2', setT: DAY + 44 * HOUR, oc: 'C2-LATER' });

    const command = (cmd_id: string, device_id: string, type: string, status: string, issued_at: number) =>
      ({ cmd_id, device_id, type, status, payload: '{}', error: null, issued_by: null, issued_at, answered_at: null });
    await ctx.db
      .insertInto('device_commands')
      .values([
        command('c1', 'OC-A1', 'settings', 'acked', DAY + HOUR),
        command('c2', 'OC-A1', 'state', 'refused', DAY + 2 * HOUR),
        command('c3', 'OC-C2', 'permission', 'timeout', DAY + 3 * HOUR),
        command('c4', 'OC-B1', 'settings', 'acked', DAY - 2 * HOUR),
      ])
      .execute();

    const alarm = async (deviceId: string, alarmKind: AlarmKind, priority: AlarmPriority, at: number, ackAfterS?: number) => {
      const opened = await openAlarm(ctx.db, { deviceId, kind: alarmKind, priority, state: 'active-unacked', value: null, threshold: null }, SYSTEM_ACTOR, at);
      expect(opened).toBeDefined();
      if (ackAfterS !== undefined) await ctx.db.updateTable('alarms').set({ acked_at: at + ackAfterS * 1000, acked_by: 'admin', state: 'active-acked' }).where('id', '=', opened?.id ?? -1).execute();
    };
    await alarm('OC-A1', 'o2-high', 'high', DAY + 5 * HOUR, 30);
    await alarm('OC-A2', 'o2-high', 'high', DAY + 6 * HOUR, 90);
    await alarm('OC-C2', 'temperature', 'medium', DAY + 7 * HOUR);
    await alarm('OC-B1', 'humidity', 'low', DAY - 3 * HOUR, 10);

    const hour = (device_id: string, start: number, bucket_ms: number, means: { rcp?: number; rcpi02?: number; rct?: number }) =>
      ({
        device_id,
        bucket_ms,
        start,
        // Every reading of the bucket: a reading it lacks has n 0 (and the rows of a multi-row insert name the same columns).
        ...Object.fromEntries(Object.values(ROLLUP_COLUMNS).flatMap((column) => [[`${column}_sum`, 0], [`${column}_n`, 0]])),
        ...Object.fromEntries(Object.entries(means).flatMap(([column, mean]) => [[`${column}_sum`, mean * 60], [`${column}_n`, 60]])),
      }) as Insertable<DB['reading_rollups']>;
    await ctx.db
      .insertInto('reading_rollups')
      .values([
        hour('OC-A1', DAY + 9 * HOUR, HOUR, { rcp: 1.45, rcpi02: 24.5, rct: 23 }),
        hour('OC-C2', DAY + 3 * HOUR, HOUR, { rcp: 2.5, rct: 15 }),
        // Outside the range, and a minute's rollup: neither counts.
        hour('OC-A1', DAY - 2 * HOUR, HOUR, { rcp: 1.05 }),
        hour('OC-A1', DAY + 9 * HOUR, 60_000, { rcp: 1.05 }),
      ])
      .execute();

    app = await store.app({ now: () => NOW });
    tokens = await demoTokens(app);
  });

  it('counts sessions per local day, utilisation per chamber and site, bookings, commands and alarms', async () => {
    const answer = await overview('admin');
    expect(answer.chambers).toBe(6);
    expect(answer.sessionsPerDay).toEqual([{ day: '2026-01-12', sessions: 1 }, { day: '2026-01-13', sessions: 2 }]);
    const hours = Object.fromEntries(answer.utilisationByChamber.map((row) => [row.id, row.hours]));
    expect(hours).toEqual({ 'OC-A1': 3, 'OC-A2': 0, 'OC-B1': 1, 'OC-B2': 0, 'OC-C1': 2, 'OC-C2': 0 });
    // 36 hours of the range have passed: OC-A1 was busy 3 of them.
    expect(answer.utilisationByChamber.find((row) => row.id === 'OC-A1')?.share).toBeCloseTo(3 / 36, 6);
    expect(answer.utilisationBySite.find((row) => row.site === 'Lab 100%')).toEqual({ site: 'Lab 100%', chambers: 1, hours: 2, share: 2 / 36 });
    expect(answer.bookings).toEqual({ total: 5, used: 3, expired: 1, cancelled: 0, open: 1 });
    expect(answer.commands).toEqual([
      { type: 'permission', sent: 0, acked: 0, refused: 0, timeout: 1 },
      { type: 'state', sent: 0, acked: 0, refused: 1, timeout: 0 },
      { type: 'settings', sent: 0, acked: 1, refused: 0, timeout: 0 },
    ]);
    expect(answer.alarms).toEqual([
      { kind: 'o2-high', priority: 'high', raised: 2, acknowledged: 2, meanAckSeconds: 60, maxAckSeconds: 90 },
      { kind: 'temperature', priority: 'medium', raised: 1, acknowledged: 0, meanAckSeconds: null, maxAckSeconds: null },
    ]);
  });

  it('bins the hourly means of pressure, oxygen and temperature within the range', async () => {
    const { distributions } = statsReadingsSchema.parse(await get('admin', `readings?${RANGE}`));
    const filled = (bins: readonly { hours: number }[]) => bins.flatMap((bin, i) => (bin.hours > 0 ? [[i, bin.hours]] : []));
    expect(filled(distributions.pressure)).toEqual([[5, 1], [11, 1]]);
    expect(distributions.pressure[5]).toEqual({ from: 1.4, to: 1.5, hours: 1 });
    expect(distributions.pressure[11]).toEqual({ from: 2, to: null, hours: 1 });
    expect(filled(distributions.oxygen)).toEqual([[6, 1]]);
    expect(filled(distributions.temperature)).toEqual([[0, 1], [4, 1]]);
  });

  it('counts a session without an end only while its chamber still runs it', async () => {
    const hoursOf = async () => Object.fromEntries((await overview('admin')).utilisationByChamber.map((row) => [row.id, row.hours]));
    expect((await hoursOf())['OC-C1']).toBe(2);
    // Its end was lost: the chamber no longer names the order, so the session is not busy time for ever.
    await store.context({}, () => NOW).db.updateTable('devices').set({ order_num: null }).where('id', '=', 'OC-C1').execute();
    expect(await hoursOf()).toEqual({ 'OC-A1': 3, 'OC-A2': 0, 'OC-B1': 1, 'OC-B2': 0, 'OC-C1': 0, 'OC-C2': 0 });
    const bySite = Object.fromEntries((await pivot('admin', 'measure=sessionHours&by=site')).map((row) => [row.label, row.value]));
    expect(bySite['Lab 100%']).toBe(0);
  });

  it('pivots a measure by site, chamber, type, day and month', async () => {
    const values = (rows: PivotAnswer['rows']) => Object.fromEntries(rows.map((row) => [row.label, row.value]));
    expect(values(await pivot('admin', 'measure=sessions&by=site'))).toEqual({ 'Hall A': 2, 'hall a annex': 0, 'Hall B': 0, Lab_1: 0, 'Lab 100%': 1, 'Lab X1': 0 });
    expect(values(await pivot('admin', 'measure=sessionHours&by=chamber'))).toMatchObject({ 'North One': 3, 'South One': 1, 'East One': 2, 'East Two': 0 });
    expect(await pivot('admin', 'measure=sessions&by=day')).toEqual([
      { key: '2026-01-12', label: '2026-01-12', value: 1 },
      { key: '2026-01-13', label: '2026-01-13', value: 2 },
    ]);
    expect(await pivot('admin', 'measure=bookings&by=month')).toEqual([{ key: '2026-01', label: '2026-01', value: 5 }]);
    const byType = await pivot('admin', 'measure=alarms&by=type');
    expect(Object.fromEntries(byType.map((row) => [row.key, row.value]))).toEqual({ '1': 1, '2': 1, '3': 0, '4': 0, '5': 1 });
    expect(values(await pivot('admin', 'measure=commandsFailed&by=chamber'))).toMatchObject({ 'North One': 1, 'East Two': 1, 'South One': 0 });
    expect(values(await pivot('admin', 'measure=expired&by=site'))).toMatchObject({ 'hall a annex': 1, 'Hall A': 0 });
  });

  it("counts a lower administrator's chambers only", async () => {
    // second manages OC-A1 and OC-A2.
    const answer = await overview('second');
    expect(answer.chambers).toBe(2);
    expect(answer.sessionsPerDay.map((day) => day.sessions)).toEqual([1, 1]);
    expect(answer.utilisationByChamber.map((row) => row.id)).toEqual(['OC-A1', 'OC-A2']);
    expect(answer.bookings).toEqual({ total: 3, used: 2, expired: 1, cancelled: 0, open: 0 });
    expect(answer.commands.map((row) => row.timeout)).toEqual([0, 0, 0]);
    expect(answer.alarms).toEqual([{ kind: 'o2-high', priority: 'high', raised: 2, acknowledged: 2, meanAckSeconds: 60, maxAckSeconds: 90 }]);
    const { distributions } = statsReadingsSchema.parse(await get('second', `readings?${RANGE}`));
    expect(distributions.pressure.reduce((sum, bin) => sum + bin.hours, 0)).toBe(1);
    expect(distributions.temperature[0]?.hours).toBe(0);
    expect((await pivot('second', 'measure=sessions&by=site')).map((row) => row.label)).toEqual(['Hall A', 'hall a annex']);
    expect((await pivot('client', 'measure=alarms&by=chamber')).map((row) => [row.key, row.value])).toEqual([['OC-A1', 1]]);
  });

  it("answers the old console's analysis calls in their old shapes from the last 12 UTC days of the caller's chambers", async () => {
    const old = async (who: DemoName, method: 'GET' | 'POST', call: string, body?: object) => {
      const response = await app.inject({ method, url: `/upstream/api/${call}`, headers: { authorization: `Bearer ${tokens[who]}` }, ...(body ? { payload: body } : {}) });
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<{ code: number; status: string; data: unknown }>();
      expect([answer.code, answer.status]).toEqual([20000, 'ok']);
      return answer.data;
    };
    // Session starts by UTC day: 01-11 OC-B1, 01-12 OC-A1 twice, 01-13 OC-C1.
    expect((await old('admin', 'GET', 'content-data')) as unknown[]).toEqual([
      ...['06', '07', '08', '09', '10'].map((day) => ({ x: `2026-01-${day}`, y: 0 })),
      { x: '2026-01-11', y: 1 },
      { x: '2026-01-12', y: 2 },
      { x: '2026-01-13', y: 1 },
    ]);
    const growth = (await old('admin', 'POST', 'data-chain-growth', { quota: 'retentionTrends' })) as { count: number; growth: number; chartData: { xAxis: string[]; data: { name: string; value: number[] } } };
    expect(growth.count).toBe(4);
    expect(growth.chartData.xAxis).toHaveLength(12);
    expect(growth.chartData.data).toEqual({ name: 'retentionTrends', value: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1] });
    const authors = (await old('admin', 'GET', 'popular-author/list')) as { list: { ranking: number; author: string; contentCount: number }[] };
    expect(authors.list.map(({ ranking, author, contentCount }) => [ranking, author, contentCount]).slice(0, 3)).toEqual([[1, 'North One', 3], [2, 'South One', 2], [3, 'East One', 2]]);
    expect(await old('admin', 'POST', 'content-publish')).toContainEqual({ name: 'state', x: ['sent', 'acked', 'refused', 'timeout'], y: [0, 0, 1, 0] });
    const opinion = (await old('client', 'POST', 'public-opinion-analysis', { quota: 'visitors' })) as { count: number; chartData: { y: number }[] };
    expect([opinion.count, opinion.chartData.length]).toEqual([2, 12]);
    for (const call of ['content-period-analysis', 'data-overview']) expect(await old('second', 'POST', call)).toHaveProperty('xAxis');
    const stray = await app.inject({ method: 'POST', url: '/upstream/api/data-overview', headers: { authorization: `Bearer ${tokens.admin}`, 'accept-language': 'en-US' }, payload: { quota: 'visitors' } });
    expect([stray.statusCode, stray.json<{ code: number; msg: string }>().code, stray.json<{ msg: string }>().msg]).toEqual([400, 40000, expect.stringContaining('quota')]);
    const anonymous = await app.inject({ method: 'POST', url: '/upstream/api/data-overview' });
    expect(anonymous.json<{ code: number }>().code).toBe(50008);
  });

  it('refuses a caller not signed in, and names what is wrong with a query', async () => {
    expect((await app.inject({ method: 'GET', url: `/api/v1/stats/overview?${RANGE}` })).statusCode).toBe(401);
    const bad = async (path: string, named: string) => {
      const response = await app.inject({ method: 'GET', url: `/api/v1/stats/${path}`, headers: { authorization: `Bearer ${tokens.admin}`, 'accept-language': 'en-US' } });
      expect(response.statusCode, path).toBe(400);
      expect(response.json<{ message: string }>().message, path).toContain(named);
    };
    await bad(`overview?to=${DAY}`, 'from');
    await bad(`overview?from=${DAY}&to=${DAY}`, 'to');
    await bad(`readings?from=${DAY}&to=${DAY + 401 * 24 * HOUR}`, '400 days');
    await bad(`pivot?${RANGE}&measure=visitors&by=site`, 'measure');
    await bad(`pivot?${RANGE}&measure=sessions&by=week`, 'by');
    await bad(`overview?${RANGE}&sort=1`, 'sort');
  });
});
