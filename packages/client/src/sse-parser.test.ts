import { describe, expect, it } from 'vitest';
import { formatSse, SseParser } from './sse-parser.ts';

describe('SseParser', () => {
  it('parses events split anywhere, with every line ending', () => {
    const parser = new SseParser();
    const text = 'id: 1\r\nevent: message\r\ndata: {"a":1}\r\n\r\n: keep-alive\n\nretry: 250\nid: 2\ndata: x\ndata: y\n\nid: 3\r\rdata:z\n\n';
    const events = [...text].flatMap((c) => parser.push(c));
    expect(events).toEqual([
      { id: '1', event: 'message', data: '{"a":1}' },
      { id: '2', data: 'x\ny', retry: 250 },
      { id: '3', data: '' },
      { data: 'z' },
    ]);
  });

  it('ignores a retry that is not all digits and an id with a NUL', () => {
    const parser = new SseParser();
    expect(parser.push('retry: 1e3\nid: a\0b\ndata: d\n\n')).toEqual([{ data: 'd' }]);
  });

  it('keeps an unfinished event until it ends', () => {
    const parser = new SseParser();
    expect(parser.push('data: half')).toEqual([]);
    expect(parser.push('\n\n')).toEqual([{ data: 'half' }]);
  });
});

describe('formatSse', () => {
  it('round-trips through the parser, multi-line data included', () => {
    expect(new SseParser().push(formatSse('a\nb'))).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
