import type { LiveEvent, liveEventSchema } from '../../domain/live';
import { retryAfterSeconds } from '../backOff';
import type { TokenStore } from '../tokenStore';
import { createEventStreamParser, readEventStream, type EventStreamMessage } from '../../domain/eventStream';

/**
 * The tab's one live stream (docs/live.md, "The console"): `GET /api/v1/live` read with fetch, so the
 * bearer token travels in the Authorization header. A stream that ends or fails is opened again after
 * a back-off (1 s doubling to 30 s, with jitter), sending the last id seen as Last-Event-ID; after three
 * attempts in a row that never got to `ready` the connection says `polling` and asks for a refetch every
 * `pollMs` until a stream works again. A stream silent (not even a heartbeat) for three heartbeats is
 * presumed dead. 401 ends it: the session is over. 429 (too many streams or calls for the session) waits at
 * least the Retry-After it names before the next attempt, and says so (`limited`).
 */

export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting' | 'polling';

export interface LiveSignals {
  /** A device patch, a command outcome or a message notice. */
  event: LiveEvent;
  /** What the tab had may be stale (the server said reset, or a new stream could not resume): refetch. */
  reset: undefined;
  /** Polling: time to refetch. */
  poll: undefined;
  status: LiveStatus;
  /** The server refused the token: the session is over. */
  unauthorized: undefined;
  /** The server said too many (429): the next attempt waits this many seconds at least. */
  limited: number;
}

type Listener<K extends keyof LiveSignals> = (value: LiveSignals[K]) => void;

export interface LiveTiming {
  retryMs: number;
  maxRetryMs: number;
  /** Failed attempts in a row before polling. */
  failuresBeforePolling: number;
  pollMs: number;
  /** Until the server's `ready` says its heartbeat, silence this long ends a stream. */
  silenceMs: number;
}

export const LIVE_TIMING: LiveTiming = { retryMs: 1000, maxRetryMs: 30_000, failuresBeforePolling: 3, pollMs: 10_000, silenceMs: 45_000 };

export interface LiveConnectionOptions {
  url: string;
  tokens: TokenStore;
  timing?: Partial<LiveTiming>;
  /** 0 ≤ x < 1, for the jitter. */
  random?: () => number;
}

export interface LiveConnection {
  /** Opens the stream (again) unless it is open. */
  start(): void;
  /** Closes the stream; the last id is kept, so the next start resumes. */
  stop(): void;
  status(): LiveStatus;
  on<K extends keyof LiveSignals>(signal: K, listener: Listener<K>): () => void;
  readonly timing: LiveTiming;
}

type LiveEventSchema = typeof liveEventSchema;

/**
 * The events' schema comes with the first connection, which only a signed-in console opens: the login
 * route's script carries no zod (docs/console.md, "Loading").
 */
let schema: Promise<LiveEventSchema> | undefined;
const loadSchema = (): Promise<LiveEventSchema> => (schema ??= import('../../domain/live').then((module) => module.liveEventSchema));

const parseEvent = (eventSchema: LiveEventSchema, { event, data }: EventStreamMessage): LiveEvent | undefined => {
  try {
    const parsed = eventSchema.safeParse({ type: event, data: JSON.parse(data) });
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

export const createLiveConnection = ({ url, tokens, timing: overrides, random = Math.random }: LiveConnectionOptions): LiveConnection => {
  const timing: LiveTiming = { ...LIVE_TIMING, ...overrides };
  const listeners: { [K in keyof LiveSignals]: Set<Listener<K>> } = {
    event: new Set(),
    reset: new Set(),
    poll: new Set(),
    status: new Set(),
    unauthorized: new Set(),
    limited: new Set(),
  };
  const emit = <K extends keyof LiveSignals>(signal: K, value: LiveSignals[K]): void => {
    for (const listener of listeners[signal]) listener(value);
  };

  let status: LiveStatus = 'off';
  let lastEventId = '';
  let failures = 0;
  /** The current attempt; stop() and each new attempt replace it, so a late callback can tell it is stale. */
  let attempt: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;

  const setStatus = (next: LiveStatus): void => {
    if (next === status) return;
    status = next;
    emit('status', next);
  };

  const stopPolling = (): void => {
    clearInterval(pollTimer);
    pollTimer = undefined;
  };

  /** Set by a 429: the next attempt waits at least this long. */
  let retryAfterMs = 0;

  const retry = (): void => {
    const delay = Math.min(timing.maxRetryMs, timing.retryMs * 2 ** Math.max(0, failures - 1)) * (0.5 + random() / 2);
    retryTimer = setTimeout(connect, Math.max(delay, retryAfterMs));
    retryAfterMs = 0;
  };

  /** An attempt that never got to `ready`; the status stays (connecting, reconnecting) until polling. */
  const failed = (): void => {
    failures += 1;
    if (failures >= timing.failuresBeforePolling && pollTimer === undefined) {
      setStatus('polling');
      emit('poll', undefined);
      pollTimer = setInterval(() => emit('poll', undefined), timing.pollMs);
    }
    retry();
  };

  async function connect(): Promise<void> {
    retryTimer = undefined;
    const controller = new AbortController();
    attempt = controller;
    const current = () => attempt === controller;
    const token = tokens.get();
    if (!token) {
      stop();
      emit('unauthorized', undefined);
      return;
    }
    const eventSchema = await loadSchema();
    if (!current()) return;
    const headers = new Headers({ Accept: 'text/event-stream', Authorization: `Bearer ${token}` });
    const resuming = lastEventId !== '';
    if (resuming) headers.set('Last-Event-ID', lastEventId);
    const hadFailed = failures > 0;

    let ready = false;
    let silence: ReturnType<typeof setTimeout> | undefined;
    let silenceMs = timing.silenceMs;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(), silenceMs);
    };
    const parser = createEventStreamParser((message) => {
      if (!current()) return;
      if (message.lastEventId !== '') lastEventId = message.lastEventId;
      if (message.event === 'ready') {
        ready = true;
        failures = 0;
        stopPolling();
        const heartbeatMs = (JSON.parse(message.data) as { heartbeatMs?: unknown }).heartbeatMs;
        if (typeof heartbeatMs === 'number' && heartbeatMs > 0) silenceMs = heartbeatMs * 3;
        heard();
        // Nothing could be replayed to a stream without an id: what happened while it was down is unknown.
        if (!resuming && hadFailed) emit('reset', undefined);
        setStatus('live');
      } else if (message.event === 'reset') emit('reset', undefined);
      else {
        const event = parseEvent(eventSchema, message);
        if (event !== undefined) emit('event', event);
      }
    });

    try {
      heard();
      const response = await fetch(url, { headers, signal: controller.signal });
      if (!current()) return;
      if (response.status === 401) {
        stop();
        emit('unauthorized', undefined);
        return;
      }
      if (response.status === 429) {
        const seconds = retryAfterSeconds(response);
        retryAfterMs = seconds * 1000;
        emit('limited', seconds);
      }
      if (response.ok && response.body !== null) await readEventStream(response.body, parser, heard);
    } catch {
      // A failed or aborted stream is retried below, like one the server ended.
    } finally {
      clearTimeout(silence);
    }
    if (!current()) return;
    if (ready) {
      // It worked: back-off starts over.
      setStatus('reconnecting');
      retry();
    } else failed();
  }

  function stop(): void {
    attempt?.abort();
    attempt = undefined;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    stopPolling();
    failures = 0;
    setStatus('off');
  }

  return {
    start() {
      if (status !== 'off') return;
      setStatus('connecting');
      void connect();
    },
    stop,
    status: () => status,
    on(signal, listener) {
      listeners[signal].add(listener);
      return () => {
        listeners[signal].delete(listener);
      };
    },
    timing,
  };
};
