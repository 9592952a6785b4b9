import { http, HttpResponse } from 'msw';
import { CODES } from '../src/domain/envelope';

const HEARTBEAT_MS = 15_000;

/**
 * `GET <restBase>/live` (docs/live.md) in the mocks: a stream that says `ready` and then only keeps
 * itself open with heartbeats, so the mocked console shows live (no mocked device changes), rather
 * than falling back to polling. Without a bearer token it answers 401 as the server does.
 */
export const liveHandlers = (restBase: string) => [
  http.get(`${restBase}/live`, ({ request }) => {
    if (!/^Bearer \S+$/.test(request.headers.get('authorization') ?? '')) {
      return HttpResponse.json({ message: 'not logged in', code: CODES.notSignedIn }, { status: 401 });
    }
    const encoder = new TextEncoder();
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`id: mock.0\nevent: ready\ndata: ${JSON.stringify({ heartbeatMs: HEARTBEAT_MS })}\n\n`));
        heartbeat = setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), HEARTBEAT_MS);
        request.signal.addEventListener('abort', () => {
          clearInterval(heartbeat);
          controller.error(new DOMException('aborted', 'AbortError'));
        });
      },
      cancel: () => clearInterval(heartbeat),
    });
    return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
  }),
];
