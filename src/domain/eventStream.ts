/**
 * The text/event-stream format (WHATWG HTML, "Server-sent events", parsing an event stream), read from a
 * fetch response rather than by EventSource, so the request can carry the Authorization header. Lines end
 * with CRLF, LF or CR (also split across chunks); `:` starts a comment; `event`, `data` (joined with line
 * breaks) and `id` are kept, other fields ignored; a blank line dispatches a message that has data. The id
 * persists from message to message, as EventSource's lastEventId does. (A leading byte order mark is
 * TextDecoder's to strip.)
 */

export interface EventStreamMessage {
  /** `message` when the stream named none. */
  event: string;
  data: string;
  /** The last id the stream set, at or before this message ('' when none). */
  lastEventId: string;
}

export interface EventStreamParser {
  /** Feeds decoded text; complete messages go to the listener at once. */
  push(text: string): void;
}

export const createEventStreamParser = (onMessage: (message: EventStreamMessage) => void): EventStreamParser => {
  let line = '';
  /** The previous chunk ended in CR: a leading LF of the next one belongs to it. */
  let afterCR = false;
  let event = '';
  let data: string[] = [];
  let lastEventId = '';

  const dispatch = (): void => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), lastEventId });
    event = '';
    data = [];
  };

  const field = (text: string): void => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const name = colon < 0 ? text : text.slice(0, colon);
    const raw = colon < 0 ? '' : text.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (name === 'event') event = value;
    else if (name === 'data') data.push(value);
    else if (name === 'id' && !value.includes('\0')) lastEventId = value;
  };

  return {
    push(text) {
      let start = 0;
      if (afterCR && text[start] === '\n') start += 1;
      afterCR = false;
      for (let index = start; index < text.length; index += 1) {
        const char = text[index];
        if (char !== '\n' && char !== '\r') continue;
        field(line + text.slice(start, index));
        line = '';
        if (char === '\r') {
          if (index + 1 === text.length) afterCR = true;
          else if (text[index + 1] === '\n') index += 1;
        }
        start = index + 1;
      }
      line += text.slice(start);
    },
  };
};

/**
 * Reads a response body to its end through the parser; `onChunk` hears every chunk (heartbeats included),
 * for a watchdog. Rejects when the stream fails (or is aborted).
 */
export const readEventStream = async (
  body: ReadableStream<Uint8Array>,
  parser: EventStreamParser,
  onChunk: () => void = () => undefined,
): Promise<void> => {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk();
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
};
