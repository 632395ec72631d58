import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { LiveFeed } from './live-feed.ts';
import { LIVE_STOPPED_CLOSE_CODE, type HelloMessage, type StoppedMessage } from './live-view/live-schema.ts';

/** How many viewers one server feeds at most, and how much it buffers for one before it drops it. */
export interface LiveLimits {
  readonly maxClients: number;
  readonly maxBufferedBytes: number;
}

/** 8 viewers; 1 MiB waiting to be sent to one (a viewer that does not read is dropped, never buffered further). */
export const LIVE_LIMITS: LiveLimits = { maxClients: 8, maxBufferedBytes: 1024 * 1024 };

/** The close code a viewer over the cap gets: 1013, "try again later". */
export const LIVE_FULL_CLOSE_CODE = 1013;

/** How long an orderly stop waits for viewers to answer its close before it cuts them. */
const STOP_CLOSE_CAP_MS = 1_000;

/**
 * Answers a WebSocket upgrade with a plain HTTP refusal and closes the connection.
 *
 * @example
 * refuseUpgrade(socket, 403, 'live feed: loopback only');
 */
export function refuseUpgrade(socket: Duplex, status: 403 | 404, text: string): void {
  const reason = status === 403 ? 'Forbidden' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/**
 * The viewers of one chaos server's live feed (`{control}/live`): each gets `hello` (the state
 * now and the recent past) and then every event as a JSON text frame. Viewers only listen: what
 * they send is ignored. Over {@link LiveLimits.maxClients}, a new viewer is closed with
 * {@link LIVE_FULL_CLOSE_CODE}; a viewer with more than {@link LiveLimits.maxBufferedBytes}
 * waiting to be sent is dropped (its connection cut), so a slow viewer never grows the server's memory.
 *
 * @example
 * const hub = new LiveHub(feed, () => helloNow());
 * server.on('upgrade', (req, socket, head) => hub.upgrade(req, socket, head));
 * await hub.close(); // each viewer gets `stopped`, then a close with 1001
 */
export class LiveHub {
  /** Made at the first viewer: a chaos server nobody watches does not load `ws`. */
  #server: Promise<WebSocketServer> | undefined;
  readonly #clients = new Set<WebSocket>();
  readonly #hello: () => HelloMessage;
  readonly #limits: LiveLimits;
  readonly #feed: LiveFeed;
  #closed = false;

  constructor(feed: LiveFeed, hello: () => HelloMessage, limits: LiveLimits = LIVE_LIMITS) {
    this.#feed = feed;
    this.#hello = hello;
    this.#limits = limits;
    feed.subscribe((event) => {
      if (this.#clients.size === 0) return;
      const text = JSON.stringify(event);
      for (const client of this.#clients) this.#send(client, text);
    });
  }

  /** How many viewers are connected. */
  get size(): number {
    return this.#clients.size;
  }

  /** Completes an upgrade the caller has allowed (path, Origin and Host checked). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#server ??= import('ws').then(({ WebSocketServer }) =>
      new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false, clientTracking: false }));
    this.#server.then((server) => {
      if (this.#closed || socket.destroyed) return void socket.destroy();
      server.handleUpgrade(req, socket, head, (client) => this.#accept(client));
    }, () => socket.destroy());
  }

  #accept(client: WebSocket): void {
    client.on('error', () => {});
    if (this.#closed) return client.terminate();
    if (this.#clients.size >= this.#limits.maxClients) {
      return client.close(LIVE_FULL_CLOSE_CODE, `at most ${this.#limits.maxClients} live viewers`);
    }
    this.#clients.add(client);
    client.on('close', () => this.#clients.delete(client));
    this.#send(client, JSON.stringify(this.#hello()));
  }

  #send(client: WebSocket, text: string): void {
    if (client.readyState !== client.OPEN) return;
    if (client.bufferedAmount + Buffer.byteLength(text) > this.#limits.maxBufferedBytes) {
      this.#clients.delete(client);
      return client.terminate();
    }
    client.send(text);
  }

  /**
   * Ends in order: tells every viewer `stopped`, closes its connection with
   * {@link LIVE_STOPPED_CLOSE_CODE} and waits (at most a second) for it to close its side; a viewer
   * still connecting is cut. Resolves when every viewer is gone.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const stopped: StoppedMessage = { type: 'stopped', atMs: this.#feed.now() };
    const text = JSON.stringify(stopped);
    const clients = [...this.#clients];
    this.#clients.clear();
    void this.#server?.then((server) => server.close());
    await Promise.all(clients.map((client) => new Promise<void>((resolve) => {
      if (client.readyState === client.CLOSED) return resolve();
      const cap = setTimeout(() => client.terminate(), STOP_CLOSE_CAP_MS);
      client.once('close', () => (clearTimeout(cap), resolve()));
      if (client.readyState !== client.OPEN) return client.terminate();
      client.send(text);
      client.close(LIVE_STOPPED_CLOSE_CODE, 'the server stopped');
    })));
  }
}
