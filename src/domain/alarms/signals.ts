import { isStanding, isUnacked, STANDING_ALARM_STATES } from './open';
import type { AlarmRecord } from './record';
import type { AlarmPriority } from './rules';

/**
 * What the console signals about the open alarms (docs/alarms.md, "Signals"): the banner, its sound, the
 * silence and the flood, as pure functions of the open set, the raises seen and the time. React and Web
 * Audio only carry them out (src/layout/alarms/).
 */

/** How long the Silence button quiets the sound: never for good. */
const SILENCE_MS = 2 * 60_000;

/** An alarm flood: more than FLOOD_MIN alarms raised within FLOOD_WINDOW_MS. */
const FLOOD_WINDOW_MS = 10 * 60_000;
const FLOOD_MIN = 10;

/** The priorities that show a banner; low alarms are counted in the app bar only. */
type BannerPriority = Exclude<AlarmPriority, 'low'>;

const newestFirst = (a: AlarmRecord, b: AlarmRecord): number => b.raisedAt - a.raisedAt || b.id - a.id;

/** The newest-raised standing alarm: the app bar names it beside its counts (its id, for whoever watches). */
export const newestStanding = (open: readonly AlarmRecord[]): AlarmRecord | undefined => open.filter(isStanding).sort(newestFirst)[0];

/**
 * The alarm list showing the standing alarms (of one priority, or all), as react-admin's list reads its
 * URL: the app bar's counts and the banner's "View all" lead there.
 */
export const standingAlarmsLink = (priority?: AlarmPriority): string => {
  const filter = priority === undefined ? { state: STANDING_ALARM_STATES } : { priority, state: STANDING_ALARM_STATES };
  const query = new URLSearchParams({ filter: JSON.stringify(filter), displayedFilters: JSON.stringify(priority === undefined ? {} : { priority: true }) });
  return `/alarms?${query.toString()}`;
};

/**
 * The raises a tab has seen: alarm id → when raised. The open set holds open alarms only, so a flood of
 * alarms that close again quickly would vanish from it; this record keeps each raise seen (in the first
 * read, later reads and the live events) for as long as the flood window looks back.
 */
export type RaiseRecord = ReadonlyMap<number, number>;

/** The record with `alarms` added (an id already held keeps its first raise), and raises older than the window dropped. */
export const withRaises = (record: RaiseRecord, alarms: readonly AlarmRecord[], now: number): RaiseRecord => {
  const since = now - FLOOD_WINDOW_MS;
  const fresh = alarms.filter((alarm) => alarm.raisedAt > since && !record.has(alarm.id));
  const stale = [...record.values()].some((raisedAt) => raisedAt <= since);
  if (fresh.length === 0 && !stale) return record;
  const next = new Map([...record].filter(([, raisedAt]) => raisedAt > since));
  for (const alarm of fresh) next.set(alarm.id, alarm.raisedAt);
  return next;
};

/**
 * How many alarms were raised within the window before `now` when that makes a flood; 0 otherwise. A raise
 * stamped after `now` counts too: `raisedAt` is the chamber's reading Time, and its clock may run ahead.
 */
export const floodSize = (record: RaiseRecord, now: number): number => {
  const since = now - FLOOD_WINDOW_MS;
  const count = [...record.values()].filter((raisedAt) => raisedAt > since).length;
  return count > FLOOD_MIN ? count : 0;
};

export interface Banner {
  /** Red for high, yellow for medium. */
  priority: BannerPriority;
  /** The alarms of that priority waiting for acknowledgement. */
  count: number;
  /** The alarm the banner names and Acknowledge applies to. */
  shown: AlarmRecord;
  /** In a flood, how many alarms were raised in the window (the banner is one line); 0 otherwise. */
  flood: number;
}

/**
 * The banner, or none: red while a high alarm waits for acknowledgement, yellow while only medium ones
 * do; it names the newest of them. In a flood it names the flood's first alarm that still waits, so the
 * operator starts from the cause rather than from the latest consequence.
 */
export const chooseBanner = (open: readonly AlarmRecord[], raises: RaiseRecord, now: number): Banner | undefined => {
  const waiting = open.filter((alarm) => isUnacked(alarm) && alarm.priority !== 'low');
  const priority: BannerPriority = waiting.some((alarm) => alarm.priority === 'high') ? 'high' : 'medium';
  const ofPriority = waiting.filter((alarm) => alarm.priority === priority).sort(newestFirst);
  const newest = ofPriority[0];
  if (newest === undefined) return undefined;
  const flood = floodSize(raises, now);
  const firstOfFlood = flood > 0 ? waiting.filter((alarm) => alarm.raisedAt > now - FLOOD_WINDOW_MS).sort(newestFirst).at(-1) : undefined;
  return { priority, count: ofPriority.length, shown: firstOfFlood ?? newest, flood };
};

/** The high alarms waiting for acknowledgement: what the high-priority sound is for. */
export const waitingHighIds = (open: readonly AlarmRecord[]): number[] =>
  open.filter((alarm) => alarm.priority === 'high' && isUnacked(alarm)).map((alarm) => alarm.id);

/** A silence: until when, and the high alarms that were sounding when the operator asked for it. */
export interface Silence {
  until: number;
  heard: readonly number[];
}

export const silenceFrom = (now: number, highIds: readonly number[]): Silence => ({ until: now + SILENCE_MS, heard: highIds });

/**
 * Whether a silence still holds: for SILENCE_MS and no longer, and only over the alarms it was asked
 * for, so a high alarm raised meanwhile ends it.
 */
export const silenceHolds = (silence: Silence | undefined, highIds: readonly number[], now: number): boolean =>
  silence !== undefined && now < silence.until && highIds.every((id) => silence.heard.includes(id));

/**
 * Whether a live alarm event ends the silence for good: a high alarm waiting that the silence was not
 * asked for. Acknowledging that new alarm at once does not bring the silence back.
 */
export const breaksSilence = (silence: Silence | undefined, alarm: AlarmRecord): boolean =>
  silence !== undefined && alarm.priority === 'high' && isUnacked(alarm) && !silence.heard.includes(alarm.id);

/** What the browser lets the tab play: running, blocked until a click or key, or no Web Audio at all. */
export type AudioAvailability = 'running' | 'blocked' | 'none';

/** What the banner says of its sound: the high pattern playing or silenced, blocked by the browser, or off. */
type SoundState = 'playing' | 'silenced' | 'blocked' | 'off';

/**
 * The sound's state: `playing` while a high alarm waits and no silence holds; `blocked` while there is
 * something to sound (a high or medium alarm waiting) and the browser has not let audio start yet;
 * `off` when nothing waits, between medium tones, or without Web Audio.
 */
export const soundState = ({ high, medium, silenced, audio }: { high: boolean; medium: boolean; silenced: boolean; audio: AudioAvailability }): SoundState => {
  if (audio === 'none' || !(high || medium)) return 'off';
  if (audio === 'blocked') return 'blocked';
  if (!high) return 'off';
  return silenced ? 'silenced' : 'playing';
};

/**
 * Whether a live alarm event is a medium alarm being raised that the tab has not announced yet: it gets
 * one tone. Alarms already open when the tab read them were raised before it looked, and an alarm raised
 * again after returning to normal is announced once only.
 */
export const isMediumRaise = (alarm: AlarmRecord, announced: ReadonlySet<number>): boolean =>
  alarm.priority === 'medium' && alarm.state === 'active-unacked' && !announced.has(alarm.id);

/** A tone pattern: each pulse's start and length in ms from the burst's start, at one pitch. */
export interface TonePattern {
  hz: number;
  pulses: readonly { at: number; ms: number }[];
}

/**
 * IEC 60601-1-8's shapes: high priority, a burst of five quick pulses (three, a pause, two) repeated
 * every HIGH_REPEAT_MS while a high alarm waits; medium, three slower pulses at a lower pitch, once.
 */
export const HIGH_PATTERN: TonePattern = {
  hz: 880,
  pulses: [0, 250, 500, 1000, 1250].map((at) => ({ at, ms: 150 })),
};
export const HIGH_REPEAT_MS = 10_000;
export const MEDIUM_PATTERN: TonePattern = {
  hz: 660,
  pulses: [0, 400, 800].map((at) => ({ at, ms: 200 })),
};

/** How long ago an alarm was raised, as a clock reads: `00:42`, `12:05`, `1:02:05` (never negative, whatever the clocks). */
export const elapsedText = (ms: number): string => {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const [hours, minutes, rest] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const two = (part: number) => String(part).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${two(minutes)}:${two(rest)}`;
};
