import { http, HttpResponse } from 'msw';
import type { z } from 'zod';
import { COMMAND_TYPES } from '../src/domain/commands';
import { CODES } from '../src/domain/envelope';
import { OLD_ANALYSIS_CALLS, oldAnalysisAnswer, oldAnalysisBodySchema, oldCallsRange } from '../src/domain/oldAnalysisCalls';
import { binOf, cellsFor, DISTRIBUTION_NAMES, DISTRIBUTIONS, dayLabel, daysOf, emptyBins, localDayNumber, pivot, pivotQuerySchema, STATS_PATHS, statsRangeSchema, toHours, type PivotMeasure, type PivotQuery, type StatsOverview, type StatsRange, type StatsReadings } from '../src/domain/stats';
import { DAY_MS } from '../src/domain/time';
import type { AlarmKind, AlarmPriority } from '../src/domain/alarms/rules';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, refusalOf, type AccessCheck } from './access';
import type { CommandLog } from './deviceCommands';
import { fail, ok, restFail } from './envelope';
import type { MockScope } from './scope';
import { upstreamRefusal } from './upstream';

const HOUR_MS = 3_600_000;

/**
 * `GET <restBase>/stats/...` and the old console's analysis calls over the mock fleet, with the server's
 * rules (server/stats/): sessions from the orders' UseTime and FinishTime, bookings by SetT, commands from
 * the command log, alarms by raisedAt; the distributions from the readings (state records) averaged per
 * chamber and hour, as the server reads them from its hourly rollups.
 */
export const statsHandlers = (
  upstreamBase: string,
  restBase: string,
  tables: ReadonlyMap<string, WireRecord[]>,
  check: AccessCheck,
  scope: MockScope,
  commands: CommandLog,
  now: () => number,
) => {
  const visible = (request: Request, name: string) => scope.visible(request, name, tables.get(name) ?? []);
  const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
  const within = (value: unknown, from: number, to: number) => typeof value === 'number' && value >= from && value < to;

  const chambersOf = (request: Request) => {
    const types = tables.get('device-types') ?? [];
    return visible(request, 'devices').map((device) => ({
      id: String(device.Id),
      name: String(device.name),
      site: String(device.Location),
      type: Number(device.Type),
      typeName: String(types.find((type) => type.id === device.Type)?.name ?? device.Type),
    }));
  };

  /** Sessions overlapping [from, end): start, clipped time, device. */
  const sessionsOf = (request: Request, from: number, end: number) => {
    const devices = tables.get('devices') ?? [];
    return visible(request, 'orders').flatMap((order) => {
      const start = num(order.UseTime);
      if (start === undefined || start < from - DAY_MS || start >= end) return [];
      const finished = num(order.FinishTime);
      const running = finished === undefined && devices.find((device) => device.Id === order.Id)?.OrderNum === order.OrderNum;
      if (!(finished !== undefined ? finished > from : running)) return [];
      const ms = Math.min(finished ?? end, end) - Math.max(start, from);
      return [{ device: String(order.Id), start, ms }];
    });
  };

  const commandsOf = (request: Request) => {
    commands.settle();
    const ids = new Set(visible(request, 'devices').map((device) => device.Id));
    return commands.records.filter((record) => ids.has(record.Id));
  };

  const overviewOf = (request: Request, range: StatsRange): StatsOverview => {
    const end = Math.min(range.to, now());
    const chambers = chambersOf(request);
    const orders = visible(request, 'orders');
    const perDay = new Map<number, number>();
    for (const order of orders) if (within(order.UseTime, range.from, range.to)) perDay.set(localDayNumber(Number(order.UseTime), range.tz), (perDay.get(localDayNumber(Number(order.UseTime), range.tz)) ?? 0) + 1);
    const busy = new Map<string, number>();
    if (end > range.from) for (const session of sessionsOf(request, range.from, end)) busy.set(session.device, (busy.get(session.device) ?? 0) + session.ms);
    const available = Math.max(0, end - range.from);
    const shareOf = (ms: number, count: number) => (available === 0 || count === 0 ? 0 : Math.min(1, ms / (available * count)));
    const sites = new Map<string, { chambers: number; ms: number }>();
    for (const { id, site } of chambers) {
      const entry = sites.get(site) ?? { chambers: 0, ms: 0 };
      sites.set(site, { chambers: entry.chambers + 1, ms: entry.ms + (busy.get(id) ?? 0) });
    }
    const booked = orders.filter((order) => within(order.SetT, range.from, range.to));
    const issued = commandsOf(request).filter((record) => within(record.issuedAt, range.from, range.to));
    const raised = visible(request, 'alarms').filter((alarm) => within(alarm.raisedAt, range.from, range.to));
    const alarmGroups = new Map<string, WireRecord[]>();
    for (const alarm of raised) alarmGroups.set(`${String(alarm.kind)}|${String(alarm.priority)}`, [...(alarmGroups.get(`${String(alarm.kind)}|${String(alarm.priority)}`) ?? []), alarm]);
    return {
      from: range.from,
      to: range.to,
      chambers: chambers.length,
      sessionsPerDay: daysOf(range, range.tz).map((day) => ({ day: dayLabel(day), sessions: perDay.get(day) ?? 0 })),
      utilisationBySite: [...sites]
        .map(([site, { chambers: count, ms }]) => ({ site, chambers: count, hours: toHours(ms), share: shareOf(ms, count) }))
        .sort((a, b) => a.site.localeCompare(b.site)),
      utilisationByChamber: chambers.map(({ id, name, site }) => ({ id, name, site, hours: toHours(busy.get(id) ?? 0), share: shareOf(busy.get(id) ?? 0, 1) })),
      bookings: {
        total: booked.length,
        used: booked.filter((order) => order.IsUsed === true).length,
        expired: booked.filter((order) => order.IsPass === true).length,
        cancelled: booked.filter((order) => num(order.CancelTime) !== undefined).length,
        open: booked.filter((order) => order.IsUsed !== true && order.IsPass !== true && num(order.CancelTime) === undefined).length,
      },
      commands: COMMAND_TYPES.map((type) => {
        const of = (status: string) => issued.filter((record) => record.type === type && record.status === status).length;
        return { type, sent: of('sent'), acked: of('acked'), refused: of('refused'), timeout: of('timeout') };
      }),
      alarms: [...alarmGroups]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, alarms]) => {
          const [kind, priority] = key.split('|') as [AlarmKind, AlarmPriority];
          const waits = alarms.flatMap((alarm) => (num(alarm.ackedAt) === undefined ? [] : [Number(alarm.ackedAt) - Number(alarm.raisedAt)]));
          const seconds = (ms: number) => Math.round(ms / 100) / 10;
          return {
            kind,
            priority,
            raised: alarms.length,
            acknowledged: waits.length,
            meanAckSeconds: waits.length === 0 ? null : seconds(waits.reduce((sum, wait) => sum + wait, 0) / waits.length),
            maxAckSeconds: waits.length === 0 ? null : seconds(Math.max(...waits)),
          };
        }),
    };
  };

  const readingsOf = (request: Request, range: StatsRange): StatsReadings => {
    const hours = new Map<string, Record<string, { sum: number; n: number }>>();
    for (const record of visible(request, 'state-records')) {
      if (!within(record.Time, range.from, range.to)) continue;
      const key = `${String(record.Id)}|${Math.floor(Number(record.Time) / HOUR_MS)}`;
      const sums = hours.get(key) ?? {};
      for (const name of DISTRIBUTION_NAMES) {
        const value = num(record[DISTRIBUTIONS[name].reading]);
        if (value === undefined) continue;
        const entry = sums[name] ?? { sum: 0, n: 0 };
        sums[name] = { sum: entry.sum + value, n: entry.n + 1 };
      }
      hours.set(key, sums);
    }
    const distribution = (name: (typeof DISTRIBUTION_NAMES)[number]) => {
      const bins = emptyBins(name);
      for (const sums of hours.values()) {
        const entry = sums[name];
        const bin = entry === undefined ? undefined : bins[binOf(name, entry.sum / entry.n)];
        if (bin) bin.hours += 1;
      }
      return bins;
    };
    return { from: range.from, to: range.to, distributions: { pressure: distribution('pressure'), oxygen: distribution('oxygen'), temperature: distribution('temperature') } };
  };

  const pivotOf = (request: Request, query: PivotQuery) => {
    const { from, to, tz } = query;
    const byChamber = cellsFor(query.by) === 'chamber';
    const cells = new Map<string | number, number>();
    const add = (device: unknown, time: number, value = 1) => {
      const key = byChamber ? String(device) : localDayNumber(time, tz);
      cells.set(key, (cells.get(key) ?? 0) + value);
    };
    const orders = visible(request, 'orders');
    const counted: Record<Exclude<PivotMeasure, 'sessionHours'>, () => void> = {
      sessions: () => orders.filter((order) => within(order.UseTime, from, to)).forEach((order) => add(order.Id, Number(order.UseTime))),
      bookings: () => orders.filter((order) => within(order.SetT, from, to)).forEach((order) => add(order.Id, Number(order.SetT))),
      expired: () => orders.filter((order) => within(order.SetT, from, to) && order.IsPass === true).forEach((order) => add(order.Id, Number(order.SetT))),
      commands: () => commandsOf(request).filter((record) => within(record.issuedAt, from, to)).forEach((record) => add(record.Id, Number(record.issuedAt))),
      commandsFailed: () =>
        commandsOf(request)
          .filter((record) => within(record.issuedAt, from, to) && (record.status === 'refused' || record.status === 'timeout'))
          .forEach((record) => add(record.Id, Number(record.issuedAt))),
      alarms: () => visible(request, 'alarms').filter((alarm) => within(alarm.raisedAt, from, to)).forEach((alarm) => add(alarm.deviceId, Number(alarm.raisedAt))),
    };
    if (query.measure === 'sessionHours') {
      const end = Math.min(to, now());
      if (end > from) for (const session of sessionsOf(request, from, end)) add(session.device, session.start, session.ms);
      for (const [key, ms] of cells) cells.set(key, toHours(ms));
    } else counted[query.measure]();
    const grouped = byChamber
      ? { of: 'chamber' as const, cells: new Map([...cells].map(([key, value]) => [String(key), value])) }
      : { of: 'day' as const, cells: new Map([...cells].map(([key, value]) => [Number(key), value])) };
    return { from, to, measure: query.measure, by: query.by, rows: pivot(query.by, grouped, chambersOf(request), query, tz) };
  };

  const rest = <S extends z.ZodType>(path: string, resource: string, schema: S, answer: (request: Request, query: z.infer<S>) => unknown) =>
    http.get(`${restBase}/${path}`, ({ request }) => {
      const refusal = refusalOf(request, check, { resource, action: 'list' });
      if (refusal) return refusal === 'notSignedIn' ? restFail(CODES.notSignedIn, 'not logged in') : restFail(CODES.forbidden, 'forbidden');
      const query = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      if (!query.success) return restFail(CODES.badInput, badInputMessage(query.error));
      return HttpResponse.json(answer(request, query.data) as Record<string, unknown>);
    });

  return [
    rest(STATS_PATHS.overview, 'data-analysis', statsRangeSchema, overviewOf),
    rest(STATS_PATHS.readings, 'data-analysis', statsRangeSchema, readingsOf),
    rest(STATS_PATHS.pivot, 'multi-dimension-analysis', pivotQuerySchema, pivotOf),
    // The old console called them with GET or POST (axios, by call); either is answered.
    ...OLD_ANALYSIS_CALLS.flatMap((call) =>
      [http.get, http.post].map((method) =>
        method(`${upstreamBase}/api/${call}`, async ({ request }) => {
          const refused = upstreamRefusal(request, check, 'data-analysis', 'list');
          if (refused) return refused;
          const body = request.method === 'POST' ? oldAnalysisBodySchema(call).safeParse(await readJson(request)) : undefined;
          if (body?.success === false) return fail(CODES.badInput, badInputMessage(body.error));
          const quota = body?.data !== null && body?.data !== undefined && 'quota' in body.data ? body.data.quota : undefined;
          return ok(oldAnalysisAnswer(call, overviewOf(request, oldCallsRange(now())), quota));
        }),
      ),
    ),
  ];
};
