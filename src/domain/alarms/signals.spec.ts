import { describe, expect, it } from 'vitest';
import type { AlarmRecord } from './record';
import {
  breaksSilence,
  chooseBanner,
  elapsedText,
  floodSize,
  HIGH_PATTERN,
  isMediumRaise,
  MEDIUM_PATTERN,
  newestStanding,
  silenceFrom,
  silenceHolds,
  soundState,
  standingAlarmsLink,
  waitingHighIds,
  withRaises,
  type RaiseRecord,
} from './signals';

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;

const alarm = (id: number, fields: Partial<AlarmRecord> = {}): AlarmRecord => ({
  id,
  deviceId: `OC-${id}`,
  kind: 'o2-high',
  priority: 'high',
  state: 'active-unacked',
  value: 23.6,
  threshold: 23.5,
  raisedAt: NOW - 60 * MINUTE + id * 1000,
  ackedAt: null,
  ackedBy: null,
  closedAt: null,
  shelvedUntil: null,
  comment: null,
  ...fields,
});

const NO_RAISES: RaiseRecord = new Map();

/** `count` alarms raised a second apart from `from`, ids from `firstId`. */
const raisedSince = (from: number, count: number, firstId = 100): AlarmRecord[] =>
  Array.from({ length: count }, (_, index) => alarm(firstId + index, { raisedAt: from + index * 1000 }));

describe('the alarm banner', () => {
  it('is red for a high alarm waiting, naming the newest of them and counting them', () => {
    const banner = chooseBanner([alarm(1), alarm(2), alarm(3, { priority: 'medium' }), alarm(4, { state: 'active-acked' })], NO_RAISES, NOW);
    expect(banner).toEqual({ priority: 'high', count: 2, shown: alarm(2), flood: 0 });
  });

  it('counts a returned alarm still to be acknowledged as waiting', () => {
    expect(chooseBanner([alarm(1, { state: 'rtn-unacked' })], NO_RAISES, NOW)?.shown.id).toBe(1);
  });

  it('is yellow when only medium alarms wait, and absent for low ones or acknowledged, shelved and suppressed ones', () => {
    const medium = [alarm(1, { priority: 'medium' }), alarm(2, { priority: 'low' }), alarm(3, { state: 'active-acked' })];
    expect(chooseBanner(medium, NO_RAISES, NOW)).toEqual({ priority: 'medium', count: 1, shown: medium[0], flood: 0 });
    const quiet = [alarm(1, { priority: 'low' }), alarm(2, { state: 'active-acked' }), alarm(3, { state: 'shelved' }), alarm(4, { state: 'suppressed' })];
    expect(chooseBanner(quiet, NO_RAISES, NOW)).toBeUndefined();
  });
});

describe('the alarm flood', () => {
  it('is more than ten alarms raised within ten minutes, closed ones included', () => {
    const ten = withRaises(NO_RAISES, raisedSince(NOW - 9 * MINUTE, 10), NOW);
    expect(floodSize(ten, NOW)).toBe(0);
    const eleven = withRaises(ten, [alarm(500, { raisedAt: NOW - 1000, state: 'closed' })], NOW);
    expect(floodSize(eleven, NOW)).toBe(11);
  });

  it('ends as the raises grow older than ten minutes, which the record then forgets', () => {
    const record = withRaises(NO_RAISES, raisedSince(NOW - 10 * MINUTE + 5000, 11), NOW);
    expect(floodSize(record, NOW)).toBe(11);
    expect(floodSize(record, NOW + 5000)).toBe(0);
    expect(withRaises(record, [], NOW + 5000).size).toBe(10);
  });

  it('records each alarm once, at its first raise, and never one raised before the window', () => {
    const record = withRaises(NO_RAISES, [alarm(1, { raisedAt: NOW - 1000 }), alarm(2, { raisedAt: NOW - 11 * MINUTE })], NOW);
    expect([...record]).toEqual([[1, NOW - 1000]]);
    expect(withRaises(record, [alarm(1, { raisedAt: NOW - 10, state: 'active-unacked' })], NOW)).toBe(record);
  });

  it('collapses the banner onto the flood’s first alarm still waiting, with the flood’s size', () => {
    const alarms = raisedSince(NOW - 5 * MINUTE, 12);
    const open = alarms.map((each, index) => (index === 0 ? { ...each, state: 'active-acked' as const } : each));
    const banner = chooseBanner(open, withRaises(NO_RAISES, alarms, NOW), NOW);
    expect(banner).toMatchObject({ priority: 'high', count: 11, flood: 12 });
    expect(banner?.shown.id).toBe(alarms[1]?.id);
  });
});

describe('the silence', () => {
  it('lasts two minutes and no longer', () => {
    const silence = silenceFrom(NOW, [1, 2]);
    expect(silenceHolds(silence, [1, 2], NOW + 2 * MINUTE - 1)).toBe(true);
    expect(silenceHolds(silence, [1, 2], NOW + 2 * MINUTE)).toBe(false);
    expect(silenceHolds(undefined, [1], NOW)).toBe(false);
  });

  it('ends when a new high alarm is raised, but not when one of its alarms is acknowledged', () => {
    const silence = silenceFrom(NOW, [1, 2]);
    expect(silenceHolds(silence, [2], NOW + MINUTE)).toBe(true);
    expect(silenceHolds(silence, [1, 2, 3], NOW + MINUTE)).toBe(false);
  });

  it('is ended for good by a live event of a high alarm it was not asked for', () => {
    const silence = silenceFrom(NOW, [1]);
    expect(breaksSilence(silence, alarm(2))).toBe(true);
    expect(breaksSilence(silence, alarm(2, { state: 'rtn-unacked' }))).toBe(true);
    expect(breaksSilence(silence, alarm(1))).toBe(false);
    expect(breaksSilence(silence, alarm(3, { priority: 'medium' }))).toBe(false);
    expect(breaksSilence(silence, alarm(4, { state: 'active-acked' }))).toBe(false);
    expect(breaksSilence(undefined, alarm(2))).toBe(false);
  });

  it('covers the high alarms waiting when asked for', () => {
    const open = [alarm(1), alarm(2, { state: 'active-acked' }), alarm(3, { priority: 'medium' }), alarm(4, { state: 'rtn-unacked' })];
    expect(waitingHighIds(open)).toEqual([1, 4]);
  });
});

describe('the sound', () => {
  it('plays for a waiting high alarm unless silenced, and says when the browser blocks it', () => {
    expect(soundState({ high: true, medium: false, silenced: false, audio: 'running' })).toBe('playing');
    expect(soundState({ high: true, medium: false, silenced: true, audio: 'running' })).toBe('silenced');
    expect(soundState({ high: true, medium: false, silenced: false, audio: 'blocked' })).toBe('blocked');
    expect(soundState({ high: false, medium: true, silenced: false, audio: 'blocked' })).toBe('blocked');
  });

  it('is off with nothing waiting, between medium tones, and without Web Audio', () => {
    expect(soundState({ high: false, medium: false, silenced: false, audio: 'blocked' })).toBe('off');
    expect(soundState({ high: false, medium: true, silenced: false, audio: 'running' })).toBe('off');
    expect(soundState({ high: true, medium: false, silenced: false, audio: 'none' })).toBe('off');
  });

  it('announces a medium alarm once, when raised', () => {
    expect(isMediumRaise(alarm(1, { priority: 'medium' }), new Set())).toBe(true);
    expect(isMediumRaise(alarm(1, { priority: 'medium' }), new Set([1]))).toBe(false);
    expect(isMediumRaise(alarm(1, { priority: 'medium', state: 'active-acked' }), new Set())).toBe(false);
    expect(isMediumRaise(alarm(1), new Set())).toBe(false);
  });

  it('sounds five pulses, three then two, for high, and three slower lower ones for medium', () => {
    const starts = HIGH_PATTERN.pulses.map(({ at }) => at);
    const gaps = starts.slice(1).map((at, index) => at - (starts[index] ?? 0));
    const [quick = 0, , pause = 0] = gaps;
    expect(gaps).toEqual([quick, quick, pause, quick]);
    expect(pause).toBeGreaterThan(quick);
    expect(MEDIUM_PATTERN.pulses).toHaveLength(3);
    expect(MEDIUM_PATTERN.hz).toBeLessThan(HIGH_PATTERN.hz);
  });
});

describe('the app bar', () => {
  it('names the newest-raised standing alarm, not a shelved one', () => {
    expect(newestStanding([alarm(1), alarm(3, { state: 'shelved' }), alarm(2, { state: 'active-acked' })])?.id).toBe(2);
    expect(newestStanding([alarm(1, { state: 'suppressed' })])).toBeUndefined();
  });

  it('links each count to the alarm list filtered by its priority and the standing states, and View all to those of every priority', () => {
    const url = new URL(standingAlarmsLink('medium'), 'http://console.test');
    expect(url.pathname).toBe('/alarms');
    expect(JSON.parse(url.searchParams.get('filter') ?? '')).toEqual({ priority: 'medium', state: ['active-unacked', 'active-acked', 'rtn-unacked'] });
    const all = new URL(standingAlarmsLink(), 'http://console.test');
    expect(JSON.parse(all.searchParams.get('filter') ?? '')).toEqual({ state: ['active-unacked', 'active-acked', 'rtn-unacked'] });
  });
});

describe('the time since an alarm was raised', () => {
  it('reads as minutes and seconds, with hours once past one', () => {
    expect(elapsedText(42_500)).toBe('00:42');
    expect(elapsedText(12 * MINUTE + 5000)).toBe('12:05');
    expect(elapsedText(62 * MINUTE + 5000)).toBe('1:02:05');
    expect(elapsedText(-3000)).toBe('00:00');
  });
});
