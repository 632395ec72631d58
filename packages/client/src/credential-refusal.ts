import { ResilienceError } from '@mcp-resilience/core';
import { cannotOpen } from './cannot-open.ts';
import type { Engine } from './engine.ts';
import { HOLD_CAP_MS } from './limits.ts';

/** A refusal of the client's credentials: its error, the version of the credentials refused, its answer. */
interface Refused {
  readonly error: ResilienceError;
  readonly version: number;
  readonly answer: () => Response;
  /**
   * True once the client's credentials changed and the first request sent with them was answered
   * (the calls waiting then go again knowing what it met: a session gone, say, which none of them
   * then carries); false when they could not be mended, or the wait ran out first.
   */
  readonly renewed: Promise<boolean>;
  /** Ends the refusal: the calls waiting go again (`true`) or get its answer. */
  readonly end: (renewed: boolean) => void;
  /** Once handed to a call: that call's JSON-RPC id. */
  handed?: { readonly id: unknown };
}

/**
 * What a refusal of a request says of the client's credentials: `token` (a 401: its credentials
 * as a whole), `scope` (a 403 whose challenge's `error` is `insufficient_scope`: what this request
 * asked for), or nothing.
 *
 * @example
 * credentialProblem(new Response(null, { status: 401 })); // 'token'
 */
export function credentialProblem(response: Response): 'token' | 'scope' | undefined {
  if (response.status === 401) return 'token';
  if (response.status !== 403) return undefined;
  // The challenge's own `error` parameter, not the words anywhere in it (an `error_description` may say anything).
  const error = /(?:^|[\s,])error\s*=\s*(?:"([^"]*)"|([^\s,"]+))/i.exec(response.headers.get('www-authenticate') ?? '');
  return (error?.[1] ?? error?.[2]) === 'insufficient_scope' ? 'scope' : undefined;
}

/**
 * One client's credentials refused, to one of its requests or to its re-initialization, for its
 * SDK's auth provider to mend (the engine never refreshes a token, nor invents one).
 *
 * Where a renewal will come (`renews`: the client has an auth provider), the refusal stands: the
 * first call that meets it gets it as its answer, and every other call, in flight or begun while
 * it stands, waits for the client's next credentials and goes again with them. So twenty calls
 * meeting an expired token cost one refresh, not twenty (a refresh token that works once would
 * fail all but one). The wait ends when the credentials change, when the call that got the
 * answer comes back with the same ones (they could not be mended) or is given up, and at the
 * request deadline. Where none will come, and for a scope refused (it concerns the request that
 * asked), every call that meets the refusal gets it at once, as from the plain SDK.
 *
 * @example
 * const error = session.clientHeaders.refuse(engine, version, 401, () => new Response(body, response));
 * const answer = await session.clientHeaders.answerOf(Promise.reject(error), id); // the 401, or undefined: go again with the new credentials
 */
export class CredentialRefusal {
  /** The refusal that stands, while a renewal is awaited. */
  #standing: Refused | undefined;
  readonly #refusals = new WeakMap<object, Refused>();
  /** After a renewal: the version of the new credentials, until a request sent with them is answered. */
  #heard: { readonly version: number; readonly done: Promise<void>; readonly hear: () => void } | undefined;
  /** Counts the changes of the client's credentials (see `ClientHeaders`): a refreshed token, say. */
  version = 0;

  /** `renews`: the client has an auth provider that mends refused credentials (see `renewsCredentials`). */
  constructor(readonly renews: boolean) {}

  /**
   * Notes that the client's credentials of version `version` were refused (`scope`: only what one
   * request asked for); the error that stands for it (the same while it stands), which
   * {@link answerOf} turns into a call's answer.
   */
  refuse(engine: Engine, version: number, status: number, answer: () => Response, problem: 'token' | 'scope' = 'token'): ResilienceError {
    const standing = this.standing();
    if (standing && this.#standing!.version === version) return standing;
    let settle!: (renewed: boolean) => void;
    const deadline = new AbortController();
    const refused: Refused = {
      error: new ResilienceError(cannotOpen('refused', `HTTP ${status}`, { status })),
      version, answer, renewed: new Promise((resolve) => (settle = resolve)),
      end: (renewed) => {
        if (this.#standing === refused) this.#standing = undefined;
        deadline.abort();
        if (!renewed) return settle(false);
        // Renewed: the calls waiting go once the first request with the new credentials is answered (at most HOLD_CAP_MS).
        const heard = new AbortController();
        const done = engine.sleep(HOLD_CAP_MS, heard.signal).then(() => {}, () => {});
        this.#heard = { version: this.version, done, hear: () => heard.abort() };
        void done.then(() => settle(true));
      },
    };
    this.#refusals.set(refused.error, refused);
    if (this.renews && problem === 'token' && version === this.version) {
      this.#standing?.end(false);
      this.#standing = refused;
      engine.sleep(engine.requestDeadlineMs, deadline.signal).then(() => refused.end(false), () => {});
    }
    return refused.error;
  }

  /** The error of the refusal that stands: none once the client's credentials changed (the calls waiting for them go again). */
  standing(): ResilienceError | undefined {
    const refused = this.#standing;
    if (refused && refused.version !== this.version) refused.end(true);
    return this.#standing?.error;
  }

  /** A request the client sent with its credentials of `version` was answered (or failed): see {@link Refused.renewed}. */
  heard(version: number): void {
    if (this.#heard && version >= this.#heard.version) {
      this.#heard.hear();
      this.#heard = undefined;
    }
  }

  /** A renewal failed (a token request refused): the calls waiting get the refusal now, not at the deadline. */
  renewalFailed(): void {
    this.#standing?.end(false);
  }

  /** The client gave up on call `id`: if it held the standing refusal's answer, no renewal is coming from it, and the calls waiting get the answer. */
  abandoned(id: unknown): void {
    if (id !== undefined && this.#standing?.handed?.id === id) this.#standing.end(false);
  }

  /**
   * Waits for `work` (a re-initialization, or a refusal met) for the call of JSON-RPC id `id`.
   * Refused for the client's credentials, its answer, or `undefined` when the call should go again
   * with newer credentials than those refused (see the class).
   */
  async answerOf(work: Promise<void>, id: unknown): Promise<Response | undefined> {
    try {
      await work;
    } catch (error) {
      const refused = this.#refusals.get(error as object);
      if (!refused) throw error;
      this.standing();
      // Credentials newer than those refused: it goes again with them, once the first request that carried them was answered.
      if (refused.version !== this.version) return void (await this.#heard?.done);
      if (refused !== this.#standing) return refused.answer();
      if (refused.handed) {
        // The call that has the answer, sent again with the same credentials: they could not be mended, and nobody waits.
        if (id !== undefined && id === refused.handed.id) refused.end(false);
        else if (await refused.renewed) return undefined;
      } else if (id !== undefined) {
        refused.handed = { id }; // a request without an id could never be told coming back
      }
      return refused.answer();
    }
  }
}
