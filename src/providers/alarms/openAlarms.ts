import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDataProvider } from 'react-admin';
import { alarmCounts, alarmsByDevice, isStanding, withAlarm, type AlarmCounts, type AlarmsByDevice } from '../../domain/alarms/open';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { ConsoleDataProvider } from '../dataProvider';
import { useLiveEvent, useLiveResync } from '../live';

/**
 * The open alarms of the signed-in account's scope, held once per tab in react-query's cache under
 * OPEN_ALARMS_KEY: read once, then moved by the live stream's `alarm` events, and read again whenever the
 * stream says the tab may be stale (a reconnect, a polling tick). The banner, the app bar and the
 * chambers' marks all read this one set, so they never disagree.
 */
export const OPEN_ALARMS_KEY = ['openAlarms'] as const;

const NONE: readonly AlarmRecord[] = [];

/** The alarm's change applied to the held set; nothing before the first read (it will contain it). */
export const applyAlarmEvent = (queryClient: QueryClient, alarm: AlarmRecord): void => {
  queryClient.setQueryData<readonly AlarmRecord[]>(OPEN_ALARMS_KEY, (held) => (held === undefined ? held : withAlarm(held, alarm)));
};

/**
 * Keeps the held set current: mount once, inside the layout (ConsoleLayout does). An action's answer
 * (the alarm after it) is applied at once too, so the screen does not wait for the event.
 */
export const useOpenAlarmsFeed = (): void => {
  const queryClient = useQueryClient();
  useLiveEvent('alarm', (alarm) => applyAlarmEvent(queryClient, alarm));
  useLiveResync(() => void queryClient.invalidateQueries({ queryKey: OPEN_ALARMS_KEY }));
};

/** Every open alarm in scope (every state but closed), newest raised first when read; empty until read. */
export const useOpenAlarms = (): readonly AlarmRecord[] => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data } = useQuery({
    queryKey: OPEN_ALARMS_KEY,
    queryFn: async (): Promise<readonly AlarmRecord[]> => {
      const answer: unknown = await dataProvider.openAlarms();
      // A call that signs the user out is answered with `{ data: {} }` by react-admin's wrapper.
      return Array.isArray(answer) ? (answer as AlarmRecord[]) : NONE;
    },
    // Live events keep it current; a re-read is only for a resync.
    staleTime: Infinity,
  });
  return data ?? NONE;
};

/** Standing alarms by priority (the app bar). */
export const useAlarmCounts = (): AlarmCounts => {
  const open = useOpenAlarms();
  return useMemo(() => alarmCounts(open), [open]);
};

type Keep = (alarm: AlarmRecord) => boolean;

/** The last grouping per filter: the set it was made from and the lists it made, which the next one reuses. */
const lastGrouping = new Map<Keep, { open: readonly AlarmRecord[]; byDevice: AlarmsByDevice }>();

/** The held set by device, made once per change of the set; each device's list keeps its identity while its alarms stay the same. */
const grouped = (open: readonly AlarmRecord[], keep: Keep): AlarmsByDevice => {
  const last = lastGrouping.get(keep);
  if (last?.open === open) return last.byDevice;
  const byDevice = alarmsByDevice(open, last?.byDevice, keep);
  lastGrouping.set(keep, { open, byDevice });
  return byDevice;
};

const useByDevice = (keep: Keep): AlarmsByDevice => {
  const open = useOpenAlarms();
  return useMemo(() => grouped(open, keep), [open, keep]);
};

/** Each device's standing alarms, most urgent first: the chambers' marks (shelved and suppressed ones are not shown there). */
export const useStandingAlarmsByDevice = (): AlarmsByDevice => useByDevice(isStanding);
