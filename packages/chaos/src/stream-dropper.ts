import type { ServerResponse } from 'node:http';

/** How a response stream is to break. */
export interface DropPlan {
  /** Message events delivered before the break (the response itself never is). */
  readonly afterEvents: number;
  /** Keep the `id:` lines (so the client can resume); false strips them. */
  readonly eventIds: boolean;
  /** A `retry:` field to send first, in ms. */
  readonly retryMs?: number;
}

const EVENT_END = /\r?\n\r?\n/;
/** How long after the last delivered bytes the connection breaks. */
export const BREAK_AFTER_MS = 100;

function dataOf(block: string): string {
  return block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
}

function isResponse(data: string): boolean {
  try {
    const message = JSON.parse(data) as Record<string, unknown>;
    return message.id !== undefined && message.method === undefined && ('result' in message || 'error' in message);
  } catch {
    return false;
  }
}

/**
 * Makes a response break like a dropped connection, before the JSON-RPC response arrives: an
 * SSE response after `afterEvents` message events (or just before the response, whichever
 * comes first), a JSON response before its body. `onDrop` is told when it breaks.
 *
 * @example
 * breakStream(res, { afterEvents: 1, eventIds: true, retryMs: 100 }, () => log.fault = 'drop-stream');
 */
export function breakStream(res: ServerResponse, plan: DropPlan, onDrop: () => void): void {
  const write = res.write.bind(res) as (chunk: string | Uint8Array) => boolean;
  const end = res.end.bind(res) as (chunk?: string | Uint8Array) => ServerResponse;
  let mode: 'unknown' | 'sse' | 'dropped' = 'unknown';
  let pending = '';
  let delivered = 0;
  let retrySent = false;

  const drop = () => {
    if (!retrySent && plan.retryMs !== undefined) write(`retry: ${plan.retryMs}\n\n`);
    retrySent = true;
    mode = 'dropped';
    onDrop();
    // What was written reaches the client; then, a moment later, the connection ends mid-response,
    // with no final chunk. Not at once: in Chromium the body's last bytes and its failed end race
    // (the failure can reach the page first, and the bytes are dropped: the page never sees that
    // event, nor its id); a gap lets the bytes win unless the browser is starved of CPU that long.
    const socket = res.socket;
    setTimeout(() => socket?.end(() => socket.destroy()), BREAK_AFTER_MS).unref();
  };

  const feed = (chunk: string | Uint8Array | undefined): void => {
    if (chunk === undefined || mode === 'dropped') return;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (mode === 'unknown') {
      const first = text.trimStart()[0];
      if (first === undefined) return void write(text);
      // A JSON body is the response itself: it breaks before any of it is sent.
      if (first === '{' || first === '[') return drop();
      mode = 'sse';
    }
    pending += text;
    let match: RegExpExecArray | null;
    while (mode === 'sse' && (match = EVENT_END.exec(pending))) {
      const block = pending.slice(0, match.index);
      pending = pending.slice(match.index + match[0].length);
      const data = dataOf(block);
      if (data !== '' && (isResponse(data) || delivered >= plan.afterEvents)) return drop();
      if (data !== '') delivered++;
      const kept = plan.eventIds ? block : block.split(/\r?\n/).filter((l) => !l.startsWith('id:')).join('\n');
      const retry = !retrySent && plan.retryMs !== undefined ? `retry: ${plan.retryMs}\n` : '';
      retrySent = true;
      if (kept.trim() !== '' || retry !== '') write(`${retry}${kept}\n\n`);
    }
  };

  res.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    feed(chunk);
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) feed(chunk);
    if (mode === 'dropped') return res;
    if (pending !== '') write(pending);
    const callback = [chunk, ...rest].find((r) => typeof r === 'function') as (() => void) | undefined;
    end();
    callback?.();
    return res;
  }) as ServerResponse['end'];
}
