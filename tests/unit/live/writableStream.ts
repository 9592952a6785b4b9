import { http, HttpResponse } from 'msw';

/**
 * A mocked `GET <restBase>/live` that the test writes to: it opens with `ready`, then `send(text)` puts raw
 * event-stream text on the newest connection.
 */
export const writableLiveStream = (restBase: string) => {
  const encoder = new TextEncoder();
  const stream = {
    send: (_text: string): void => undefined,
    handler: http.get(`${restBase}/live`, ({ request }) => {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      request.signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      stream.send = (text) => controller.enqueue(encoder.encode(text));
      stream.send('id: t.1\nevent: ready\ndata: {"heartbeatMs":15000}\n\n');
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
  };
  return stream;
};
