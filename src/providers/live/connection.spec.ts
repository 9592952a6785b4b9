import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { LiveEvent } from '../../domain/live';
import { localTokenStore } from '../tokenStore';
import { createLiveConnection, type LiveConnection, type LiveSignals, type LiveStatus } from './connection';

const url = 'http://console.test/api/v1/live';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A stream the mock server opened, written by the test. */
interface MockStream {
  headers: Headers;
  send(text: string): void;
  end(): void;
}

/** Answers the live URL with streams the test writes to; `refuse` answers the first n requests with that status instead. */
const serveStreams = (refuse: { status: number; times: number } = { status: 503, times: 0 }) => {
  const streams: MockStream[] = [];
  let requests = 0;
  const encoder = new TextEncoder();
  server.use(
    http.get(url, ({ request }) => {
      requests += 1;
      if (requests <= refuse.times) return HttpResponse.json({ message: 'no', code: 50000 }, { status: refuse.status });
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      request.signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      streams.push({ headers: request.headers, send: (text) => controller.enqueue(encoder.encode(text)), end: () => controller.close() });
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
  );
  return { streams, requests: () => requests };
};

const FAST = { retryMs: 5, maxRetryMs: 20, failuresBeforePolling: 3, pollMs: 25, silenceMs: 1000 };

let connection: LiveConnection | undefined;
afterEach(() => connection?.stop());

const connect = (token: string | null = 'tok') => {
  const tokens = localTokenStore('token');
  if (token !== null) tokens.set(token);
  connection = createLiveConnection({ url, tokens, timing: FAST, random: () => 0.5 });
  const seen = { statuses: [] as LiveStatus[], events: [] as LiveEvent[], resets: 0, polls: 0, unauthorized: 0 };
  const on = <K extends keyof LiveSignals>(signal: K, listener: (value: LiveSignals[K]) => void) => connection?.on(signal, listener);
  on('status', (status) => seen.statuses.push(status));
  on('event', (event) => seen.events.push(event));
  on('reset', () => (seen.resets += 1));
  on('poll', () => (seen.polls += 1));
  on('unauthorized', () => (seen.unauthorized += 1));
  connection.start();
  return { connection, seen };
};

const message = (event: string, data: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const patch: LiveEvent = { type: 'device', data: { Id: 'OC-1', Online: true } };
const outcome: LiveEvent = { type: 'command', data: { cmdId: 'c1', Id: 'OC-1', type: 'state', status: 'acked', at: 1 } };

describe('the live connection', () => {
  it('opens with the bearer token, goes live on ready and hands over the valid events only', async () => {
    const { streams } = serveStreams();
    const { seen } = connect();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]?.headers.get('authorization')).toBe('Bearer tok');
    expect(streams[0]?.headers.get('accept')).toBe('text/event-stream');
    expect(streams[0]?.headers.get('last-event-id')).toBeNull();
    streams[0]?.send(message('ready', { heartbeatMs: 15_000 }, 'a.1'));
    streams[0]?.send(message('device', patch.data, 'a.2') + 'event: device\ndata: {oops\n\n' + message('device', { Id: 'OC-1', Unknown: 1 }) + message('command', outcome.data, 'a.3'));
    await vi.waitFor(() => expect(seen.events).toEqual([patch, outcome]));
    expect(seen.statuses).toEqual(['connecting', 'live']);
    connection?.stop();
    expect(seen.statuses.at(-1)).toBe('off');
  });

  it('reconnects after the stream ends, resuming from the last id, and passes resets on', async () => {
    const { streams } = serveStreams();
    const { seen } = connect();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0]?.send(message('ready', {}, 'a.1') + message('device', patch.data, 'a.5'));
    await vi.waitFor(() => expect(seen.events).toHaveLength(1));
    streams[0]?.end();
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]?.headers.get('last-event-id')).toBe('a.5');
    streams[1]?.send(message('reset', { reason: 'too-old' }, 'a.9') + message('ready', {}, 'a.9'));
    await vi.waitFor(() => expect(seen.statuses).toEqual(['connecting', 'live', 'reconnecting', 'live']));
    expect(seen.resets).toBe(1);
  });

  it('stops and says so when the server refuses the token, without retrying', async () => {
    const { requests } = serveStreams({ status: 401, times: 1 });
    const { seen } = connect();
    await vi.waitFor(() => expect(seen.unauthorized).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests()).toBe(1);
    expect(seen.statuses).toEqual(['connecting', 'off']);
  });

  it('asks for nothing without a token', async () => {
    const { requests } = serveStreams();
    const { seen } = connect(null);
    await vi.waitFor(() => expect(seen.unauthorized).toBe(1));
    expect(requests()).toBe(0);
  });

  it('polls after three failed attempts, keeps trying, and goes live again (refetching once) when a stream works', async () => {
    const { streams, requests } = serveStreams({ status: 503, times: 5 });
    const { seen } = connect();
    await vi.waitFor(() => expect(seen.statuses).toEqual(['connecting', 'polling']));
    await vi.waitFor(() => expect(seen.polls).toBeGreaterThanOrEqual(2));
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(requests()).toBe(6);
    streams[0]?.send(message('ready', {}, 'b.1'));
    await vi.waitFor(() => expect(seen.statuses.at(-1)).toBe('live'));
    // It could not resume (it never had an id): what the tab shows may be stale.
    expect(seen.resets).toBe(1);
    const polls = seen.polls;
    await new Promise((resolve) => setTimeout(resolve, FAST.pollMs * 3));
    expect(seen.polls).toBe(polls);
  });

  it('gives up on a stream silent for three heartbeats and resumes on a new one', async () => {
    const { streams } = serveStreams();
    const { seen } = connect();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0]?.send(message('ready', { heartbeatMs: 10 }, 'c.1'));
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]?.headers.get('last-event-id')).toBe('c.1');
    expect(seen.statuses).toEqual(['connecting', 'live', 'reconnecting']);
  });
});
