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
  /** By id, every call in flight under it: more than one only on a lineage several clients share (a server without sessions). */
  readonly #calls = new Map<unknown, Abandonable[]>();

  /** Notes a call in flight; the function returned says it is over. */
  add(id: string | number, call: Abandonable): () => void {
    const calls = this.#calls.get(id);
    if (calls) calls.push(call);
    else this.#calls.set(id, [call]);
    return () => {
      const left = this.#calls.get(id)?.filter((other) => other !== call);
      if (left?.length) this.#calls.set(id, left);
      else this.#calls.delete(id);
    };
  }

  /**
   * The client gave up on request `id`: that call, if still in flight, is abandoned. Returns the id the server knows it by then.
   * Two calls in flight under one id (two clients sharing a lineage: a server without sessions, a shared fetch) cannot be told
   * apart: neither is abandoned, rather than the other client's call (each goes on as without the engine).
   */
  cancel(id: unknown): string | number | undefined {
    const calls = this.#calls.get(id);
    if (calls?.length !== 1) return undefined;
    const call = calls[0]!;
    this.#calls.delete(id);
    call.abandon();
    return call.sentId;
  }
}
