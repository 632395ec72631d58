import { ResilienceError, type ErrorInfo } from '@mcp-resilience/core';

const CANCELLED: ErrorInfo = { code: 'CALL_CANCELLED', message: 'The caller gave up on the call: it is not sent again', details: {} };

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
  #wire: AbortSignal | undefined;
  #follow: (() => void) | undefined;
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
   * walks them all. Followed until {@link release}.
   */
  get wire(): AbortSignal | null {
    const given = this.given;
    if (!given || given.aborted || this.#wire) return this.#wire ?? given ?? null;
    const controller = new AbortController();
    given.addEventListener('abort', (this.#follow = () => controller.abort(given.reason)), { once: true });
    return (this.#wire = controller.signal);
  }

  /** The call is over: its requests' signal stops following the caller's (nothing of the call stays on it). */
  release(): void {
    if (this.#follow) this.given!.removeEventListener('abort', this.#follow);
    this.#follow = undefined;
  }

  /** The client gave up on the call: every wait of it ends now, with `CALL_CANCELLED`. */
  abandon(): void {
    this.abandoned ??= new ResilienceError(CANCELLED);
    this.#controller?.abort(this.abandoned);
  }
}
