import { once } from 'node:events';
import { get, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { afterEach } from 'vitest';
import { createEventStreamParser } from '../../src/domain/eventStream';

/** A live stream (`GET /api/v1/live`) read over real HTTP with the console's own event-stream parser. */

export interface Received {
  event: string;
  data: unknown;
  id: string;
}

export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  received: Received[];
  /** Resolves once `done(received)` holds; fails after `timeoutMs`. */
  until(done: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

const opened: OpenStream[] = [];
afterEach(() => opened.splice(0).forEach((stream) => stream.close()));

/**
 * Opens a stream on a connection of its own (node:http without an agent: fetch's pool would keep a spare
 * connection that holds the app's close for its keep-alive time).
 */
export const connect = async (base: string, token: string | undefined, lastEventId?: string): Promise<OpenStream> => {
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
  const request = get(`${base}/api/v1/live`, { headers, agent: false });
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const parser = createEventStreamParser(({ event, data, lastEventId: id }) => {
    received.push({ event, data: JSON.parse(data), id });
    waiters.forEach((wake) => wake());
  });
  response.setEncoding('utf8');
  response.on('data', (text: string) => parser.push(text));
  const ended = new Promise<void>((resolve) => response.once('close', resolve));
  const stream: OpenStream = {
    status: response.statusCode ?? 0,
    headers: response.headers,
    received,
    until: (done, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!done(received)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`not received in ${timeoutMs} ms; got ${JSON.stringify(received)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    ended,
    close: () => request.destroy(),
  };
  opened.push(stream);
  return stream;
};

