import { redactSessionId } from '@mcp-resilience/core';

/** One session as the fault layer sees it. */
export interface SessionEntry {
  readonly id: string;
  readonly ordinal: number;
  readonly createdAtMs: number;
  lastActivityAtMs: number;
  inFlight: number;
  openStreams: number;
  readonly subscriptions: Set<string>;
  logLevel?: string;
}

/** A session in `GET /_chaos/state`: the id only as a redacted tag. */
export interface SessionSnapshot {
  readonly session: string;
  readonly ordinal: number;
  readonly ageMs: number;
  readonly idleMs: number;
  readonly inFlight: number;
  readonly openStreams: number;
  readonly subscriptions: readonly string[];
  readonly logLevel?: string;
}

/**
 * The sessions the server has now. A session id not in here is dead to the fault layer,
 * which answers it in the configured dialect: that is what eviction, idle expiry, capacity
 * and restart do. A session with a request in flight or a stream open is in use: never idle.
 *
 * @example
 * const registry = new SessionRegistry(() => Date.now());
 * const session = registry.add('abc');
 * registry.busy(session, 1); // a request started … and ended:
 * registry.busy(session, -1);
 */
export class SessionRegistry {
  readonly #sessions = new Map<string, SessionEntry>();
  #ordinals = 0;

  constructor(private readonly now: () => number) {}

  add(id: string): SessionEntry {
    const at = this.now();
    const entry: SessionEntry = {
      id, ordinal: ++this.#ordinals, createdAtMs: at, lastActivityAtMs: at, inFlight: 0, openStreams: 0, subscriptions: new Set(),
    };
    this.#sessions.set(id, entry);
    return entry;
  }

  get(id: string): SessionEntry | undefined {
    return this.#sessions.get(id);
  }

  remove(id: string): boolean {
    return this.#sessions.delete(id);
  }

  /** Forgets every session; returns their ids. */
  clear(): string[] {
    const ids = [...this.#sessions.keys()];
    this.#sessions.clear();
    return ids;
  }

  all(): SessionEntry[] {
    return [...this.#sessions.values()];
  }

  /** A request on the session started (`+1`) or ended (`-1`); either is use. */
  busy(entry: SessionEntry, delta: 1 | -1): void {
    entry.inFlight = Math.max(0, entry.inFlight + delta);
    entry.lastActivityAtMs = this.now();
  }

  /** A standalone stream opened (`+1`) or closed (`-1`); an open stream is use. */
  stream(entry: SessionEntry, delta: 1 | -1): void {
    entry.openStreams = Math.max(0, entry.openStreams + delta);
    entry.lastActivityAtMs = this.now();
  }

  inUse(entry: SessionEntry): boolean {
    return entry.inFlight > 0 || entry.openStreams > 0;
  }

  idleMs(entry: SessionEntry): number {
    return this.inUse(entry) ? 0 : Math.max(0, this.now() - entry.lastActivityAtMs);
  }

  /** The ids of sessions idle for at least `budgetMs`. */
  idleBeyond(budgetMs: number): string[] {
    return this.all().filter((e) => !this.inUse(e) && this.idleMs(e) >= budgetMs).map((e) => e.id);
  }

  /** The least recently used session that is not in use, other than `except`. */
  leastRecentlyUsedIdle(except?: string): SessionEntry | undefined {
    return this.all()
      .filter((e) => e.id !== except && !this.inUse(e))
      .sort((a, b) => a.lastActivityAtMs - b.lastActivityAtMs)[0];
  }

  snapshot(): SessionSnapshot[] {
    return this.all().map((e) => ({
      session: redactSessionId(e.id), ordinal: e.ordinal, ageMs: this.now() - e.createdAtMs, idleMs: this.idleMs(e),
      inFlight: e.inFlight, openStreams: e.openStreams, subscriptions: [...e.subscriptions],
      ...(e.logLevel === undefined ? {} : { logLevel: e.logLevel }),
    }));
  }
}
