import { z } from 'zod';
import { ALARM_KINDS, ALARM_PRIORITIES } from './alarms/rules';
import { COMMAND_TYPES } from './commands';
import { DAY_MS, MINUTE_MS } from './time';

/**
 * The fleet's analysis (docs/analysis.md): aggregates over the caller's chambers and a chosen range,
 * computed by the server (and the mocks) so that no row reaches the browser.
 *   GET /api/v1/stats/overview?from&to&tz   sessions per day, utilisation, bookings, commands, alarms
 *   GET /api/v1/stats/readings?from&to      distributions of pressure, oxygen and temperature
 *   GET /api/v1/stats/pivot?from&to&tz&measure&by   one measure by site, type, chamber, day or month
 * `tz` is the browser's getTimezoneOffset (as the workplace's figures take it): its days are the ones counted.
 */

export const STATS_PATHS = { overview: 'stats/overview', readings: 'stats/readings', pivot: 'stats/pivot' } as const;

/** The longest range one request may ask for: a year and a month. */
const STATS_MAX_DAYS = 400;

const rangeFields = {
  /** Epoch ms, inclusive; at least 1, so that an empty `from=` is refused rather than read as 1970. */
  from: z.coerce.number().int().min(1),
  /** Epoch ms, exclusive. */
  to: z.coerce.number().int().positive(),
  /** getTimezoneOffset's range: UTC+14 (-840) to UTC-12 (720). */
  tz: z.coerce.number().int().min(-840).max(720).default(0),
};

type Range = { from: number; to: number };
// messageKey: the server's message for it, in the caller's language (server/http/messages.ts).
const emptyRange = { path: ['to'], message: 'to must be after from', params: { messageKey: 'history.emptyRange' } };
const longRange = { path: ['to'], message: `the range may be at most ${STATS_MAX_DAYS} days`, params: { messageKey: 'stats.rangeTooLong', days: STATS_MAX_DAYS } };
const isOrdered = (range: Range) => range.to > range.from;
const isShortEnough = (range: Range) => range.to - range.from <= STATS_MAX_DAYS * DAY_MS;

export const statsRangeSchema = z.strictObject(rangeFields).refine(isOrdered, emptyRange).refine(isShortEnough, longRange);
export type StatsRange = z.infer<typeof statsRangeSchema>;

export const PIVOT_MEASURES = ['sessions', 'sessionHours', 'bookings', 'expired', 'commands', 'commandsFailed', 'alarms'] as const;
export type PivotMeasure = (typeof PIVOT_MEASURES)[number];
export const PIVOT_DIMENSIONS = ['site', 'type', 'chamber', 'day', 'month'] as const;
export type PivotDimension = (typeof PIVOT_DIMENSIONS)[number];

export const pivotQuerySchema = z
  .strictObject({ ...rangeFields, measure: z.enum(PIVOT_MEASURES), by: z.enum(PIVOT_DIMENSIONS) })
  .refine(isOrdered, emptyRange)
  .refine(isShortEnough, longRange);
export type PivotQuery = z.infer<typeof pivotQuerySchema>;

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1);
const hours = z.number().nonnegative();

export const statsOverviewSchema = z.strictObject({
  from: z.number(),
  to: z.number(),
  /** Chambers in scope now (removed ones left out). */
  chambers: count,
  /** Sessions started on each local day of the range, oldest first; every day is listed. */
  sessionsPerDay: z.array(z.strictObject({ day: z.string(), sessions: count })),
  /** Session hours within the range over the chamber-hours of the range up to now. */
  utilisationBySite: z.array(z.strictObject({ site: z.string(), chambers: count, hours, share })),
  utilisationByChamber: z.array(z.strictObject({ id: z.string(), name: z.string(), site: z.string(), hours, share })),
  /** Bookings whose booking time falls in the range. */
  bookings: z.strictObject({ total: count, used: count, expired: count, cancelled: count, open: count }),
  /** Commands issued in the range, per type, by outcome. */
  commands: z.array(z.strictObject({ type: z.enum(COMMAND_TYPES), sent: count, acked: count, refused: count, timeout: count })),
  /** Alarms raised in the range, per kind and priority; seconds from raised to acknowledged over the acknowledged ones. */
  alarms: z.array(
    z.strictObject({
      kind: z.enum(ALARM_KINDS),
      priority: z.enum(ALARM_PRIORITIES),
      raised: count,
      acknowledged: count,
      meanAckSeconds: z.number().nonnegative().nullable(),
      maxAckSeconds: z.number().nonnegative().nullable(),
    }),
  ),
});
export type StatsOverview = z.infer<typeof statsOverviewSchema>;

/** The readings charted as distributions: the wire name, and the edges of their bins (a bin holds [edge, next edge)). */
export const DISTRIBUTIONS = {
  pressure: { reading: 'RCP', edges: [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0] },
  oxygen: { reading: 'RCPi02', edges: [19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30] },
  temperature: { reading: 'RCT', edges: [16, 18, 20, 22, 24, 26, 28, 30, 32] },
} as const;
export type DistributionName = keyof typeof DISTRIBUTIONS;
export const DISTRIBUTION_NAMES = Object.keys(DISTRIBUTIONS) as DistributionName[];

/** A bin: from (null: below the first edge) to (null: from the last edge on), and the chamber-hours whose mean fell in it. */
const binSchema = z.strictObject({ from: z.number().nullable(), to: z.number().nullable(), hours: count });
export type DistributionBin = z.infer<typeof binSchema>;

export const statsReadingsSchema = z.strictObject({
  from: z.number(),
  to: z.number(),
  distributions: z.strictObject({ pressure: z.array(binSchema), oxygen: z.array(binSchema), temperature: z.array(binSchema) }),
});
export type StatsReadings = z.infer<typeof statsReadingsSchema>;

/** The bins of a distribution, empty: one below the first edge, one per pair of edges, one from the last edge on. */
export const emptyBins = (name: DistributionName): DistributionBin[] => {
  const { edges } = DISTRIBUTIONS[name];
  return [null, ...edges].map((from, i) => ({ from, to: edges[i] ?? null, hours: 0 }));
};

/** The bin a mean falls in (index into emptyBins). */
export const binOf = (name: DistributionName, mean: number): number => DISTRIBUTIONS[name].edges.filter((edge) => mean >= edge).length;

export const pivotAnswerSchema = z.strictObject({
  from: z.number(),
  to: z.number(),
  measure: z.enum(PIVOT_MEASURES),
  by: z.enum(PIVOT_DIMENSIONS),
  rows: z.array(z.strictObject({ key: z.string(), label: z.string(), value: z.number().nonnegative() })),
});
export type PivotAnswer = z.infer<typeof pivotAnswerSchema>;

/** The local day number (days since the epoch in the browser's zone) of an instant, for offset `tz`. */
export const localDayNumber = (at: number, tz: number): number => Math.floor((at - tz * MINUTE_MS) / DAY_MS);
/** A local day number as `YYYY-MM-DD`. */
export const dayLabel = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The local days the range touches, oldest first. */
export const daysOf = (range: Range, tz: number): number[] => {
  const first = localDayNumber(range.from, tz);
  const last = localDayNumber(range.to - 1, tz);
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
};

/** A measure summed in the store by chamber or by local day: what the pivot groups further. */
export type PivotCells = { of: 'chamber'; cells: ReadonlyMap<string, number> } | { of: 'day'; cells: ReadonlyMap<number, number> };

/** What the pivot needs to know of a chamber. */
export interface PivotChamber {
  id: string;
  name: string;
  site: string;
  type: number;
  typeName: string;
}

/** Which store grouping a dimension needs. */
export const cellsFor = (by: PivotDimension): PivotCells['of'] => (by === 'day' || by === 'month' ? 'day' : 'chamber');

/**
 * The pivot: a measure summed per chamber (site, type, chamber) or per local day (day, month) grouped
 * by the asked dimension. Every chamber in scope and every day of the range has its row, 0 when nothing
 * was counted; chambers' groups are sorted by label, days and months by time.
 */
export const pivot = (by: PivotDimension, cells: PivotCells, chambers: readonly PivotChamber[], range: Range, tz: number): PivotAnswer['rows'] => {
  const sums = new Map<string, { label: string; value: number }>();
  const add = (key: string, label: string, value: number) => {
    const row = sums.get(key) ?? { label, value: 0 };
    row.value += value;
    sums.set(key, row);
  };
  if (cells.of === 'day') {
    for (const day of daysOf(range, tz)) {
      const label = by === 'month' ? dayLabel(day).slice(0, 7) : dayLabel(day);
      add(label, label, cells.cells.get(day) ?? 0);
    }
    return [...sums].map(([key, { label, value }]) => ({ key, label, value }));
  }
  for (const chamber of chambers) {
    const value = cells.cells.get(chamber.id) ?? 0;
    if (by === 'site') add(chamber.site, chamber.site, value);
    else if (by === 'type') add(String(chamber.type), chamber.typeName, value);
    else add(chamber.id, chamber.name, value);
  }
  return [...sums]
    .map(([key, { label, value }]) => ({ key, label, value }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.key.localeCompare(b.key));
};

/** Hours, rounded to the hundredth (what the answers carry). */
export const toHours = (ms: number): number => Math.round((ms / 3_600_000) * 100) / 100;
