import { ResilienceError } from '@mcp-resilience/core';
import { cannotOpen } from './cannot-open.ts';
import type { Engine } from './engine.ts';

/** A refusal that stands: its error, the version of the client's headers refused, its answer, and who has it. */
interface Refused {
  readonly error: ResilienceError;
  readonly version: number;
  /** Calls that began before it ({@link CredentialRefusal.epoch}) met it in flight: they may wait. */
  readonly epoch: number;
  readonly answer: () => Response;
  /** True once the client's credentials changed; false when they could not be mended, or the request deadline passed first. */
  readonly renewed: Promise<boolean>;
  /** Ends the refusal: the calls waiting go again (`true`) or get its answer. */
  readonly end: (renewed: boolean) => void;
  /** Once handed to a call: that call's JSON-RPC id. */
  handed?: { readonly id: unknown };
}

/**
 * Whether a refusal is about the client's credentials (a 401, or a 403 `insufficient_scope`), for
 * its SDK's auth provider to mend.
 *
 * @example
 * refusesCredentials(new Response(null, { status: 401 })); // true
 */
export function refusesCredentials(response: Response): boolean {
  return response.status === 401 || (response.status === 403 && /insufficient_scope/.test(response.headers.get('www-authenticate') ?? ''));
}

/**
 * One client's credentials refused (a 401, or a 403 `insufficient_scope`), to one of its requests
 * or to its re-initialization: the answer goes to one call, for its SDK's auth provider to
 * refresh them and send the call again (the engine never refreshes a token, nor invents one); the
 * other calls in flight that meet the same credentials wait for the client's next ones and go
 * again with them. So twenty calls meeting an expired token cost one refresh, not twenty (a
 * refresh token that works once would fail all but one of them), and a token that cannot be
 * refreshed costs one error per call, at once, never a loop.
 *
 * @example
 * const error = session.clientHeaders.refuse(engine, version, 401, () => new Response(body, response));
 * const answer = await session.clientHeaders.answerOf(Promise.reject(error), id, epoch); // the 401, or undefined: go again with the new credentials
 */
export class CredentialRefusal {
  #refused: Refused | undefined;
  /** Counts the changes of the client's headers (see {@link ClientHeaders}): new credentials, a refreshed token, say. */
  version = 0;
  /** Counts the refusals: a call notes it when it begins, to tell one it met in flight from one that was there before it. */
  epoch = 0;

  /**
   * Notes that the client's headers of version `version` were refused; the error that stands for
   * that refusal (the same while it stands), which {@link answerOf} turns into a call's answer.
   */
  refuse(engine: Engine, version: number, status: number, answer: () => Response): ResilienceError {
    const standing = this.standing();
    if (standing && this.#refused!.version === version) return standing;
    const deadline = new AbortController();
    let settle!: (renewed: boolean) => void;
    const refused: Refused = {
      error: new ResilienceError(cannotOpen('refused', `HTTP ${status}`, { status })),
      version, epoch: ++this.epoch, answer, renewed: new Promise((resolve) => (settle = resolve)),
      end: (renewed) => {
        if (this.#refused === refused) this.#refused = undefined; // the next call goes as it is
        settle(renewed);
        deadline.abort();
      },
    };
    engine.sleep(engine.requestDeadlineMs, deadline.signal).then(() => refused.end(false), () => {});
    return (this.#refused = refused).error;
  }

  /** The error of the refusal that stands: none once the client's credentials changed (the calls waiting for them go again). */
  standing(): ResilienceError | undefined {
    const refused = this.#refused;
    if (refused && refused.version !== this.version) refused.end(true);
    return this.#refused?.error;
  }

  /**
   * Waits for `work` (a re-initialization, or a refusal already met) for the call of JSON-RPC id
   * `id`, begun at `epoch`. Refused for the client's credentials, it is the answer of the first
   * call that meets it, of any call begun after it, and of that first call sent again with the
   * same credentials (they could not be mended: the calls waiting get it too). The other calls in
   * flight wait for the client's next credentials (then `undefined`: they go again), at most the
   * request deadline, and get that answer after it.
   */
  async answerOf(work: Promise<void>, id: unknown, epoch: number): Promise<Response | undefined> {
    try {
      await work;
    } catch (error) {
      const refused = this.#refused!;
      if (error !== refused?.error) throw error;
      if (!this.standing()) return undefined; // credentials newer than those refused go at once
      if (refused.handed) {
        // The call that has the answer (or the stream, a GET), sent again with the same credentials: they could not be mended, and nobody waits.
        if (id === refused.handed.id) refused.end(false);
        else if (epoch < refused.epoch && await refused.renewed) return undefined;
      }
      refused.handed ??= { id };
      return refused.answer();
    }
  }
}
