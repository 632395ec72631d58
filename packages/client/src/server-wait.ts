import { isResilienceError, ResilienceError, serverUnreachable, type Action, type ErrorInfo, type Verdict } from '@mcp-resilience/core';
import type { Engine } from './engine.ts';

type WaitStep = Extract<Action, { type: 'wait-for-server' }>;

/**
 * `SERVER_UNREACHABLE` for a server this client never reached: its connection refused, a wrong
 * URL is likelier than a restart (see `waitForNewServer`). Named by origin and path, never its query.
 *
 * @example
 * throw new ResilienceError(neverReached('http://127.0.0.1:3999/mcp')); // "Nothing answers at http://127.0.0.1:3999/mcp: …"
 */
export function neverReached(url: string): ErrorInfo {
  const { origin, pathname } = new URL(url);
  return {
    code: 'SERVER_UNREACHABLE', message: `Nothing answers at ${origin}${pathname}: the connection was refused`, details: { url: `${origin}${pathname}`, reached: false },
  };
}
type Outcome = 'reachable' | 'deadline' | 'aborted' | 'closed';

/**
 * One request's wait for a server that refuses connections (a restart), as core decides it:
 * each delay is slept on the engine's sleep port, ended at once by the caller's abort or the
 * engine's close. The wait is told twice: `server-wait-started` at its first refusal,
 * `server-wait-ended` when it is over (the server answered, the deadline came, the caller
 * aborted, the engine closed). Nothing here decides: `decide` says how long, and until when.
 *
 * @example
 * const wait = new ServerWait(engine, 'tools/call');
 * wait.observed(verdict); // after each attempt: a verdict other than a refusal ends the wait (or `reached()` on any answer)
 * if (action.type === 'wait-for-server') await wait.sleep(action, signal);
 */
export class ServerWait {
  #startedAtMs: number | undefined;
  #attempts = 0;
  readonly #engine: Engine;
  /** The request's JSON-RPC method, if it has one: the events name it. */
  readonly #method: string | undefined;
  readonly #ownDeadline: boolean;

  /**
   * `ownDeadline`: the signal given to {@link sleep} is the engine's own deadline (a
   * re-initialization's `requestDeadlineMs`), not a caller's: when it fires, the deadline came,
   * and the wait rejects with `SERVER_UNREACHABLE` as core's own deadline does.
   */
  constructor(engine: Engine, method: string | undefined, ownDeadline: boolean | undefined, readonly client?: number) {
    this.#engine = engine;
    this.#method = method;
    this.#ownDeadline = ownDeadline === true;
  }

  /** An attempt got an answer (any status): the server is reachable again. */
  reached(): void {
    this.#end('reachable');
  }

  /** What an attempt came to: anything but a refusal (an answer, a connection broken after sending) means the server is reachable again. */
  observed(verdict: Verdict): void {
    if (verdict.kind !== 'not-processed') this.#end('reachable');
  }

  /**
   * The call gives up. A wait still open was ended by a refusal, and core gives up on a refusal
   * only at the deadline (`SERVER_UNREACHABLE`): that is how the wait ends.
   */
  gaveUp(): void {
    this.#end('deadline');
  }

  /** Waits `step.delayMs` before the next attempt; rejects as the engine's waits do (the abort reason, `ENGINE_CLOSED`), or see `ownDeadline`. */
  async sleep(step: WaitStep, signal: AbortSignal | null | undefined): Promise<void> {
    const engine = this.#engine;
    engine.assertOpen();
    if (this.#startedAtMs === undefined) {
      this.#startedAtMs = engine.ports.now();
      engine.emit({ type: 'server-wait-started', method: this.#method, limitMs: step.untilMs - this.#startedAtMs }, this.client); // > 0: core says so
    }
    this.#attempts = step.attempt;
    try {
      await engine.sleep(step.delayMs, signal);
    } catch (error) {
      const deadline = this.#ownDeadline && (error as { name?: unknown } | undefined)?.name === 'TimeoutError';
      this.#end(deadline ? 'deadline' : isResilienceError(error, 'ENGINE_CLOSED') ? 'closed' : 'aborted');
      if (!deadline) throw error;
      throw new ResilienceError(serverUnreachable(step.attempt - 1, engine.requestDeadlineMs), { cause: error });
    }
  }

  #end(outcome: Outcome): void {
    if (this.#startedAtMs === undefined) return;
    const waitedMs = this.#engine.ports.now() - this.#startedAtMs;
    this.#startedAtMs = undefined;
    this.#engine.emit({ type: 'server-wait-ended', method: this.#method, outcome, attempts: this.#attempts, waitedMs }, this.client);
  }
}
