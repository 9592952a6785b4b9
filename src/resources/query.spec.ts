import { describe, expect, it } from 'vitest';
import { devicesConfig } from './devices/config';
import { applyListQuery, listBodySchema, toWireFilter } from './query';
import { stateRecordsConfig } from './state-records/config';

const devices = [
  { Id: 'OC-3', name: 'West', Type: 1, State: 'Stop', UpdateTime: 300, Location: 'Hall B' },
  { Id: 'OC-1', name: 'North', Type: 2, State: 'Work', UpdateTime: 100, Location: 'hall a' },
  { Id: 'OC-2', name: 'East', Type: 2, State: 'Work', UpdateTime: null, Location: 'Annex' },
];

describe('toWireFilter', () => {
  it('nests range bounds and drops empty inputs', () => {
    expect(toWireFilter({ Time_gte: 1, Time_lte: 9, SS: 'F', Id: '', RCP: null })).toEqual({ Time: { gte: 1, lte: 9 }, SS: 'F' });
  });
});

describe('applyListQuery', () => {
  const query = (body: Parameters<typeof applyListQuery>[2]) => applyListQuery(devicesConfig, devices, body);

  it('counts a resource with countUpTo no further than that, and says its total is then a lower bound', () => {
    const readings = Array.from({ length: 30 }, (_, i) => ({ Id: 'OC-1', Time: i }));
    const counted = { ...stateRecordsConfig, countUpTo: 10 };
    const answer = (current: number) => applyListQuery(counted, readings, { current, pageSize: 4 });
    expect(answer(1)).toMatchObject({ total: 11, totalIsLowerBound: true });
    expect(answer(1).list.map((r) => r.Time)).toEqual([29, 28, 27, 26]);
    // A page deeper than countUpTo is counted one past itself; the last one to the end, exactly.
    expect(answer(4)).toMatchObject({ total: 17, totalIsLowerBound: true });
    expect(answer(8)).toEqual({ list: [{ Id: 'OC-1', Time: 1 }, { Id: 'OC-1', Time: 0 }], total: 30 });
    expect(applyListQuery(counted, readings.slice(0, 10), { current: 1, pageSize: 4 })).toEqual({ list: expect.any(Array), total: 10 });
  });

  it('pages with current and pageSize and counts the whole match', () => {
    // No sort given: the devices' default, Id ascending.
    expect(query({ current: 2, pageSize: 2 })).toEqual({ list: [devices[0]], total: 3 });
  });

  it('matches text anywhere ignoring case, lists exactly, ranges inclusively', () => {
    expect(query({ current: 1, pageSize: 10, filter: { Location: 'HALL' } }).list.map((d) => d.Id)).toEqual(['OC-1', 'OC-3']);
    expect(query({ current: 1, pageSize: 10, filter: { Id: ['OC-1', 'OC-2'] } }).total).toBe(2);
    expect(query({ current: 1, pageSize: 10, filter: { Id: ['OC'] } }).total).toBe(0);
    expect(query({ current: 1, pageSize: 10, filter: { UpdateTime: { gte: 100, lte: 200 } } }).list.map((d) => d.Id)).toEqual(['OC-1']);
    expect(query({ current: 1, pageSize: 10, filter: { State: 'Work', Type: 2 } }).total).toBe(2);
  });

  it('sorts both ways with missing values last', () => {
    const sorted = (order: 'ASC' | 'DESC') => query({ current: 1, pageSize: 10, sort: { field: 'UpdateTime', order } }).list.map((d) => d.Id);
    expect(sorted('ASC')).toEqual(['OC-1', 'OC-3', 'OC-2']);
    expect(sorted('DESC')).toEqual(['OC-3', 'OC-1', 'OC-2']);
  });
});

describe('listBodySchema', () => {
  const schema = listBodySchema(stateRecordsConfig);

  it('defaults to page 1 of 10', () => {
    expect(schema.parse({})).toEqual({ current: 1, pageSize: 10 });
  });

  it('allows sort and filter only on configured fields', () => {
    expect(schema.safeParse({ sort: { field: 'RCPi02', order: 'DESC' }, filter: { Time: { gte: 0 }, SS: 'M', Id: ['OC-1'] } }).success).toBe(true);
    expect(schema.safeParse({ sort: { field: 'HmBP', order: 'DESC' } }).success).toBe(false);
    expect(schema.safeParse({ filter: { RCRH: 50 } }).success).toBe(false);
    expect(schema.safeParse({ filter: { SS: 'X' } }).success).toBe(false);
    expect(schema.safeParse({ pageSize: 1001 }).success).toBe(false);
    expect(schema.safeParse({ current: 0 }).success).toBe(false);
    expect(schema.safeParse({ extra: 1 }).success).toBe(false);
  });
});

describe('applyListQuery ordering', () => {
  const records = [
    { Id: 'b', name: 'North', Type: 2 },
    { Id: 'a', name: 'north', Type: 2 },
    { Id: 'c', name: 'East', Type: 1 },
  ];
  const ids = (body: Parameters<typeof applyListQuery>[2]) => applyListQuery(devicesConfig, records, body).list.map((d) => d.Id);

  it('uses the default sort without one, and breaks ties by the id field in the same direction', () => {
    expect(ids({ current: 1, pageSize: 10 })).toEqual(['a', 'b', 'c']);
    expect(ids({ current: 1, pageSize: 10, sort: { field: 'Type', order: 'DESC' } })).toEqual(['b', 'a', 'c']);
    expect(ids({ current: 1, pageSize: 10, sort: { field: 'Type', order: 'ASC' } })).toEqual(['c', 'a', 'b']);
  });

  it('orders text by code point, as the server\'s binary collation does', () => {
    expect(ids({ current: 1, pageSize: 10, sort: { field: 'name', order: 'ASC' } })).toEqual(['c', 'b', 'a']);
  });
});
