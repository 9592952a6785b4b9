import { z } from 'zod';
import { type StatsOverview, type StatsRange } from './stats';
import { DAY_MS } from './time';

/**
 * The old console's analysis calls (the Arco Design Pro template's visualization and workplace mocks),
 * answered in their old shapes from the fleet's overview of the last 12 UTC days (docs/analysis.md, "The old
 * calls", holds the mapping): the same function maps the server's figures and the mocks' alike.
 */

export const OLD_ANALYSIS_CALLS = [
  'public-opinion-analysis',
  'content-period-analysis',
  'content-publish',
  'popular-author/list',
  'data-chain-growth',
  'data-overview',
  'content-data',
] as const;
export type OldAnalysisCall = (typeof OLD_ANALYSIS_CALLS)[number];

/** The days the old charts draw (the template drew 12 points). */
const OLD_DAYS = 12;
/** The entries of the popular-author list (the template listed 7). */
const OLD_AUTHORS = 7;

/** The calls whose body is `{ quota }`, which chooses what the chart shows; the others take no body. */
const QUOTA_CALLS: ReadonlySet<OldAnalysisCall> = new Set(['public-opinion-analysis', 'data-chain-growth']);

/** A call's body, when POSTed: `{ quota? }` or nothing; an unknown field is refused, as everywhere on the server. */
export const oldAnalysisBodySchema = (call: OldAnalysisCall) =>
  (QUOTA_CALLS.has(call) ? z.strictObject({ quota: z.string().max(64).optional() }) : z.strictObject({})).nullish();

/** The range the old calls count over: the last 12 whole UTC days up to the end of today. */
export const oldCallsRange = (now: number): StatsRange => {
  const to = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  return { from: to - OLD_DAYS * DAY_MS, to, tz: 0 };
};

/** Percent change of the second half of a series over the first, to two decimals (0 when the first half is 0). */
const growthOf = (values: readonly number[]): number => {
  const half = Math.floor(values.length / 2);
  const [before, after] = [values.slice(0, half), values.slice(half)].map((part) => part.reduce((sum, value) => sum + value, 0)) as [number, number];
  return before === 0 ? 0 : Math.round(((after - before) / before) * 10_000) / 100;
};

/** The old answer of `call` (its `data`; the caller wraps it in the envelope) from the overview of oldCallsRange. */
export const oldAnalysisAnswer = (call: OldAnalysisCall, overview: StatsOverview, quota?: string): unknown => {
  const days = overview.sessionsPerDay.map((row) => row.day.slice(5));
  const sessions = overview.sessionsPerDay.map((row) => row.sessions);
  const total = sessions.reduce((sum, value) => sum + value, 0);
  const bookingParts = (['used', 'expired', 'cancelled', 'open'] as const).map((name) => ({ name, value: overview.bookings[name] }));
  switch (call) {
    case 'public-opinion-analysis':
      if (quota === 'comment') {
        const alarms = overview.alarms.map((row) => ({ x: `${row.kind}/${row.priority}`, y: row.raised, name: 'alarms' }));
        return { count: alarms.reduce((sum, row) => sum + row.y, 0), growth: 0, chartData: alarms };
      }
      if (quota === 'published') {
        return { count: overview.chambers, growth: 0, chartData: overview.utilisationBySite.map((row) => ({ x: row.site, y: Math.round(row.share * 100), name: 'utilisation' })) };
      }
      if (quota === undefined || quota === 'visitors') return { count: total, growth: growthOf(sessions), chartData: days.map((x, i) => ({ x, y: sessions[i] ?? 0, name: 'sessions' })) };
      return { count: overview.bookings.total, growth: 0, chartData: bookingParts };
    case 'content-period-analysis':
      return { xAxis: days, data: [{ name: 'sessions', value: sessions }] };
    case 'content-publish':
      return overview.commands.map((row) => ({ name: row.type, x: ['sent', 'acked', 'refused', 'timeout'], y: [row.sent, row.acked, row.refused, row.timeout] }));
    case 'popular-author/list':
      return {
        list: [...overview.utilisationByChamber]
          .sort((a, b) => b.hours - a.hours || a.id.localeCompare(b.id))
          .slice(0, OLD_AUTHORS)
          .map((row, i) => ({ ranking: i + 1, author: row.name, contentCount: Math.round(row.hours), clickCount: Math.round(row.share * 10_000) / 100 })),
      };
    case 'data-chain-growth':
      return { count: total, growth: growthOf(sessions), chartData: { xAxis: days, data: { name: quota ?? 'sessions', value: sessions } } };
    case 'data-overview':
      return {
        xAxis: days,
        data: [
          { name: 'sessions', value: sessions, count: total },
          { name: 'chambers', value: sessions.map(() => overview.chambers), count: overview.chambers },
        ],
      };
    case 'content-data':
      return overview.sessionsPerDay.slice(-8).map((row) => ({ x: row.day, y: row.sessions }));
  }
};
