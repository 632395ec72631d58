/** A call its caller may give up on. */
export interface Abandonable {
  /** The id its request last went out under (a re-issue, or a resumed client's mapped id, takes another). */
  readonly sentId: string | number;
  /** Its caller gave up: it sends nothing more, and every wait for it ends. */
  abandon(): void;
}

/**
 * One lineage's calls in flight, by the JSON-RPC id its client gave each: how a
 * `notifications/cancelled` (an SDK's timeout or abort reaches the engine only that way) finds
 * the call it ends, and the id the server knows it by.
 *
 * @example
 * const done = calls.add(7, runner);
 * calls.cancel(7); // the client sent notifications/cancelled for request 7: runner.abandon()
 * done();
 */
export class InFlightCalls {
  readonly #calls = new Map<unknown, Abandonable>();

  /** Notes a call in flight; the function returned says it is over. */
  add(id: string | number, call: Abandonable): () => void {
    this.#calls.set(id, call);
    return () => {
      if (this.#calls.get(id) === call) this.#calls.delete(id);
    };
  }

  /** The client gave up on request `id`: that call, if still in flight, is abandoned. Returns the id the server knows it by then. */
  cancel(id: unknown): string | number | undefined {
    const call = this.#calls.get(id);
    if (!call) return undefined;
    this.#calls.delete(id);
    call.abandon();
    return call.sentId;
  }
}
