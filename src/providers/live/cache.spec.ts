import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import type { LiveEvent } from '../../domain/live';
import { fakeConnection } from '../../../tests/unit/live/fakeConnection';
import { bindLiveCache, LIST_REFETCH_MS } from './cache';

const one = { id: 'OC-1', Id: 'OC-1', name: 'One', Online: false, State: 'Work' };
const two = { id: 'OC-2', Id: 'OC-2', name: 'Two', Online: true, State: 'Stop' };
const list = { pagination: { page: 1, perPage: 10 }, sort: { field: 'Id', order: 'ASC' }, filter: {}, meta: undefined };

/** react-admin's keys, as its hooks build them. */
const KEYS = {
  one: ['devices', 'getOne', { id: 'OC-1', meta: undefined }],
  list: ['devices', 'getList', list],
  many: ['devices', 'getMany', { ids: ['OC-1', 'OC-2'], meta: undefined }],
  reference: ['devices', 'getManyReference', { target: 'Location', id: 'Hall B', ...list }],
  infinite: ['devices', 'getInfiniteList', list],
} satisfies Record<string, QueryKey>;

const seeded = () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const at = { updatedAt: 1000 };
  queryClient.setQueryData(KEYS.one, one, at);
  queryClient.setQueryData(KEYS.list, { data: [one, two], total: 2 }, at);
  queryClient.setQueryData(KEYS.many, [one, two], at);
  queryClient.setQueryData(KEYS.reference, { data: [two], total: 1 }, at);
  queryClient.setQueryData(KEYS.infinite, { pages: [{ data: [one], total: 2 }, { data: [two], total: 2 }], pageParams: [1, 2] }, at);
  const fake = fakeConnection();
  const unbind = bindLiveCache(fake.connection, queryClient);
  return { queryClient, ...fake, unbind };
};

const device = (data: Extract<LiveEvent, { type: 'device' }>['data']): LiveEvent => ({ type: 'device', data });
const reading = { Id: 'OC-1', Time: 2000, RCP: 1.3 };
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));

afterEach(() => vi.useRealTimers());

describe('the query cache fed by the live stream', () => {
  it('merges a device patch into every cached devices record with its Id, keeping the rest as it was', async () => {
    const { queryClient, emit } = seeded();
    const before = Object.fromEntries(Object.entries(KEYS).map(([name, key]) => [name, queryClient.getQueryData(key)]));
    emit('event', device({ Id: 'OC-1', Online: true }));
    emit('event', device({ Id: 'OC-1', State: 'Repair', Reading: reading }));
    await settle();
    const patched = { ...one, Online: true, State: 'Repair', Reading: reading };
    expect(queryClient.getQueryData(KEYS.one)).toEqual(patched);
    const afterList = queryClient.getQueryData<{ data: unknown[] }>(KEYS.list);
    expect(afterList?.data).toEqual([patched, two]);
    expect(afterList?.data[1]).toBe(two);
    expect(queryClient.getQueryData(KEYS.many)).toEqual([patched, two]);
    // A query without the device is left alone, object for object.
    expect(queryClient.getQueryData(KEYS.reference)).toBe(before.reference);
    const infinite = queryClient.getQueryData<{ pages: unknown[] }>(KEYS.infinite);
    expect(infinite?.pages[0]).toEqual({ data: [patched], total: 2 });
    expect(infinite?.pages[1]).toBe((before.infinite as { pages: unknown[] }).pages[1]);
    // A patch is not a refetch: each query keeps its age.
    for (const key of Object.values(KEYS)) expect(queryClient.getQueryState(key)?.dataUpdatedAt).toBe(1000);
  });

  it('makes open state-records lists refetch on new readings, at most once per window', () => {
    vi.useFakeTimers();
    const { queryClient, emit } = seeded();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const recordsList: QueryKey = ['state-records', 'getList', list];
    queryClient.setQueryData(recordsList, { data: [], total: 0 });
    for (let i = 0; i < 5; i += 1) emit('event', device({ Id: 'OC-1', Reading: { ...reading, Time: 2000 + i } }));
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryState(recordsList)?.isInvalidated).toBe(true);
    vi.advanceTimersByTime(LIST_REFETCH_MS);
    expect(invalidate).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(LIST_REFETCH_MS * 3);
    expect(invalidate).toHaveBeenCalledTimes(2);
    // A patch without a reading, order or session refetches nothing.
    emit('event', device({ Id: 'OC-1', Online: false }));
    expect(invalidate).toHaveBeenCalledTimes(2);
    expect(invalidate.mock.calls.every(([filters]) => filters?.queryKey?.[0] === 'state-records')).toBe(true);
  });

  it('makes open order lists refetch when an order or a session changes', () => {
    const { queryClient, emit } = seeded();
    const orders: QueryKey = ['orders', 'getList', list];
    const order: QueryKey = ['orders', 'getOne', { id: '1', meta: undefined }];
    queryClient.setQueryData(orders, { data: [], total: 0 });
    queryClient.setQueryData(order, { id: '1' });
    emit('event', device({ Id: 'OC-1', SessionOC: '123456', OrderNum: 'ORD-1' }));
    expect(queryClient.getQueryState(orders)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(order)?.isInvalidated).toBe(false);
  });

  it('makes every open alarms query refetch on alarm events, at most once per window, and leaves other resources alone', () => {
    vi.useFakeTimers();
    const { queryClient, emit } = seeded();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const alarmList: QueryKey = ['alarms', 'getList', list];
    const alarmHistory: QueryKey = ['alarms', 'history', 7];
    queryClient.setQueryData(alarmList, { data: [], total: 0 });
    queryClient.setQueryData(alarmHistory, []);
    const alarm = { id: 7, deviceId: 'OC-1', kind: 'o2-high', priority: 'high', state: 'active-unacked', value: 23.6, threshold: 23.5, raisedAt: 1000, ackedAt: null, ackedBy: null, closedAt: null, shelvedUntil: null, comment: null } as const;
    // A flood: ten alarms at once refetch once, then once more at the window's end.
    for (let i = 0; i < 10; i += 1) emit('event', { type: 'alarm', data: { ...alarm, id: i + 1 } });
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryState(alarmList)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(alarmHistory)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(KEYS.list)?.isInvalidated).toBe(false);
    vi.advanceTimersByTime(LIST_REFETCH_MS);
    expect(invalidate).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(LIST_REFETCH_MS * 3);
    expect(invalidate).toHaveBeenCalledTimes(2);
    expect(invalidate.mock.calls.every(([filters]) => filters?.queryKey?.[0] === 'alarms')).toBe(true);
  });

  it('refetches every query of the live resources on a reset and on each polling tick, and nothing else', () => {
    const { queryClient, emit } = seeded();
    const accounts: QueryKey = ['accounts', 'getList', list];
    queryClient.setQueryData(accounts, { data: [], total: 0 });
    for (const signal of ['reset', 'poll'] as const) {
      queryClient.resetQueries();
      Object.values(KEYS).forEach((key) => queryClient.setQueryData(key, { data: [] }));
      queryClient.setQueryData(accounts, { data: [], total: 0 });
      emit(signal, undefined);
      for (const key of Object.values(KEYS)) expect(queryClient.getQueryState(key)?.isInvalidated, `${signal} ${String(key[1])}`).toBe(true);
      expect(queryClient.getQueryState(accounts)?.isInvalidated).toBe(false);
    }
  });

  it('stops listening when unbound', async () => {
    const { queryClient, emit, unbind, listening } = seeded();
    unbind();
    emit('event', device({ Id: 'OC-1', Online: true }));
    await settle();
    expect(queryClient.getQueryData(KEYS.one)).toBe(one);
    expect(listening('event') + listening('reset') + listening('poll')).toBe(0);
  });
});
