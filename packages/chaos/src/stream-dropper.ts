import type { ServerResponse } from 'node:http';
import { REAL_CLOCK, type ChaosClock } from './chaos-clock.ts';

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

/**
 * How long a broken SSE stream stays open after the events it lets through, before the
 * connection is cut. A break comes after what it follows has reached the client; cut in the same
 * instant as the last write, the bytes race the error inside the client, and a browser loses
 * that race: Chromium's fetch discards what the page has not read yet when the connection errors
 * (Blink drops its data pipe on a network error), so an instant cut lost the priming event about
 * half the time in Chromium and never in Node. At load 10 on 2 cores, 20 ms lost nothing in 80
 * runs and 10 ms lost two; at load 50, 50 ms still lost one in 10 (issue 14); 100 ms lost the
 * priming event once in `pnpm proof` on a clean CI-like run (seven runtimes at once on 2 cores),
 * and is the likely cause of the web demo's rare extra failure. How soon a starved page reads is
 * unbounded, so the wait is a second: ten times the last one that failed, paid only by a call
 * whose stream the fault breaks.
 */
export const BREAK_AFTER_DELIVERY_MS = 1_000;

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
 * comes first; the cut comes {@link BREAK_AFTER_DELIVERY_MS} after them), a JSON response
 * before its body. `onDrop` is told when it breaks. The cut waits on `clock` (a test's manual
 * clock; the chaos server gives it the wall clock: the wait is for bytes on a real network).
 *
 * @example
 * breakStream(res, { afterEvents: 1, eventIds: true, retryMs: 100 }, () => log.fault = 'drop-stream');
 */
export function breakStream(res: ServerResponse, plan: DropPlan, onDrop: () => void, clock: ChaosClock = REAL_CLOCK): void {
  const writeBody = res.write.bind(res) as (chunk: string | Uint8Array) => boolean;
  let wrote = false;
  const write = (chunk: string) => ((wrote = true), writeBody(chunk));
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
    // What was written reaches the client; then the connection ends mid-response, with no final chunk.
    const socket = res.socket;
    const cut = () => socket?.end(() => socket.destroy());
    if (wrote) clock.after(BREAK_AFTER_DELIVERY_MS, cut);
    else cut();
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
