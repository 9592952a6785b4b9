import { useState } from 'react';
import { useGetList } from 'react-admin';
import type { Telemetry } from '../../../domain/mqtt/payloads';
import { MAX_PAGE_SIZE } from '../../query';
import { useLiveEvent } from '../../../providers/live';
import { stateRecordsConfig } from '../../state-records/config';

/** The live charts' window: the last 15 minutes. */
export const LIVE_WINDOW_MS = 15 * 60_000;

/**
 * A device's readings of the last 15 minutes, oldest first: the state records since the page opened
 * minus 15 minutes (one list request), then every reading the live stream brings (a `device` event's
 * Reading), each time once. Readings that fall out of the window are dropped as new ones come.
 */
export const useLiveWindow = (Id: string): Telemetry[] => {
  const [since] = useState(() => Date.now() - LIVE_WINDOW_MS);
  const { data: recorded = [] } = useGetList<Telemetry & { id: string }>(stateRecordsConfig.name, {
    filter: { Id, Time_gte: since },
    sort: { field: 'Time', order: 'DESC' },
    pagination: { page: 1, perPage: MAX_PAGE_SIZE },
  });
  const [live, setLive] = useState<Telemetry[]>([]);
  useLiveEvent('device', (patch) => {
    if (patch.Id !== Id || patch.Reading === undefined) return;
    const reading = patch.Reading;
    setLive((kept) => [...kept.filter((old) => old.Time >= reading.Time - LIVE_WINDOW_MS), reading]);
  });
  const byTime = new Map<number, Telemetry>();
  for (const reading of [...recorded, ...live]) byTime.set(reading.Time, reading);
  const newest = Math.max(since + LIVE_WINDOW_MS, ...byTime.keys());
  return [...byTime.values()].filter((reading) => reading.Time >= newest - LIVE_WINDOW_MS).sort((a, b) => a.Time - b.Time);
};
