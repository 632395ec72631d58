import {
  canRetry, createRetryBudget, createRetryPolicy, decide, defined, invalidOption, recordCall, recordRetry, ResilienceError,
  type Action, type CallState, type ErrorInfo, type Loose, type Operation, type ResilienceEvent, type RetryBudget,
  type RetryBudgetState, type RetryPolicy, type Verdict,
} from '@mcp-resilience/core';
import { credentialNames } from './credentials.ts';
import { DEFAULT_REQUEST_DEADLINE_MS } from './limits.ts';
import { checkedIdentity } from './store-key.ts';
import { resolvePorts, type EnginePorts } from './ports.ts';
import type { ResilientFetchOptions } from './options.ts';

type Delay = Extract<Action, { type: 'retry' | 'reissue' }>;
/** An event as the engine makes it: the time is added when it is emitted. */
type NewEvent = ResilienceEvent extends infer E ? (E extends ResilienceEvent ? Omit<E, 'atMs'> : never) : never;

const CLOSED: ErrorInfo = { code: 'ENGINE_CLOSED', message: 'The engine was closed', details: {} };

/**
 * What every call of one engine shares: its ports, its policy and retry budget, the options
 * that shape decisions, the one place where core's `decide` is asked, and every wait (each ends
 * at once when its call is aborted or the engine is closed).
 *
 * @example
 * const engine = new Engine(options);
 * const action = engine.decide(verdict, call, operation, revision);
 */
export class Engine {
  readonly ports: EnginePorts;
  readonly fetch: typeof fetch;
  readonly policy: RetryPolicy;
  readonly requestDeadlineMs: number;
  /** The header names that carry a client's credentials (see {@link credentialNames}). */
  readonly credentials: ReadonlySet<string>;
  /** Whose sessions the store keeps for this engine (`identity`): part of every store key. */
  readonly identity: string | undefined;
  readonly #budget: RetryBudget | undefined;
  #budgetState: RetryBudgetState | undefined;
  /** How to end every wait under way, when the engine closes. */
  readonly #waits = new Set<() => void>();
  #closed = false;

  /** The options it was made with (`idleBudgetMs`, `onSessionRestored`, …); `classify` takes them as they are (`dialects`). */
  constructor(readonly options: ResilientFetchOptions) {
    // The ports among the options (those given; the defaults for the rest). The other options ride along, never read as ports.
    this.ports = resolvePorts(options);
    const given = options.fetch;
    this.fetch = given ?? ((input, init) => fetch(input, init));
    // `requestDeadlineMs`, checked: a finite number of ms above 0 (the default when absent).
    const { requestDeadlineMs: deadline = DEFAULT_REQUEST_DEADLINE_MS } = options;
    if (!(deadline > 0 && deadline < Infinity)) throw invalidOption('requestDeadlineMs', '> 0');
    this.requestDeadlineMs = deadline;
    this.credentials = credentialNames(options.credentialHeaders);
    this.identity = checkedIdentity(options.identity);
    this.policy = createRetryPolicy({
      ...defined({ replay: options.replay, tools: options.tools, backoff: options.backoff, retryAfterCapMs: options.retryAfterCapMs }),
      // A call waits for a refusing server as long as the engine's own requests may take, or less if told so.
      restartWait: { ...options.restartWait, maxWaitMs: Math.min(options.restartWait?.maxWaitMs ?? Infinity, this.requestDeadlineMs) },
    });
    this.#budget = options.retryBudget === false ? undefined : createRetryBudget(options.retryBudget ?? {});
  }

  /**
   * Tells the application of a decision carried out (an `onEvent` that throws changes nothing); `undefined` fields are left out.
   * `client`: the lineage's number (see `Lineage.client`).
   */
  emit(event: Loose<NewEvent>, client?: number): void {
    try {
      this.ports.onEvent({ ...defined({ ...event, client }), atMs: this.ports.now() } as ResilienceEvent);
    } catch {
      // The application's listener is its own business.
    }
  }

  /** A new logical call, for the retry budget. */
  countCall(): void {
    if (this.#budget) this.#budgetState = recordCall(this.#budgetState, this.#budget, this.ports.now());
  }

  /** Core's decision for a classified attempt: the one place where its input is put together. */
  decide(verdict: Verdict, call: CallState, operation: Operation, revision: string | undefined): Action {
    const { now, random } = this.ports;
    return decide(defined({
      verdict, call, operation, policy: this.policy, nowMs: now(), random: random(), revision,
      retryBudgetAllows: this.#budget && canRetry(this.#budgetState, this.#budget, now()),
    }));
  }

  /** Carries out a retry or re-issue's wait: counted in the budget, told as an event, then waited. */
  async backOff(action: Delay, verdict: Verdict, method: string | undefined, status: number | undefined, signal?: AbortSignal | null, client?: number): Promise<void> {
    this.assertOpen(); // a closed engine tells of no wait it will not make
    if (this.#budget) this.#budgetState = recordRetry(this.#budgetState, this.#budget, this.ports.now());
    const { attempt, delayMs } = action;
    this.emit(action.type === 'reissue' ? { type: 'reissued', method, attempt, delayMs } : { type: 'backed-off', method, attempt, delayMs, verdict: verdict.kind, status }, client);
    await this.sleep(delayMs, signal);
  }

  /** Waits `ms`, ending early when `signal` aborts or the engine closes. */
  sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
    return this.wait(signal, (ended) => this.ports.sleep(ms, ended));
  }

  /**
   * Runs a wait that ends early, rejecting, when `signal` aborts (with its reason) or the engine
   * closes (`ENGINE_CLOSED`): `work` gets a signal that says so.
   */
  async wait<T>(signal: AbortSignal | null | undefined, work: (ended: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    this.assertOpen();
    const controller = new AbortController();
    const end = () => controller.abort(signal?.aborted ? signal.reason : new ResilienceError(CLOSED));
    signal?.addEventListener('abort', end, { once: true });
    this.#waits.add(end);
    try {
      return await work(controller.signal);
    } finally {
      signal?.removeEventListener('abort', end);
      this.#waits.delete(end);
    }
  }

  /**
   * One of the engine's own requests (a re-initialization, a restore, the application's hook):
   * bounded by `requestDeadlineMs`, and ended at once when the engine closes; refused once it is.
   */
  bounded<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.ports.deadline(this.requestDeadlineMs, (deadline) => this.wait(deadline, work));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Throws `ENGINE_CLOSED` once the engine is closed. */
  assertOpen(): void {
    if (this.#closed) throw new ResilienceError(CLOSED);
  }

  /** Ends every wait under way; later calls fail with `ENGINE_CLOSED`. */
  close(): void {
    this.#closed = true;
    for (const end of [...this.#waits]) end();
  }
}
