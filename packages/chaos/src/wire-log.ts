/** One request as the chaos server saw it. Session ids appear only as redacted tags. */
export interface WireEntry {
  readonly seq: number;
  readonly atMs: number;
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly rpcId?: string | number | null;
  /** The session id the request carried, redacted (`sid-…`), and its ordinal if it was known. */
  readonly session?: string;
  readonly sessionOrdinal?: number;
  status?: number;
  /** The fault the chaos server applied, if any (`status 429`, `session-gone typescript-sdk`, `drop-stream`, …). */
  fault?: string;
}

const MAX_ENTRIES = 10_000;

/**
 * Every request, in order, bounded to the last 10,000.
 *
 * @example
 * const entry = log.add({ atMs: 5, httpMethod: 'POST', rpcMethod: 'tools/call' });
 * entry.status = 200;
 */
export class WireLog {
  #entries: WireEntry[] = [];
  #seq = 0;

  add(entry: Omit<WireEntry, 'seq'>): WireEntry {
    const full: WireEntry = { seq: ++this.#seq, ...entry };
    this.#entries.push(full);
    if (this.#entries.length > MAX_ENTRIES) this.#entries.shift();
    return full;
  }

  entries(): readonly WireEntry[] {
    return this.#entries;
  }

  clear(): void {
    this.#entries = [];
  }
}
