/** A viewer of `{control}/live` for tests: the `ws` client, every message kept, waits capped. */
import { WebSocket } from 'ws';
import type { HelloMessage, LiveEvent, LiveMessage } from '../live-view/live-schema.ts';

const WAIT_CAP_MS = 10_000;

export interface Viewer {
  readonly socket: WebSocket;
  /** Every message received, in order (the first is `hello`). */
  readonly messages: LiveMessage[];
  /** Every message's raw text, for checks on what went over the wire. */
  readonly texts: string[];
  hello(): HelloMessage;
  /** Resolves with the first message (from `from` on) that matches, or rejects after 10 s. */
  next<T extends LiveEvent['type']>(type: T, matches?: (m: Extract<LiveEvent, { type: T }>) => boolean, from?: number): Promise<Extract<LiveEvent, { type: T }>>;
  /** Resolves with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** The live feed URL of a control URL. */
export const liveUrl = (control: string) => `${control.replace(/^http/, 'ws')}/live`;

/** Connects; rejects with the HTTP status when the upgrade is refused. */
export function connectViewer(control: string, headers: Record<string, string> = {}): Promise<Viewer> {
  const socket = new WebSocket(liveUrl(control), { headers });
  const messages: LiveMessage[] = [];
  const texts: string[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    texts.push(String(data));
    messages.push(JSON.parse(String(data)) as LiveMessage);
    for (const waiter of waiters) waiter();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const viewer: Viewer = {
    socket, messages, texts, closed,
    hello: () => messages[0] as HelloMessage,
    next(type, matches = () => true, from = 0) {
      type Found = Extract<LiveEvent, { type: typeof type }>;
      const find = () => messages.slice(from).find((m): m is Found => m.type === type && matches(m as never));
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = find();
          if (found) (waiters.delete(check), clearTimeout(timer), resolve(found as never));
        };
        const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`no ${type} message within ${WAIT_CAP_MS} ms`))), WAIT_CAP_MS);
        waiters.add(check);
        check();
      });
    },
    async close() {
      if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })));
    socket.once('error', reject);
    // Resolves once the hello is in (or the server closed at once, over its cap).
    const ready = () => (socket.off('error', reject), resolve(viewer));
    socket.once('message', ready);
    socket.once('close', ready);
  });
}
