import {
  defined, diagnoseLoss, isIdleBeyond, isResilienceError, lossReport, recoveryStep, ResilienceError,
  sessionChange, type Verdict,
} from '@mcp-resilience/core';
import { abortable } from './abortable.ts';
import { cannotOpen } from './cannot-open.ts';
import { credentialProblem } from './credential-refusal.ts';
import type { Lineage, OwnSend } from './lineage.ts';
import type { Engine } from './engine.ts';
import { isAnswerTo, readMessage, type RpcMessage } from './messages.ts';
import type { SessionRestoredContext } from './options.ts';
import { discard, HandedResponse } from './responses.ts';

type Why = 'lost' | 'idle';

let internalIds = 0;

/**
 * What one lineage does when its session is lost (the loss diagnosed and told) or about to be
 * (idle past the budget), and how it gets a new session in its place: the one re-initialization
 * its concurrent calls share (core's `recoveryStep`), with the client's own `initialize` and
 * `notifications/initialized`, then its state restored and the application's hook run. The
 * engine's own requests go through the call loop like any other ({@link CallRunner}, `own`),
 * carrying only this lineage's headers.
 *
 * @example
 * await session.recovery.recover(failedOrdinal); // the first caller opens it, the others wait for that one
 */
export class SessionRecovery {
  #reinitializing: Promise<void> | undefined;

  readonly #session: Lineage;
  readonly #engine: Engine;
  readonly #send: OwnSend;

  /** `send`: how one of the engine's own requests goes out for this lineage (through the one call loop, `own`). */
  constructor(session: Lineage, engine: Engine, send: OwnSend) {
    this.#session = session;
    this.#engine = engine;
    this.#send = send;
  }

  /** The re-initialization under way, if one is. */
  get underWay(): Promise<void> | undefined {
    return this.#reinitializing;
  }

  /** Notes a session loss with its diagnosis (and a bug report when it was in use); the session is declared dead. */
  lost(ordinal: number, verdict: Extract<Verdict, { kind: 'session-gone' }>, method: string | undefined): void {
    const session = this.#session;
    const current = session.tracker.current;
    if (current?.ordinal === ordinal) {
      const { serverUptimeSeconds } = verdict;
      const { serverIdleBudgetMs, busyWindowMs } = this.#engine.options;
      const facts = defined({
        sessionStartedAtMs: current.startedAtMs, lastActivityAtMs: current.lastActivityAtMs, failedAtMs: this.#engine.ports.now(),
        streamOpen: session.streamsOpen > 0, serverUptimeSeconds, idleBudgetMs: serverIdleBudgetMs, busyWindowMs,
      });
      const diagnosis = diagnoseLoss(facts);
      session.tasks.sessionLost(ordinal, diagnosis.cause);
      const report = lossReport(facts, diagnosis, session.exchanges);
      this.#engine.emit({
        type: 'session-lost', session: ordinal, dialect: verdict.dialect, method, ...diagnosis, report,
      }, session.client);
    }
    session.markDead(ordinal);
    session.save(); // without the dead id: no other engine picks it up
  }

  /**
   * Before a request goes out: if the SDK holds a session that is dead (a call gave up on it)
   * or, before a call's first attempt, idle past the budget, open the new one first, so that no
   * dead id is ever sent. A call being retried keeps its session: backoff is on the same session.
   * Returns what to wait for, after which the caller prepares again (the session may have moved
   * on meanwhile), or `undefined` when the request may go at once (the common case: nothing is
   * allocated for it). Nothing runs on behalf of a caller that stopped waiting.
   */
  prepare(sdkSentSession: boolean, firstAttempt: boolean, selfCounted: boolean): Promise<void> | undefined {
    const session = this.#session;
    // Begun while the client's credentials stand refused (a refresh under way): it waits for the new ones, with the others.
    const refused = session.clientHeaders.standing();
    if (refused && sdkSentSession) return Promise.reject(refused);
    // A re-initialization under way, or a refusal being read: wait for it (whatever came of it), then prepare again.
    const waitFor = this.#reinitializing ?? (sdkSentSession ? session.refusals.until : undefined);
    if (waitFor) return waitFor.catch(() => {});
    if (!sdkSentSession || !session.sessionful || session.initializeRequest === undefined) return undefined;
    const current = session.tracker.current;
    if (current === undefined) return this.recover(session.tracker.ordinals, 'lost');
    // In use (another call in flight, a stream open, a task running on it) is never idle.
    const inUse = session.callsInFlight > (selfCounted ? 1 : 0) || session.streamsOpen > 0 || session.tasks.holdsTask(current.ordinal);
    const { idleBudgetMs } = this.#engine.options;
    if (firstAttempt && !inUse && idleBudgetMs !== undefined && isIdleBeyond(session.tracker, this.#engine.ports.now(), idleBudgetMs)) {
      session.markDead(current.ordinal);
      this.end(current.id);
      return this.recover(current.ordinal, 'idle');
    }
    return undefined;
  }

  /** Makes sure a session newer than `failedOrdinal` exists: the first caller opens it, the others wait for that one. */
  recover(failedOrdinal: number, why: Why = 'lost'): Promise<void> {
    const session = this.#session;
    try {
      this.#engine.assertOpen();
      // Refused for the client's credentials: nothing goes out again with the same ones.
      const refused = session.clientHeaders.standing();
      if (refused) throw refused;
    } catch (error) {
      return Promise.reject(error);
    }
    const step = recoveryStep(session.tracker, failedOrdinal);
    if (step === 'replay') return Promise.resolve();
    if (step === 'wait' && this.#reinitializing) return this.#reinitializing;
    session.reinitializing(failedOrdinal);
    const run = this.#reinitialize(failedOrdinal, why).finally(() => {
      if (this.#reinitializing === run) this.#reinitializing = undefined;
    });
    this.#reinitializing = run;
    return run;
  }

  async #reinitialize(from: number, why: Why): Promise<void> {
    const session = this.#session, engine = this.#engine;
    const before = session.negotiated;
    await this.#open(from, why);
    if (session.initializedRequest) await this.#post(session.initializedRequest.text, 'notifications/initialized').catch(() => undefined);
    const restored = await session.state.restore((method, params) => this.#request(method, params).then((m) => 'result' in m, () => false));
    const to = session.ordinal;
    if (restored) engine.emit({ type: 'state-restored', session: to, ...restored }, session.client);
    const change = before && session.negotiated ? sessionChange(before, session.negotiated) : undefined;
    if (change) {
      engine.emit({ type: 'session-changed', from, to, ...change }, session.client);
      throw new ResilienceError(session.markChanged(change));
    }
    const hook = engine.options.onSessionRestored;
    if (hook) await this.#runHook(hook, { from, why, restored });
  }

  /** Opens the new session with the client's own `initialize`, backed off like any request, within the deadline. */
  async #open(from: number, why: Why): Promise<void> {
    const session = this.#session, engine = this.#engine;
    const init = session.initializeRequest;
    try {
      // An SDK given a session id up front skips initialize: there is nothing to open a new session with.
      if (!init) throw new ResilienceError(cannotOpen('no-initialize', 'the client sent no initialize'));
      // The client's initialize never carried a session id or a cursor (it opened its lineage), nor do its headers.
      const headers = session.clientHeaders.onto(init.headers), version = session.clientHeaders.version;
      const adopted = await engine.bounded(async (signal) => {
        const response = await this.#send({ method: 'POST', headers, body: init.text, signal }, 'initialize');
        if (!response.ok) {
          const { status } = response;
          const body = await response.text().catch(() => '');
          const problem = credentialProblem(response);
          if (problem) throw session.clientHeaders.refuse(engine, version, status, () => new HandedResponse(body, response), problem);
          throw new ResilienceError(cannotOpen('refused', `HTTP ${status}`, { status }), { cause: { status, body } });
        }
        engine.assertOpen(); // closed while it was answered: the session is not taken (nobody would end it)
        const learned = await session.learn(response, { from, why });
        await discard(response);
        return learned;
      });
      if (!adopted) throw new ResilienceError(cannotOpen('no-result', 'no initialize result'));
    } catch (error) {
      session.reinitializeAbandoned();
      if (isResilienceError(error)) throw error;
      throw new ResilienceError(cannotOpen('failed', 'its initialize failed'), { cause: error });
    }
  }

  /** The application's hook: a failure ends the new session too (the next call opens another), and fails the calls waiting. */
  async #runHook(
    hook: (context: SessionRestoredContext) => unknown,
    { from, why, restored }: { from: number; why: Why; restored: { subscriptions: number; logLevel?: string } | undefined },
  ): Promise<void> {
    const session = this.#session, engine = this.#engine;
    const ordinal = session.ordinal;
    const context: SessionRestoredContext = {
      session: ordinal, previous: from, reason: why, ...(session.negotiated as { revision: string; capabilities: unknown }), // its revision and capabilities
      restored: restored ?? { subscriptions: 0 },
      request: async (method, params) => {
        const answer = await this.#request(method, params);
        if ('result' in answer) return answer.result;
        const { code, message, data } = answer.error as { code?: unknown; message?: unknown; data?: unknown };
        throw new ResilienceError({ code: 'RPC_ERROR', message: `${method} failed: ${String(message)}`, details: { method, rpcCode: code, data } });
      },
      notify: async (method, params) => {
        await this.#post(JSON.stringify({ jsonrpc: '2.0', method, params }), method); // no `params` when undefined
      },
    };
    try {
      await engine.bounded((signal) => abortable(Promise.resolve().then(() => hook(context)), signal));
    } catch (error) {
      const id = session.tracker.current?.id;
      session.markDead(ordinal);
      this.end(id);
      session.save();
      throw new ResilienceError({
        code: 'SESSION_RESTORE_FAILED', message: 'onSessionRestored failed: the call is not replayed', details: { session: ordinal },
      }, { cause: error });
    }
  }

  /** One of the engine's own requests on the current session; resolves with its answer (a result or an error). */
  async #request(method: string, params: Record<string, unknown> | undefined): Promise<RpcMessage & { error?: unknown }> {
    const id = `mcp-resilience-${++internalIds}`;
    const request = defined({ jsonrpc: '2.0', id, method, params });
    const answer = await this.#post(JSON.stringify(request), method, id);
    if (!answer) throw new ResilienceError({ code: 'MALFORMED_RESPONSE', message: `No answer to ${method}`, details: {} });
    this.#session.answered(request, answer); // a tools/list sent from onSessionRestored teaches the new session's annotations
    return answer;
  }

  /**
   * Sends one of the engine's own messages on the current session. The answer to request
   * `answerTo` is read (an event stream up to it only: it may stay open); a notification's
   * response is not read at all: whatever it holds, and however long it lasts, nobody waits for it.
   */
  #post(body: string, method: string, answerTo?: string): Promise<RpcMessage | undefined> {
    const session = this.#session;
    const headers = this.#headers(session.initializeRequest!.headers, session.tracker.current?.id);
    return this.#engine.bounded(async (signal) => {
      const response = await this.#send({ method: 'POST', headers, body, signal }, method);
      if (answerTo !== undefined) return readMessage(response, (m) => isAnswerTo(m, answerTo));
      await discard(response);
      return undefined;
    });
  }

  /** Ends a session the client leaves (background work, best effort). */
  end(id: string | undefined): void {
    if (id !== undefined) this.#engine.ports.background(this.delete(id));
  }

  /** DELETE of session `id`, with this lineage's headers, within the deadline; never rejects. */
  delete(id: string): Promise<void> {
    const engine = this.#engine;
    const headers = this.#headers(undefined, id);
    return engine.ports.deadline(engine.requestDeadlineMs, (signal) =>
      this.#send({ method: 'DELETE', headers, signal }, undefined).then(discard))
      .then(() => {}, () => {});
  }

  /** This lineage's headers over `base`, for session `id` (if any), on the negotiated revision. */
  #headers(base: HeadersInit | undefined, id: string | undefined): Headers {
    const session = this.#session;
    const headers = session.clientHeaders.onto(base);
    if (id !== undefined) headers.set('mcp-session-id', id);
    if (session.negotiated) headers.set('mcp-protocol-version', session.negotiated.revision);
    return headers;
  }

}
