import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider } from 'react-admin';
import { useLiveEvent, useLiveResync } from '../../providers/live';
import { devicesConfig } from '../../resources/devices/config';
import { MAX_PAGE_SIZE } from '../../resources/query';
import type { FleetDevice } from './fleetLayout';
import type { FleetStore } from './fleetStore';

/**
 * Loads every chamber in the viewer's scope into `store` (the device list, in pages of the most the list
 * call allows) and keeps it live: each device patch of the stream goes to the store, a reconnect or a
 * polling tick loads the scope again. The query's key is not react-admin's `devices`, so the live cache
 * leaves it alone: the store alone takes the patches.
 */
export const useFleet = (store: FleetStore) => {
  const dataProvider = useDataProvider();
  const query = useQuery({
    queryKey: ['monitor-dashboard', 'fleet'],
    queryFn: async (): Promise<FleetDevice[]> => {
      const fleet: FleetDevice[] = [];
      for (let page = 1; ; page += 1) {
        const { data, total } = await dataProvider.getList<FleetDevice>(devicesConfig.name, {
          pagination: { page, perPage: MAX_PAGE_SIZE },
          sort: devicesConfig.defaultSort,
          filter: {},
        });
        fleet.push(...data);
        if (data.length < MAX_PAGE_SIZE || (total !== undefined && fleet.length >= total)) return fleet;
      }
    },
  });
  const { data, refetch } = query;
  useEffect(() => {
    if (data) store.load(data);
  }, [data, store]);
  useLiveEvent('device', (patch) => store.patch(patch));
  useLiveResync(() => void refetch());
  return query;
};
