import { useMemo } from 'react';
import { useGetList } from 'react-admin';
import type { DeviceType } from '../../domain/deviceTypes';
import { deviceTypesConfig } from './config';

/** Types change when an admin edits one, rarely: a page reads them once and keeps them for minutes. */
const STALE_MS = 5 * 60_000;

/**
 * The five device types by number (one list call, shared by every component that asks): what a page
 * without a reference field needs to show a device's type name and mark its pressure against the
 * type's rated maximum (the oxygen monitor). Empty until they arrive.
 */
export const useDeviceTypes = (): ReadonlyMap<number, DeviceType> => {
  const { data } = useGetList<DeviceType>(
    deviceTypesConfig.name,
    { pagination: { page: 1, perPage: 5 }, sort: deviceTypesConfig.defaultSort },
    { staleTime: STALE_MS },
  );
  return useMemo(() => new Map((data ?? []).map((type) => [Number(type.id), type])), [data]);
};
