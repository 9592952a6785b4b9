import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { isUnacked } from '../../domain/alarms/open';
import {
  breaksSilence,
  chooseBanner,
  HIGH_PATTERN,
  HIGH_REPEAT_MS,
  isMediumRaise,
  MEDIUM_PATTERN,
  silenceFrom,
  silenceHolds,
  soundState,
  waitingHighIds,
  withRaises,
  type RaiseRecord,
  type Silence,
} from '../../domain/alarms/signals';
import { useOpenAlarms } from '../../providers/alarms';
import { useLiveEvent } from '../../providers/live';
import { useAlarmAudio } from './useAlarmAudio';

/** A clock read once a second while subscribed: the time since raised, the silence's end, the flood's window. */
const secondClock = () => {
  let now = Date.now();
  return {
    now: () => now,
    subscribe: (changed: () => void) => {
      now = Date.now();
      const timer = setInterval(() => {
        now = Date.now();
        changed();
      }, 1000);
      return () => clearInterval(timer);
    },
  };
};

const standStill = () => () => undefined;

/** The time, kept current while `on`; when it turns on, current at once. */
const useSecondClock = (on: boolean): number => {
  const [clock] = useState(secondClock);
  return useSyncExternalStore(on ? clock.subscribe : standStill, clock.now);
};

/**
 * The banner and its sound from the tab's open alarms (src/domain/alarms/signals.ts decides; this carries
 * it out): the raises seen for the flood, the silence, the high pattern while it plays and a medium
 * alarm's one tone.
 */
export const useAlarmSignals = () => {
  const open = useOpenAlarms();
  const { audio, play } = useAlarmAudio();
  // The raises the live stream reported; the open set's own are added as it is read.
  const [heardRaises, setHeardRaises] = useState<RaiseRecord>(() => new Map());
  const [silence, setSilence] = useState<Silence | undefined>(undefined);
  const announced = useRef(new Set<number>());
  const now = useSecondClock(open.some((alarm) => isUnacked(alarm) && alarm.priority !== 'low'));
  const banner = useMemo(() => chooseBanner(open, withRaises(heardRaises, open, now), now), [open, heardRaises, now]);
  const highIds = useMemo(() => waitingHighIds(open), [open]);
  const silenced = silenceHolds(silence, highIds, now);
  const sound = soundState({ high: highIds.length > 0, medium: banner?.priority === 'medium', silenced, audio });

  useLiveEvent('alarm', (alarm) => {
    setHeardRaises((held) => withRaises(held, [alarm], Date.now()));
    if (breaksSilence(silence, alarm)) setSilence(undefined);
    if (!isMediumRaise(alarm, announced.current)) return;
    announced.current.add(alarm.id);
    if (!silenced) play(MEDIUM_PATTERN);
  });

  useEffect(() => {
    if (sound !== 'playing') return undefined;
    play(HIGH_PATTERN);
    const timer = setInterval(() => play(HIGH_PATTERN), HIGH_REPEAT_MS);
    return () => clearInterval(timer);
  }, [sound, play]);

  return {
    banner,
    sound,
    now,
    silenceUntil: silenced ? silence?.until : undefined,
    silence: () => setSilence(silenceFrom(Date.now(), highIds)),
  };
};
