import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventStreamParser, readEventStream, type EventStreamMessage } from './eventStream';

const parse = (...chunks: string[]): EventStreamMessage[] => {
  const messages: EventStreamMessage[] = [];
  const parser = createEventStreamParser((message) => messages.push(message));
  chunks.forEach((chunk) => parser.push(chunk));
  return messages;
};

describe('event-stream parser', () => {
  it('reads id, event and data, dispatching on a blank line', () => {
    expect(parse('id: a.1\nevent: device\ndata: {"Id":"OC-1"}\n\n')).toEqual([{ event: 'device', data: '{"Id":"OC-1"}', lastEventId: 'a.1' }]);
  });

  it("joins data lines with line breaks and names an unnamed event 'message'", () => {
    expect(parse('data: one\ndata:two\ndata:  three\n\n')).toEqual([{ event: 'message', data: 'one\ntwo\n three', lastEventId: '' }]);
  });

  it('ignores comments, unknown fields and a message without data; keeps the id for later messages', () => {
    expect(parse(': keep-alive\n\nretry: 10\nfoo: bar\nid: x.2\nevent: nothing\n\nevent: reset\ndata: {}\n\n')).toEqual([
      { event: 'reset', data: '{}', lastEventId: 'x.2' },
    ]);
  });

  it('takes a field without a colon as empty, and refuses an id with NUL', () => {
    expect(parse('data\n\nid: ok\nid: bad\0id\ndata: x\n\n')).toEqual([
      { event: 'message', data: '', lastEventId: '' },
      { event: 'message', data: 'x', lastEventId: 'ok' },
    ]);
  });

  it('accepts LF, CRLF and CR line ends, and drops a message the stream ended in the middle of', () => {
    expect(parse('data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: unfinished\n')).toEqual(
      ['a', 'b', 'c'].map((data) => ({ event: 'message', data, lastEventId: '' })),
    );
  });

  it('reads the same messages however the text is cut into chunks, a CRLF cut in two included', () => {
    const text = 'id: e.1\r\nevent: device\r\ndata: {"a":1}\r\n\r\n: ping\r\n\r\nevent: command\rdata: x\r\rid: e.2\ndata: y\n\n';
    const whole = parse(text);
    expect(whole).toHaveLength(3);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 8 }), (cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), text.length];
        const chunks = points.slice(1).map((end, index) => text.slice(points[index], end));
        expect(parse(...chunks)).toEqual(whole);
      }),
    );
  });
});

describe('readEventStream', () => {
  it('decodes UTF-8 split across chunks and tells of every chunk', async () => {
    const bytes = new TextEncoder().encode('data: 氧舱\n\n');
    const chunks = [bytes.slice(0, 7), bytes.slice(7, 9), bytes.slice(9)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        chunks.forEach((chunk) => controller.enqueue(chunk));
        controller.close();
      },
    });
    const messages: EventStreamMessage[] = [];
    let heard = 0;
    await readEventStream(body, createEventStreamParser((message) => messages.push(message)), () => (heard += 1));
    expect(messages.map((message) => message.data)).toEqual(['氧舱']);
    expect(heard).toBe(3);
  });
});
