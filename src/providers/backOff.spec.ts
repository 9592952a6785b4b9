import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryAfterSeconds } from './backOff';
import { createHttpClient } from './httpClient';
import { createLiveConnection } from './live/connection';
import { createRestProvider } from './rest';
import { localTokenStore } from './tokenStore';

/** The console's back-off after the server's 429 (docs/server-auth.md, "Rate limits"), on a fake clock. */

const envelope = (data: unknown) => new Response(JSON.stringify({ data, status: 'ok', msg: '', code: 20000 }), { status: 200 });
const tooMany = (retryAfter: string) =>
  new Response(JSON.stringify({ data: null, status: 'fail', msg: 'too many requests', code: 42900 }), { status: 429, headers: { 'Retry-After': retryAfter } });

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('retryAfterSeconds', () => {
  it('reads Retry-After in seconds, with a fallback for a missing or broken one and a ceiling', () => {
    expect(retryAfterSeconds(tooMany('12'))).toBe(12);
    expect(retryAfterSeconds(new Response(null, { status: 429 }))).toBe(5);
    expect(retryAfterSeconds(tooMany('soon'))).toBe(5);
    expect(retryAfterSeconds(tooMany('86400'))).toBe(120);
  });
});

describe('httpClient after a 429', () => {
  it('says once that it waits, holds every call for the Retry-After, then sends the refused call again', async () => {
    const sent: string[] = [];
    const answers = [tooMany('3')];
    const fetcher = vi.fn(async (url: RequestInfo | URL) => {
      sent.push(String(url).replace('http://console.test/upstream', ''));
      return answers.shift() ?? envelope('fine');
    });
    const client = createHttpClient({ baseUrl: 'http://console.test/upstream', tokens: localTokenStore('token'), locale: () => 'en-US', fetch: fetcher });
    const told: number[] = [];
    client.onBackOff((seconds) => told.push(seconds));

    const refused = client.post('/api/user/info');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['/api/user/info']);
    expect(told).toEqual([3]);
    // Another call during the pause waits too: nothing reaches the server before the 3 s are over.
    const other = client.post('/api/user/menu');
    await vi.advanceTimersByTimeAsync(2_900);
    expect(sent).toEqual(['/api/user/info']);
    await vi.advanceTimersByTimeAsync(200);
    await expect(refused).resolves.toBe('fine');
    await expect(other).resolves.toBe('fine');
    expect(sent.toSorted()).toEqual(['/api/user/info', '/api/user/info', '/api/user/menu']);
    expect(told).toEqual([3]);
  });

  it('gives up after the second 429 and fails with the server\'s 42900', async () => {
    const fetcher = vi.fn(async () => tooMany('1'));
    const client = createHttpClient({ baseUrl: 'http://console.test/upstream', tokens: localTokenStore('token'), locale: () => 'en-US', fetch: fetcher });
    const failed = expect(client.post('/api/user/info', {}, { quiet: true })).rejects.toMatchObject({ code: 42900, status: 429 });
    await vi.advanceTimersByTimeAsync(1_100);
    await failed;
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});

describe('the REST API after a 429', () => {
  it('shares the pause with the upstream calls: says it once, waits, then reads the list', async () => {
    const sent: string[] = [];
    const restTooMany = new Response(JSON.stringify({ message: 'too many requests', code: 42900 }), { status: 429, headers: { 'Retry-After': '4' } });
    const answers: Response[] = [restTooMany];
    const fetcher = vi.fn(async (url: RequestInfo | URL) => {
      const path = new URL(String(url)).pathname;
      sent.push(path);
      if (path.startsWith('/upstream')) return envelope('fine');
      return answers.shift() ?? new Response(JSON.stringify([{ id: 1 }]), { status: 200, headers: { 'Content-Range': 'alarms 0-0/1' } });
    });
    const tokens = localTokenStore('token');
    tokens.set('tok');
    const client = createHttpClient({ baseUrl: 'http://console.test/upstream', tokens, locale: () => 'en-US', fetch: fetcher });
    const told: number[] = [];
    client.onBackOff((seconds) => told.push(seconds));
    const rest = createRestProvider('http://console.test/api/v1', tokens, () => 'en-US', client.fetch);

    const list = rest.getList('alarms', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toEqual([4]);
    // An upstream call during the REST call's pause waits as well.
    const upstream = client.post('/api/user/info');
    await vi.advanceTimersByTimeAsync(3_900);
    expect(sent).toEqual(['/api/v1/alarms']);
    await vi.advanceTimersByTimeAsync(200);
    await expect(list).resolves.toMatchObject({ data: [{ id: 1 }], total: 1 });
    await expect(upstream).resolves.toBe('fine');
    expect(sent.toSorted()).toEqual(['/api/v1/alarms', '/api/v1/alarms', '/upstream/api/user/info']);
    expect(told).toEqual([4]);
  });
});

describe('live stream after a 429', () => {
  it('says it is limited and does not open again before the Retry-After', async () => {
    const fetcher = vi.fn(async () => (fetcher.mock.calls.length === 1 ? tooMany('7') : new Promise<Response>(() => undefined)));
    vi.stubGlobal('fetch', fetcher);
    const tokens = localTokenStore('token');
    tokens.set('tok');
    const connection = createLiveConnection({ url: 'http://console.test/api/v1/live', tokens, random: () => 0.5 });
    const limited: number[] = [];
    connection.on('limited', (seconds) => limited.push(seconds));
    connection.start();
    // The stream's event schema is loaded on its first connection (a chunk of its own) before the fetch.
    await vi.waitUntil(() => fetcher.mock.calls.length === 1, { interval: 10 });
    await vi.advanceTimersByTimeAsync(0);
    expect(limited).toEqual([7]);
    await vi.advanceTimersByTimeAsync(6_900);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(fetcher).toHaveBeenCalledTimes(2);
    connection.stop();
  });
});
