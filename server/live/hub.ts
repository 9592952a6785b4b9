import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { liveEventAudience, type LiveEvent } from '../../src/domain/live';
import type { AppContext, SignedInAccount } from '../context';
import { seesEverything, visibleDeviceIds, type Viewer } from '../scope/service';
import { Coalescer } from './coalesce';
import { createHistory, type HistoryLimits } from './history';
import { SSE_HEARTBEAT, sseMessage } from './sse';
import { openSessions } from './watch';

/**
 * The live streams of one server process (docs/live.md): it takes every event of `ctx.live` into the
 * history, hands each to the streams whose viewer sees its device (an account's message notices to that
 * account's streams alone), and writes them out coalesced every
 * `flushMs`. Every `recheckMs` one pass over all streams ends those whose session ended (sign-out,
 * revocation, expiry, idleness, a disabled account) and re-reads each viewer's devices: a stream whose
 * scope changed drops what it had pending and sends a reset. A slow client never holds more than one
 * merged patch per device (plus a bounded number of outcomes): while its socket is full, nothing is
 * written and the coalescer absorbs what arrives. A `sessions` event (an account disabled, deleted, or its
 * password changed) checks that account's streams at once, without waiting for the next pass.
 */

export interface LiveSettings {
  /** How long events are gathered before a stream writes them (the live latency budget is 150 ms). */
  flushMs: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** How often sessions and scopes of open streams are checked again. */
  recheckMs: number;
  history: HistoryLimits;
  /** Outcomes pending for one stream before it resets instead. */
  maxPendingCommands: number;
}

export const LIVE_SETTINGS: LiveSettings = {
  flushMs: 25,
  heartbeatMs: 15_000,
  recheckMs: 2_000,
  history: { capacity: 10_000, maxAgeMs: 120_000 },
  maxPendingCommands: 1_000,
};

/** The devices a stream carries: every one (the super administrator), or these. */
export type LiveScope = 'all' | ReadonlySet<string>;

export const liveScope = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer): Promise<LiveScope> =>
  seesEverything(viewer) ? 'all' : new Set(await visibleDeviceIds(ctx, viewer));

const sees = (scope: LiveScope, deviceId: string): boolean => scope === 'all' || scope.has(deviceId);

const sameDevices = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => a.size === b.size && [...a].every((id) => b.has(id));

/** Why a stream tells its client to refetch: its Last-Event-ID is not known here, is too old, it fell too far behind, or its devices changed. */
type ResetReason = 'unknown' | 'too-old' | 'overflow' | 'scope';

interface Stream {
  readonly account: SignedInAccount;
  scope: LiveScope;
  readonly pending: Coalescer;
  reset: ResetReason | undefined;
  /** The socket is full: wait for 'drain'. */
  blocked: boolean;
  readonly res: ServerResponse;
}

/** A stream carries a device's events when its viewer sees the device, and an account's only when it is that account. */
const carries = (stream: Pick<Stream, 'account' | 'scope'>, event: LiveEvent): boolean => {
  const audience = liveEventAudience(event);
  return 'account' in audience ? audience.account === stream.account.id : sees(stream.scope, audience.device);
};

export interface LiveHub {
  /** The seq of the newest event. */
  head(): number;
  /**
   * Streams to `res` (its headers already written) what follows `from`: a client's Last-Event-ID, or a seq
   * of this process. An id that cannot be resumed from starts the stream with a reset.
   */
  open(res: ServerResponse, account: SignedInAccount, scope: LiveScope, from: string | number): void;
  /** How many streams of this process belong to the session of `tokenHash`. */
  streamsOf(tokenHash: string): number;
  /** Ends every stream and stops listening. */
  close(): void;
}

export const createLiveHub = (ctx: AppContext, log: FastifyBaseLogger): LiveHub => {
  const settings = LIVE_SETTINGS;
  const history = createHistory(settings.history, ctx.now);
  const streams = new Set<Stream>();
  const dirty = new Set<Stream>();
  let flushTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const idNow = (): string => history.idOf(history.head());

  /**
   * Messages already serialised in this flush, by event: streams that see the same devices (every tab of
   * one viewer, every super administrator) get the same event objects, so each is serialised once, not once
   * per stream (2–3 µs for a patch with a reading; bench:ingest has 20 streams). A patch merged in a stream
   * is a new object of its own; the seq is checked too, for an event object published twice.
   */
  type Serialised = Map<LiveEvent, { seq: number; text: string }>;

  const serialise = (seq: number, event: LiveEvent, done: Serialised): string => {
    const known = done.get(event);
    if (known?.seq === seq) return known.text;
    const text = sseMessage(history.idOf(seq), event.type, event.data);
    done.set(event, { seq, text });
    return text;
  };

  /** The text a stream has to send now: its reset, or its pending messages oldest first. */
  const outgoing = (stream: Stream, done: Serialised = new Map()): string => {
    if (stream.reset !== undefined) {
      const text = sseMessage(idNow(), 'reset', { reason: stream.reset });
      stream.reset = undefined;
      return text;
    }
    let text = '';
    for (const { seq, event } of stream.pending.take()) text += serialise(seq, event, done);
    return text;
  };

  const schedule = (stream: Stream): void => {
    dirty.add(stream);
    flushTimer ??= setTimeout(flush, settings.flushMs);
  };

  const write = (stream: Stream, text: string): void => {
    if (text === '' || stream.res.write(text)) return;
    stream.blocked = true;
    stream.res.once('drain', () => {
      stream.blocked = false;
      if (stream.reset !== undefined || stream.pending.size > 0) schedule(stream);
    });
  };

  function flush(): void {
    flushTimer = undefined;
    const done: Serialised = new Map();
    for (const stream of dirty) {
      dirty.delete(stream);
      // A blocked stream keeps coalescing; 'drain' schedules it again.
      if (!stream.blocked) write(stream, outgoing(stream, done));
    }
  }

  /** Adds an event to a stream's pending messages; an overflow turns them into a reset. */
  const enqueue = (stream: Stream, seq: number, event: LiveEvent): void => {
    if (stream.reset !== undefined) return;
    if (!stream.pending.add(seq, event)) {
      stream.pending.clear();
      stream.reset = 'overflow';
    }
  };

  /**
   * Ends a stream and its connection: the client reconnects on a new one, and a closing server does not
   * wait for the idle keep-alive. A blocked socket would never finish, so it is cut at once.
   */
  const end = (stream: Stream): void => {
    streams.delete(stream);
    dirty.delete(stream);
    const { socket } = stream.res;
    if (stream.blocked) socket?.destroy();
    else stream.res.end(() => socket?.destroy());
  };

  /** Ends those of `candidates` whose session ended (sign-out, revocation, expiry, idleness, a disabled or deleted account). */
  const endClosed = async (candidates: readonly Stream[]): Promise<void> => {
    const open = await openSessions(ctx, [...new Set(candidates.map((stream) => stream.account.tokenHash))]);
    for (const stream of candidates) if (streams.has(stream) && !open.has(stream.account.tokenHash)) end(stream);
  };

  /** A `sessions` event: the account's streams are checked at once rather than at the next recheck. */
  const endClosedOf = (accountId: number): void => {
    const own = [...streams].filter((stream) => stream.account.id === accountId);
    if (own.length === 0) return;
    endClosed(own).catch((error: unknown) => log.error({ err: error }, 'live streams: checking an account\'s sessions failed'));
  };

  const unsubscribe = ctx.live.subscribe((event) => {
    if (event.type === 'sessions') {
      endClosedOf(event.data.account);
      return;
    }
    const seq = history.append(event);
    for (const stream of streams) {
      if (!carries(stream, event)) continue;
      enqueue(stream, seq, event);
      schedule(stream);
    }
  });

  // Neither interval keeps the process alive; close() stops both.
  const heartbeat = setInterval(() => {
    for (const stream of streams) if (!stream.blocked) stream.res.write(SSE_HEARTBEAT);
  }, settings.heartbeatMs).unref();

  let checking = false;
  const recheck = async (): Promise<void> => {
    if (checking || streams.size === 0) return;
    checking = true;
    try {
      await endClosed([...streams]);
      const viewers = new Map<number, SignedInAccount>();
      for (const stream of streams) if (stream.scope !== 'all') viewers.set(stream.account.id, stream.account);
      for (const viewer of viewers.values()) {
        const scope = await liveScope(ctx, viewer);
        for (const stream of streams) {
          if (stream.account.id !== viewer.id || stream.scope === 'all' || scope === 'all' || sameDevices(stream.scope, scope)) continue;
          stream.scope = scope;
          stream.pending.clear();
          stream.reset = 'scope';
          schedule(stream);
        }
      }
    } catch (error) {
      log.error({ err: error }, 'live streams: checking sessions and scopes failed');
    } finally {
      checking = false;
    }
  };
  const rechecks = setInterval(() => void recheck(), settings.recheckMs).unref();

  return {
    head: () => history.head(),
    open(res, account, scope, from) {
      if (closed) {
        res.end();
        return;
      }
      const stream: Stream = { account, scope, pending: new Coalescer(settings.maxPendingCommands), reset: undefined, blocked: false, res };
      const seq = typeof from === 'number' ? from : history.parse(from);
      const resume = seq === undefined ? ({ kind: 'reset', reason: 'unknown' } as const) : history.after(seq);
      if (resume.kind === 'reset') stream.reset = resume.reason;
      else for (const { seq: missed, event } of resume.events) if (carries(stream, event)) enqueue(stream, missed, event);
      streams.add(stream);
      res.on('close', () => {
        streams.delete(stream);
        dirty.delete(stream);
      });
      write(stream, outgoing(stream) + sseMessage(idNow(), 'ready', { heartbeatMs: settings.heartbeatMs }));
    },
    streamsOf(tokenHash) {
      let count = 0;
      for (const stream of streams) if (stream.account.tokenHash === tokenHash) count += 1;
      return count;
    },
    close() {
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
      clearInterval(rechecks);
      clearTimeout(flushTimer);
      for (const stream of [...streams]) end(stream);
    },
  };
};
