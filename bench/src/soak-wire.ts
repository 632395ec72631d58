import type { ChaosServer, WireEntry } from '@mcp-resilience/chaos';
import { countBy } from './soak-timeline.ts';

/** What the chaos server saw, summed over the whole soak. */
export interface WireSummary {
  /** Requests the server received (all methods). */
  readonly requests: number;
  /** Requests whose log entries were lost before a sample took them (the log keeps the last 10,000). */
  readonly missed: number;
  /** Requests by HTTP method and JSON-RPC method: `POST tools/call`, `GET`, … */
  readonly byMethod: Readonly<Record<string, number>>;
  /** Faults the server actually dealt to requests: `status 429`, `drop-stream`, `session-gone amdahl`, … */
  readonly faultsDealt: Readonly<Record<string, number>>;
}

/**
 * Keeps every entry of a chaos server's wire log: the log holds only the last 10,000, so it
 * is sampled often (entries are kept by reference: the status and fault a request ends with
 * are filled in later by the server).
 *
 * @example
 * const wire = new WireSampler(chaos);
 * const timer = setInterval(() => wire.sample(), 200);
 * // … the soak …
 * wire.sample(); wire.summary();
 */
export class WireSampler {
  readonly #entries: WireEntry[] = [];
  #lastSeq = 0;
  #missed = 0;

  constructor(private readonly chaos: ChaosServer) {}

  /** Takes the entries logged since the last sample. */
  sample(): void {
    const log = this.chaos.state().log;
    let from = log.length;
    while (from > 0 && log[from - 1]!.seq > this.#lastSeq) from -= 1;
    const fresh = log.slice(from);
    const first = fresh[0];
    if (first === undefined) return;
    this.#missed += first.seq - this.#lastSeq - 1;
    this.#entries.push(...fresh);
    this.#lastSeq = fresh.at(-1)!.seq;
  }

  summary(): WireSummary {
    return {
      requests: this.#entries.length + this.#missed,
      missed: this.#missed,
      byMethod: countBy(this.#entries, (e) => `${e.httpMethod}${e.rpcMethod === undefined ? '' : ` ${e.rpcMethod}`}`),
      faultsDealt: countBy(this.#entries.filter((e) => e.fault !== undefined), (e) => e.fault!),
    };
  }
}
