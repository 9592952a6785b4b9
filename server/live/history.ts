import { randomBytes } from 'node:crypto';
import type { LiveEvent } from '../../src/domain/live';

/**
 * The recent live events of this server process (docs/live.md, "Resume"), numbered 1, 2, 3, … as they
 * arrive. A stream's message id is `<epoch>.<seq>`: the epoch is random per process start, so an id from
 * another process or from before a restart is recognised as unknown rather than misread. Bounded twice:
 * at most `capacity` events, none older than `maxAgeMs`.
 */

interface Recorded {
  seq: number;
  /** ctx.now() when it arrived. */
  at: number;
  event: LiveEvent;
}

export interface HistoryLimits {
  capacity: number;
  maxAgeMs: number;
}

/** What a stream resuming after `seq` gets: the events it missed, or a reset when they are not known here. */
type Resume = { kind: 'replay'; events: Recorded[] } | { kind: 'reset'; reason: 'unknown' | 'too-old' };

export interface History {
  /** Records an event; answers its seq. */
  append(event: LiveEvent): number;
  /** The seq of the newest event (0 before the first). */
  head(): number;
  /** The message id of a seq. */
  idOf(seq: number): string;
  /** The seq an id names, if it is one of this process's; undefined for anything else. */
  parse(id: string): number | undefined;
  /** The events after `seq`, if all of them are still kept. */
  after(seq: number): Resume;
}

const ID_PATTERN = /^([A-Za-z0-9_-]{1,16})\.(\d{1,15})$/;

export const createHistory = (limits: HistoryLimits, now: () => number): History => {
  const epoch = randomBytes(6).toString('base64url');
  // A ring: the event with seq s sits at s % capacity while dropped < s <= newest.
  const slots: (Recorded | undefined)[] = new Array<Recorded | undefined>(limits.capacity);
  let newest = 0;
  let dropped = 0;

  const slot = (seq: number): Recorded | undefined => slots[seq % limits.capacity];

  const expire = (): void => {
    const oldest = now() - limits.maxAgeMs;
    while (dropped < newest) {
      const first = slot(dropped + 1);
      if (first === undefined || first.at >= oldest) return;
      slots[first.seq % limits.capacity] = undefined;
      dropped += 1;
    }
  };

  return {
    append(event) {
      newest += 1;
      slots[newest % limits.capacity] = { seq: newest, at: now(), event };
      dropped = Math.max(dropped, newest - limits.capacity);
      expire();
      return newest;
    },
    head: () => newest,
    idOf: (seq) => `${epoch}.${seq}`,
    parse(id) {
      const match = ID_PATTERN.exec(id);
      if (match === null || match[1] !== epoch) return undefined;
      const seq = Number(match[2]);
      return seq <= newest ? seq : undefined;
    },
    after(seq) {
      expire();
      if (seq < dropped) return { kind: 'reset', reason: 'too-old' };
      const events: Recorded[] = [];
      for (let next = seq + 1; next <= newest; next += 1) {
        const recorded = slot(next);
        if (recorded !== undefined) events.push(recorded);
      }
      return { kind: 'replay', events };
    },
  };
};
