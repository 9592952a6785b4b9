import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useDataProvider } from 'react-admin';
import { isStanding } from '../../domain/alarms/open';
import type { DevicePatch } from '../../domain/live';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useLiveEvent } from '../../providers/live';

/** At most one refetch in this long, however many chambers change (docs/monitoring.md, "The workplace"). */
export const FIGURES_REFETCH_MS = 3000;

/** The fields of a device patch the figures count by. */
const COUNTED = ['Online', 'State', 'SessionOC'] as const;
type Counted = Pick<DevicePatch, (typeof COUNTED)[number]>;

/**
 * The fleet's figures for the browser's day, asked again when the live stream reports a chamber going
 * online or offline, changing state or starting or ending a session, or an alarm starting or ceasing to
 * stand or changing priority: once FIGURES_REFETCH_MS after the first such change, whatever follows in
 * between. A patch repeating what the last one of its chamber said (every reading says Online) asks
 * nothing, nor does an alarm's change the figures do not count (an acknowledgement while it is active).
 */
export const useFleetSummary = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const tz = new Date().getTimezoneOffset();
  const query = useQuery({ queryKey: ['fleetSummary', tz], queryFn: () => dataProvider.fleetSummary(tz) });
  const known = useRef(new Map<string, Counted>());
  /** Each alarm seen: its priority while it stands, '' when it does not. */
  const knownAlarms = useRef(new Map<number, string>());
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { refetch } = query;

  useEffect(() => () => clearTimeout(pending.current), []);

  const refetchSoon = () => {
    if (pending.current !== undefined) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      void refetch();
    }, FIGURES_REFETCH_MS);
  };

  useLiveEvent('device', (patch) => {
    const before = known.current.get(patch.Id);
    // Most patches are readings repeating what the chamber said before: they cost one comparison, nothing kept.
    if (!COUNTED.some((field) => patch[field] !== undefined && (before === undefined || before[field] !== patch[field]))) return;
    known.current.set(patch.Id, { ...before, ...Object.fromEntries(COUNTED.filter((field) => patch[field] !== undefined).map((field) => [field, patch[field]])) });
    refetchSoon();
  });

  useLiveEvent('alarm', (alarm) => {
    const counted = isStanding(alarm) ? alarm.priority : '';
    const before = knownAlarms.current.get(alarm.id);
    knownAlarms.current.set(alarm.id, counted);
    if (before !== counted) refetchSoon();
  });

  return query;
};
