import { describe, expect, it } from 'vitest';
import { binOf, daysOf, emptyBins, pivot, pivotQuerySchema, statsRangeSchema, type PivotChamber } from './stats';
import { DAY_MS } from './time';

const CHAMBERS: PivotChamber[] = [
  { id: 'B', name: 'Beta', site: 'North', type: 2, typeName: 'Model two' },
  { id: 'A', name: 'Alpha', site: 'North', type: 1, typeName: 'Model one' },
  { id: 'C', name: 'Gamma', site: 'East', type: 2, typeName: 'Model two' },
];
/** 2026-01-30 to 2026-02-02 (four UTC days). */
const RANGE = { from: Date.UTC(2026, 0, 30), to: Date.UTC(2026, 1, 3) };
const day = (date: number) => Math.floor(date / DAY_MS);

describe('the pivot', () => {
  const byChamber = { of: 'chamber' as const, cells: new Map([['A', 2], ['B', 3], ['C', 5], ['gone', 7]]) };

  it('sums chambers into their site or type, every group listed, by label; a chamber out of the list counts nowhere', () => {
    expect(pivot('site', byChamber, CHAMBERS, RANGE, 0)).toEqual([
      { key: 'East', label: 'East', value: 5 },
      { key: 'North', label: 'North', value: 5 },
    ]);
    expect(pivot('type', byChamber, CHAMBERS, RANGE, 0)).toEqual([
      { key: '1', label: 'Model one', value: 2 },
      { key: '2', label: 'Model two', value: 8 },
    ]);
    expect(pivot('chamber', { of: 'chamber', cells: new Map([['C', 1]]) }, CHAMBERS, RANGE, 0)).toEqual([
      { key: 'A', label: 'Alpha', value: 0 },
      { key: 'B', label: 'Beta', value: 0 },
      { key: 'C', label: 'Gamma', value: 1 },
    ]);
  });

  it('lists every day of the range in order, and sums days into their months', () => {
    const byDay = { of: 'day' as const, cells: new Map([[day(Date.UTC(2026, 0, 31)), 4], [day(Date.UTC(2026, 1, 2)), 1], [day(Date.UTC(2026, 1, 9)), 99]]) };
    expect(pivot('day', byDay, CHAMBERS, RANGE, 0).map((row) => [row.label, row.value])).toEqual([
      ['2026-01-30', 0],
      ['2026-01-31', 4],
      ['2026-02-01', 0],
      ['2026-02-02', 1],
    ]);
    expect(pivot('month', byDay, CHAMBERS, RANGE, 0)).toEqual([
      { key: '2026-01', label: '2026-01', value: 4 },
      { key: '2026-02', label: '2026-02', value: 1 },
    ]);
  });

  it("counts the browser's days: in China the range starts on the evening of the 29th UTC", () => {
    expect(daysOf(RANGE, -480).map((each) => new Date(each * DAY_MS).toISOString().slice(0, 10))).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02', '2026-02-03']);
  });
});

describe('the distributions and queries', () => {
  it('puts a mean in the bin whose lower edge it reaches, with open bins at both ends', () => {
    const bins = emptyBins('pressure');
    expect(bins[0]).toEqual({ from: null, to: 1, hours: 0 });
    expect(bins.at(-1)).toEqual({ from: 2, to: null, hours: 0 });
    expect([binOf('pressure', 0.9), binOf('pressure', 1), binOf('pressure', 1.45), binOf('pressure', 2.4)]).toEqual([0, 1, 5, 11]);
  });

  it('refuses an empty or too long range and an unknown measure or dimension', () => {
    expect(statsRangeSchema.safeParse({ from: '10', to: '10' }).success).toBe(false);
    expect(statsRangeSchema.safeParse({ from: '1', to: String(401 * DAY_MS) }).success).toBe(false);
    expect(statsRangeSchema.parse({ from: '1', to: String(400 * DAY_MS) })).toEqual({ from: 1, to: 400 * DAY_MS, tz: 0 });
    expect(pivotQuerySchema.safeParse({ ...RANGE, measure: 'visitors', by: 'site' }).success).toBe(false);
    expect(pivotQuerySchema.safeParse({ ...RANGE, measure: 'alarms', by: 'week' }).success).toBe(false);
  });
});
