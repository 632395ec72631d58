import { defined } from '@mcp-resilience/core';

/** One server-sent event: an id-only block (a priming event) has empty `data`. */
export interface SseEvent {
  readonly id?: string;
  readonly event?: string;
  readonly data: string;
  readonly retry?: number;
}

/**
 * An incremental parser of the `text/event-stream` format (WHATWG HTML §9.2): feed it text as
 * it arrives, get back the events completed so far. Comments are skipped; `retry` is taken only
 * when it is all digits; an `id` with a NUL is ignored, as the standard says.
 *
 * @example
 * const parser = new SseParser();
 * parser.push('id: 7\ndata: {"jsonrpc"'); // []
 * parser.push(':"2.0"}\n\n');              // [{ id: '7', data: '{"jsonrpc":"2.0"}' }]
 */
export class SseParser {
  #buffer = '';
  #id: string | undefined;
  #event: string | undefined;
  #data: string[] = [];
  #retry: number | undefined;
  #fields = false;

  push(text: string): SseEvent[] {
    this.#buffer += text;
    const events: SseEvent[] = [];
    let match: RegExpExecArray | null;
    const line = /\r\n|\r(?!$)|\n/g;
    let start = 0;
    while ((match = line.exec(this.#buffer))) {
      const event = this.#line(this.#buffer.slice(start, match.index));
      if (event) events.push(event);
      start = match.index + match[0].length;
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    this.#fields = true;
    if (field === 'data') this.#data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.#id = value;
    else if (field === 'event') this.#event = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.#retry = Number(value);
    return undefined;
  }

  #dispatch(): SseEvent | undefined {
    if (!this.#fields) return undefined;
    const event: SseEvent = defined({ data: this.#data.join('\n'), id: this.#id, event: this.#event, retry: this.#retry });
    this.#id = this.#event = this.#retry = undefined;
    this.#data = [];
    this.#fields = false;
    return event;
  }
}

/**
 * One event in `text/event-stream` form (no id: the engine, not the SDK, resumes streams).
 *
 * @example
 * formatSse('{"jsonrpc":"2.0","id":1,"result":{}}') // 'event: message\ndata: {…}\n\n'
 */
export function formatSse(data: string): string {
  return `event: message\n${data.split('\n').map((l) => `data: ${l}`).join('\n')}\n\n`;
}
