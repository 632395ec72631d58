import { ResilienceError, type ErrorInfo } from '@mcp-resilience/core';

const CANCELLED: ErrorInfo = { code: 'CALL_CANCELLED', message: 'The caller gave up on the call: it is not sent again', details: {} };

/**
 * The calls whose requests follow each caller's signal: one listener on it for them all (an SDK
 * gives all its requests one), taken off once no call follows it, so that the engine never keeps
 * a caller's signal alive (Node holds a pending `AbortSignal.timeout` or `any` while it is listened to).
 */
const followers = new WeakMap<AbortSignal, { readonly calls: Set<AbortController>; readonly abort: () => void }>();

function follow(given: AbortSignal, call: AbortController): void {
  let entry = followers.get(given);
  if (!entry) {
    const calls = new Set<AbortController>();
    followers.set(given, (entry = { calls, abort: () => calls.forEach((c) => c.abort(given.reason)) }));
    given.addEventListener('abort', entry.abort, { once: true });
  }
  entry.calls.add(call);
}

function unfollow(given: AbortSignal, call: AbortController): void {
  const entry = followers.get(given);
  if (!entry?.calls.delete(call) || entry.calls.size) return;
  given.removeEventListener('abort', entry.abort);
  followers.delete(given);
}

/**
 * What ends every wait of one call: its caller's abort (the request's own signal), or its client
 * giving up on it (an SDK's timeout or abort reaches the engine only as `notifications/cancelled`).
 * The signal is made when first asked for: a healthy call never waits, and pays nothing for it.
 *
 * @example
 * const ends = new CallSignal(init.signal);
 * await engine.sleep(delayMs, ends.signal); // rejects with CALL_CANCELLED once ends.abandon() is called
 */
export class CallSignal {
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #wire: AbortController | undefined;
  #following = false;
  #over = false;
  #reading = false;
  /** Set once the client gave up on the call: the error its waits end with. */
  abandoned: ResilienceError | undefined;

  constructor(readonly given: AbortSignal | null | undefined) {}

  get signal(): AbortSignal {
    if (!this.#signal) {
      this.#controller = new AbortController();
      this.#signal = this.given ? AbortSignal.any([this.given, this.#controller.signal]) : this.#controller.signal;
      if (this.abandoned) this.#controller.abort(this.abandoned);
    }
    return this.#signal;
  }

  /**
   * The signal the call's requests go out with: one of the call's own, aborted with the caller's.
   * Node's `fetch` adds a listener to each request's signal and drops it only once the request is
   * collected; on the one signal the SDK gives all its requests, they pile up, and each request
   * walks them all. Followed until the call is over and its response stream read no more.
   */
  get wire(): AbortSignal | null {
    const given = this.given;
    if (!given || given.aborted) return given ?? null;
    this.#wire ??= new AbortController();
    if (!this.#following) follow(given, this.#wire);
    this.#following = true;
    return this.#wire.signal;
  }

  /** The call is over (its answer handed on, or its failure): see {@link wire}. */
  over(): void {
    this.#over = true;
    this.#unfollow();
  }

  /** A response stream of the call is being read (`true`), or is read no more: see {@link wire}. */
  reading(open: boolean): void {
    this.#reading = open;
    this.#unfollow();
  }

  #unfollow(): void {
    if (!this.#following || !this.#over || this.#reading) return;
    unfollow(this.given!, this.#wire!);
    this.#following = false;
  }

  /** The client gave up on the call: every wait of it ends now, with `CALL_CANCELLED`. */
  abandon(): void {
    this.abandoned ??= new ResilienceError(CANCELLED);
    this.#controller?.abort(this.abandoned);
  }
}
