import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { DevicePatch } from '../../domain/live';
import { alarmsConfig } from '../../resources/alarms/config';
import { devicesConfig } from '../../resources/devices/config';
import { ordersConfig } from '../../resources/orders/config';
import { stateRecordsConfig } from '../../resources/state-records/config';
import type { LiveConnection } from './connection';

/**
 * react-admin's query cache fed by the live stream (docs/live.md, "The console"). react-admin keys its
 * queries `[resource, method, params]`:
 * - a device patch is merged into every cached `devices` record with that Id, whatever the query
 *   (getOne, getList, getInfiniteList, getMany, getManyReference), keeping each query's age, so lists and
 *   pages change in place without a request;
 * - a new reading makes the open `state-records` lists refetch, and a change of order or session the open
 *   `orders` lists, each at most once per LIST_REFETCH_MS (a list's page, sort, filter and total are the
 *   server's to say; guessing where a reading lands would go wrong on most of them);
 * - an `alarm` event makes every open `alarms` query refetch (the list, an alarm's page and its history),
 *   at most once per LIST_REFETCH_MS however many alarms change at once;
 * - a reset or a polling tick refetches every open query of the live resources.
 */

const LIVE_RESOURCES: readonly string[] = [devicesConfig.name, stateRecordsConfig.name, ordersConfig.name, alarmsConfig.name];

const LIST_METHODS = new Set(['getList', 'getInfiniteList', 'getManyReference']);

type CachedRecord = Record<string, unknown> & { id?: unknown };

/** The record with the patch's fields over its own (the newest value wins; an absent field stays). */
const withPatch = <R extends object>(record: R, patch: DevicePatch): R => {
  const next = { ...record } as Record<string, unknown>;
  for (const [field, value] of Object.entries(patch)) if (value !== undefined) next[field] = value;
  return next as R;
};

/** The records with the patches applied; the same array when none applies. */
const patchRecords = (records: CachedRecord[], patches: ReadonlyMap<string, DevicePatch>): CachedRecord[] => {
  let changed = false;
  const next = records.map((record) => {
    const patch = patches.get(String(record.id));
    if (patch === undefined) return record;
    changed = true;
    return withPatch(record, patch);
  });
  return changed ? next : records;
};

interface ListResult {
  data: CachedRecord[];
}

/** A cached query result of one react-admin method, patched; the same value when nothing applies. */
const patchResult = (method: unknown, result: unknown, patches: ReadonlyMap<string, DevicePatch>): unknown => {
  if (result === undefined || result === null) return result;
  switch (method) {
    case 'getOne': {
      const patch = patches.get(String((result as CachedRecord).id));
      return patch === undefined ? result : withPatch(result as CachedRecord, patch);
    }
    case 'getMany':
      return patchRecords(result as CachedRecord[], patches);
    case 'getList':
    case 'getManyReference': {
      const list = result as ListResult;
      const data = patchRecords(list.data, patches);
      return data === list.data ? result : { ...list, data };
    }
    case 'getInfiniteList': {
      const infinite = result as { pages: ListResult[] };
      const pages = infinite.pages.map((page) => {
        const data = patchRecords(page.data, patches);
        return data === page.data ? page : { ...page, data };
      });
      return pages.every((page, index) => page === infinite.pages[index]) ? result : { ...infinite, pages };
    }
    default:
      return result;
  }
};

/** Merges the patches (by device Id) into every cached devices query that holds one of those devices. */
const patchDevices = (queryClient: QueryClient, patches: ReadonlyMap<string, DevicePatch>): void => {
  for (const [key, result] of queryClient.getQueriesData({ queryKey: [devicesConfig.name] })) {
    const next = patchResult(key[1], result, patches);
    // The query keeps its age: a patch updates some fields, it does not make the rest fresh.
    if (next !== result) queryClient.setQueryData(key, next, { updatedAt: queryClient.getQueryState(key)?.dataUpdatedAt });
  }
};

const isList = (key: QueryKey): boolean => LIST_METHODS.has(String(key[1]));

/** Refetches the open lists of a resource (the others are only marked stale). */
const refetchLists = (queryClient: QueryClient, resource: string): Promise<void> =>
  queryClient.invalidateQueries({ queryKey: [resource], predicate: (query) => isList(query.queryKey) });

/** Refetches every open query of the live resources. */
const refetchLive = async (queryClient: QueryClient): Promise<void> => {
  await Promise.all(LIVE_RESOURCES.map((resource) => queryClient.invalidateQueries({ queryKey: [resource] })));
};

/** Runs `run` at once, then at most once per `ms`: calls in between are folded into one at the window's end. */
const throttle = (run: () => void, ms: number) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let again = false;
  const tick = (): void => {
    if (!again) {
      timer = undefined;
      return;
    }
    again = false;
    run();
    timer = setTimeout(tick, ms);
  };
  return {
    call(): void {
      if (timer !== undefined) {
        again = true;
        return;
      }
      run();
      timer = setTimeout(tick, ms);
    },
    cancel: (): void => clearTimeout(timer),
  };
};

export const LIST_REFETCH_MS = 2000;

/** Feeds `queryClient` from `connection` until the returned function is called. */
export const bindLiveCache = (connection: LiveConnection, queryClient: QueryClient): (() => void) => {
  // Patches arriving together (one network chunk) are applied in one pass over the cache.
  const pending = new Map<string, DevicePatch>();
  const applyPending = (): void => {
    const batch = new Map(pending);
    pending.clear();
    patchDevices(queryClient, batch);
  };
  const readings = throttle(() => void refetchLists(queryClient, stateRecordsConfig.name), LIST_REFETCH_MS);
  const orders = throttle(() => void refetchLists(queryClient, ordersConfig.name), LIST_REFETCH_MS);
  const alarms = throttle(() => void queryClient.invalidateQueries({ queryKey: [alarmsConfig.name] }), LIST_REFETCH_MS);
  const refetchAll = () => void refetchLive(queryClient);

  const unsubscribe = [
    connection.on('event', (event) => {
      if (event.type === 'alarm') alarms.call();
      if (event.type !== 'device') return;
      const patch = event.data;
      if (pending.size === 0) queueMicrotask(applyPending);
      const earlier = pending.get(patch.Id);
      pending.set(patch.Id, earlier === undefined ? patch : withPatch(earlier, patch));
      if (patch.Reading !== undefined) readings.call();
      if (patch.OrderNum !== undefined || patch.SessionOC !== undefined) orders.call();
    }),
    connection.on('reset', refetchAll),
    connection.on('poll', refetchAll),
  ];
  return () => {
    unsubscribe.forEach((off) => off());
    readings.cancel();
    orders.cancel();
    alarms.cancel();
  };
};
