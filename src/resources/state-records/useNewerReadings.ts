import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveEvent } from '../../providers/live';
import { matchesFilter, toWireFilter } from '../query';
import { stateRecordsConfig } from './config';

export interface NewerReadings {
  /** Readings that arrived since the page was loaded and belong in the list. */
  count: number;
  /** The newest one's Time (0 when none). */
  newest: number;
}

const NONE: NewerReadings = { count: 0, newest: 0 };

/** A count and the page and filter it was counted for. */
interface Counted extends NewerReadings {
  loaded: unknown;
  filter: unknown;
}

/**
 * The readings the live stream brought since the readings log's page was loaded (`loaded` is that page:
 * a new one, fetched, paged, sorted or filtered, starts again from none) that its filter admits, as the
 * server would answer it. Counted on every reading, rendered at most once a frame: a fleet of 10,000
 * chambers brings 10,000 a second.
 */
export const useNewerReadings = (filterValues: Record<string, unknown>, loaded: unknown): NewerReadings => {
  const filter = useMemo(() => toWireFilter(filterValues), [filterValues]);
  const counted = useRef<Counted>({ ...NONE, loaded, filter });
  const frame = useRef<number | undefined>(undefined);
  const [shown, setShown] = useState<Counted>(() => ({ ...NONE, loaded, filter }));
  useEffect(() => () => cancelAnimationFrame(frame.current ?? 0), []);
  useLiveEvent('device', (patch) => {
    const reading = patch.Reading;
    if (reading === undefined || !matchesFilter(stateRecordsConfig, reading, filter)) return;
    const before = counted.current.loaded === loaded && counted.current.filter === filter ? counted.current : { ...NONE, loaded, filter };
    counted.current = { loaded, filter, count: before.count + 1, newest: Math.max(before.newest, reading.Time) };
    frame.current ??= requestAnimationFrame(() => {
      frame.current = undefined;
      setShown(counted.current);
    });
  });
  return shown.loaded === loaded && shown.filter === filter ? { count: shown.count, newest: shown.newest } : NONE;
};
