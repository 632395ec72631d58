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

  /** The client gave up on the call: every wait of it ends now, with `CALL_CANCELLED`. */
  abandon(): void {
    this.abandoned ??= new ResilienceError(CANCELLED);
    this.#controller?.abort(this.abandoned);
  }
}
