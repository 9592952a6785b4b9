/**
 * The text/event-stream wire format (WHATWG HTML, "Server-sent events"), the server's side: one message is
 * `id`, `event` and one `data` line of JSON (JSON.stringify escapes line breaks, so one line always
 * suffices), then a blank line. A comment line keeps idle connections open through proxies.
 */

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  // nginx (and proxies that follow it) would otherwise buffer the stream.
  'X-Accel-Buffering': 'no',
} as const;

export const sseMessage = (id: string, event: string, data: unknown): string =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const SSE_HEARTBEAT = ': keep-alive\n\n';
