import {
  advance, classify, FRESH_CALL, isResilienceError, ResilienceError, unrecognisedAnswer, type CallState, type ErrorInfo, type Observation,
  type Operation, type RequestFacts, type Verdict,
} from '@mcp-resilience/core';
import { abortable } from './abortable.ts';
import { AnsweredResponse } from './answered-response.ts';
import { whenBodyEnds } from './body-end.ts';
import type { EndpointSession } from './endpoint-session.ts';
import type { Engine } from './engine.ts';
import { exchange, refusalOf } from './exchange.ts';
import { findAnswer, isEventStream, isJson, type PostBody, type RpcMessage } from './messages.ts';
import { withRequestId } from './request-id.ts';
import { ServerWait } from './server-wait.ts';
import { superviseStream, type StreamNext, type StreamOwner } from './stream-supervisor.ts';

/** Statuses whose responses have no body (Fetch standard: a null body status). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** One request as the application's SDK sent it. */
export interface CallRequest {
  readonly url: string;
  /** With its method in capitals. */
  readonly init: RequestInit & { readonly method: string };
  /** A POST's body, read once. */
  readonly body?: PostBody;
  readonly operation: Operation;
  /** Told once when the call is over (its answer read, or it failed): how the session knows it is in use. */
  readonly done?: () => void;
  /** Counted as one call in flight on its session already (it must not find itself "in use"). */
  readonly entered?: boolean;
}

/**
 * One logical call, and the one owner of its state: it sends the request, observes what came
 * back, has core classify and decide, and carries the decision out (deliver, re-initialize and
 * replay, back off, re-issue, resume, give up) until the call is answered or given up. The
 * stream supervisor only reports what it observed on a response stream; the decisions about it
 * are made here too. `gave-up` is emitted here, once per call.
 *
 * @example
 * const response = await new CallRunner(engine, session, { url, init, body, operation }).run();
 */
export class CallRunner implements StreamOwner {
  readonly originalId: string | number;
  #sentId: string | number;
  #text: string | undefined;
  #state: CallState = FRESH_CALL;
  #attempts = 0;
  /** The facts of the latest attempt, and the session it went out on. */
  #facts: RequestFacts = { sessionIdSent: false };
  #ordinal = 0;
  #gaveUp = false;
  #finished = false;
  #upstream: { readonly url: string; readonly redirected: boolean } | undefined;
  /** The call's wait for a server that refuses connections (a restart), if it meets one. */
  readonly #serverWait: ServerWait;

  constructor(private readonly engine: Engine, private readonly session: EndpointSession, private readonly request: CallRequest) {
    this.#serverWait = new ServerWait(engine, request.operation.method);
    const message = request.body?.kind === 'request' ? request.body.message : undefined;
    this.originalId = this.#sentId = message?.id as string | number;
    this.#text = request.body?.text;
  }

  /** Where the latest answer came from (after the redirects `fetch` followed): the response handed on says so too. */
  get upstream(): { readonly url: string; readonly redirected: boolean } | undefined {
    return this.#upstream;
  }

  get sentId(): string | number {
    return this.#sentId;
  }

  get signal(): AbortSignal | undefined {
    return this.request.init.signal ?? undefined;
  }

  /** The SDK's `notifications/initialized`: it ends the `initialize` just answered, and a session is not idle before that. */
  get #completesHandshake(): boolean {
    return this.request.operation.method === 'notifications/initialized';
  }

  /** Whether this call is a JSON-RPC request (one that gets an answer). */
  get #isRequest(): boolean {
    return this.originalId !== undefined;
  }

  /** Runs the call to its answer (a supervised stream, for SSE) or its typed failure. */
  async run(): Promise<Response> {
    this.engine.countCall();
    try {
      return await this.#attempt(true);
    } catch (error) {
      this.finished();
      throw error;
    }
  }

  finished(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.request.done?.();
  }

  message(message: RpcMessage, isAnswer: boolean): RpcMessage | undefined {
    if (!isAnswer) return void this.session.notice(message);
    // Recorded against the request as the SDK sent it: under its own id.
    const answer = message.id === this.originalId ? message : { ...message, id: this.originalId };
    const instead = this.session.answered(this.request.body!.message!, answer, this.#ordinal, this.request.operation);
    if (instead) this.#giveUp('TASK_LOST'); // its answer, handed on, is the typed error
    return instead;
  }

  /**
   * Sends the request until it is answered or given up. `top`: the response goes to the SDK (a
   * stream is supervised); otherwise it goes to the supervisor that asked for a re-issue.
   */
  async #attempt(top: boolean): Promise<Response> {
    const { engine, session } = this;
    const { url, init, operation } = this.request;
    const method = operation.method;
    for (;;) {
      const headers = new Headers(init.headers);
      // A session the application ended is not the engine's to mend, nor is one it is ending (a
      // DELETE goes to the current session, if any, and nothing is opened for it).
      const sessionLogic = !session.terminated && init.method !== 'DELETE';
      const preparing = sessionLogic ? this.#prepare(headers.has('mcp-session-id')) : undefined;
      if (preparing) await preparing;
      session.stamp(headers);
      this.#ordinal = session.ordinal;
      this.#attempts++;
      // The negotiated revision; without an initialize (2026-07-28), the one the request declares.
      const revision = session.revision ?? headers.get('mcp-protocol-version') ?? undefined;
      this.#facts = {
        ...(revision === undefined ? {} : { revision }),
        sessionIdSent: sessionLogic && headers.has('mcp-session-id'), httpMethod: init.method as 'POST' | 'GET' | 'DELETE',
        ...(method === undefined ? {} : { rpcMethod: method }),
      };
      const sent = await exchange(engine.fetch, engine.ports.notSent, url, { ...init, headers, ...(this.#text === undefined ? {} : { body: this.#text }) }, this.#facts);
      const { response } = sent;
      if (response) this.#upstream = { url: response.url, redirected: response.redirected };
      if (response) this.#serverWait.reached(); // any answer: the server listens
      session.noteExchange(method ?? init.method, response?.status ?? 'network');
      // After an initialize whose session id may have been hidden (CORS): does the server want one?
      const hidden = response && !headers.has('mcp-session-id') ? session.answeredWithoutId(response.status) : undefined;
      let observation: Observation | undefined = sent.observation;
      let errorText = '';
      if (response?.ok) {
        session.touch();
        const answered = await this.#answered(response, top);
        if (answered instanceof Response) return answered;
        observation = answered;
      } else if (response) {
        // A refusal that may say "session gone": nothing else goes out on the session until it is decided.
        const release = this.#facts.sessionIdSent && response.status >= 400 && response.status < 500 && response.status !== 429
          ? session.hold() : undefined;
        try {
          const refusal = await refusalOf(response, this.#facts);
          observation = refusal;
          errorText = refusal.body;
        } finally {
          release?.(); // released once classified below: the same tick, nothing awaited in between
        }
        if (hidden) throw this.#fail(hidden, observation); // instead of the server's "No valid session ID provided"
      }
      const classified = classify(observation!, engine.classifyOptions);
      // Ended by the application while this was in flight (its DELETE answered first): not the engine's to mend.
      const verdict: Verdict = classified.kind === 'session-gone' && session.terminated ? { kind: 'client-error' } : classified;
      this.#serverWait.observed(verdict);
      const action = engine.decide(verdict, this.#state, operation, revision);
      if (verdict.kind === 'session-gone') session.lost(this.#ordinal, verdict, method);
      else if (response) session.touch(); // the session answered: in use, a 429 as much as a 200
      const unrecognised = unrecognisedAnswer(observation!, verdict, headers.get('mcp-session-id') ?? undefined);
      if (unrecognised) engine.emit({ type: 'unrecognised-answer', ...(method === undefined ? {} : { method }), ...unrecognised });
      switch (action.type) {
        case 'deliver': // a final answer; a 304 (a status that has no body) cannot be given one, even an empty one
          if (top) this.finished();
          return new Response(NULL_BODY_STATUSES.has(response!.status) ? null : errorText, {
            status: response!.status, statusText: response!.statusText, headers: response!.headers,
          });
        case 'give-up': // the cause: the server's answer, or what the runtime said of a fetch that got none
          this.#serverWait.gaveUp(); // a wait still open ends here only at its deadline (SERVER_UNREACHABLE)
          throw this.#fail(action.error, sent.error ?? observation);
        case 'wait-for-server': // refused, so nothing was sent: the same request goes again once the wait is over
          await this.#guard(this.#serverWait.sleep(action, init.signal));
          this.#state = advance(this.#state, action);
          break;
        case 'reinitialize-and-replay':
          await this.#waitFor(session.recover(this.#ordinal));
          this.#state = advance(this.#state, action);
          engine.emit({
            type: 'replayed', session: session.ordinal,
            ...(method === undefined ? {} : { method }), ...(operation.stream ? { stream: true } : {}),
          });
          break;
        case 'resume': // a response stream only breaks once it was handed on; not reached for a failed exchange
        case 'retry':
        case 'reissue':
          if (action.type !== 'resume') await this.#guard(engine.backOff(action, verdict, method, response?.status, init.signal));
          if (action.type === 'reissue' && this.#isRequest) this.#newId(`${String(this.originalId)}~r${action.attempt}`);
          this.#state = advance(this.#state, action);
      }
    }
  }

  /**
   * A 2xx: the response to hand on, or, for a request whose answer it does not hold, the
   * observation of a stream that ended before it. A JSON answer is read whole here: cut mid-body,
   * or without the response to the request (another id, none, garbage), it is decided like a
   * stream that ended early; so is a 2xx with no body, or a body of another type (a 202 or 204 to
   * a request, an HTML page): nothing in it answers the request.
   */
  async #answered(response: Response, top: boolean): Promise<Response | Observation> {
    if (!this.#isRequest) return top && this.request.done ? whenBodyEnds(response, () => this.finished()) : response;
    const type = response.headers.get('content-type');
    if (isEventStream(type) && response.body) return top ? superviseStream(response, this) : response;
    if (isJson(type) && response.body) {
      const text = await response.text().then((t) => t, () => undefined); // undefined: cut mid-body
      if (text === undefined && this.signal?.aborted) throw this.signal.reason;
      const found = text === undefined ? undefined : findAnswer(text, this.#sentId, this.originalId);
      if (found) {
        const instead = this.message(found.answer, true);
        if (top) this.finished();
        return instead
          ? new AnsweredResponse(JSON.stringify(instead), instead, instead, response)
          : new AnsweredResponse(found.text, found.value, found.answer, response);
      }
    } else {
      await response.body?.cancel().catch(() => {});
    }
    return { kind: 'stream-ended', ...this.#facts };
  }

  /** The stream handed to the SDK ended before its answer: decided and carried out here. */
  async ended(cursor: { readonly lastEventId?: string; readonly retryMs?: number }): Promise<StreamNext> {
    const { engine } = this;
    const method = this.request.operation.method;
    try {
      for (let at = cursor; ;) {
        const observation: Observation = { kind: 'stream-ended', ...this.#facts, ...at };
        const verdict = classify(observation, engine.classifyOptions);
        const action = engine.decide(verdict, this.#state, this.request.operation, this.#facts.revision);
        this.#state = advance(this.#state, action);
        if (action.type === 'resume') {
          engine.emit({ type: 'resumed', ...(method === undefined ? {} : { method }), attempt: action.attempt, delayMs: action.delayMs });
          await engine.sleep(action.delayMs, this.signal);
          const resumed = await this.#resume(action.lastEventId);
          if (resumed) return { follow: resumed };
          at = {}; // not resumable after all: decided again, without a cursor
          continue;
        }
        if (action.type === 'reissue') {
          await engine.backOff(action, verdict, method, undefined, this.signal);
          this.#newId(`${String(this.originalId)}~s${action.attempt}`);
          return await this.#reissued(await this.#attempt(false));
        }
        const error: ErrorInfo = action.type === 'give-up'
          ? action.error
          : { code: 'OUTCOME_UNKNOWN', message: 'The response stream ended before the response', details: {} };
        this.#fail(error, observation);
        return { fail: error };
      }
    } catch (error) {
      if (this.signal?.aborted) throw this.signal.reason;
      const info: ErrorInfo = isResilienceError(error)
        ? { code: error.code, message: error.message, details: error.details }
        : { code: 'OUTCOME_UNKNOWN', message: 'The call could not be completed', details: {} };
      this.#fail(info, error);
      return { fail: info };
    }
  }

  /** What a re-issue sent on behalf of the supervisor came to. */
  async #reissued(response: Response): Promise<StreamNext> {
    if (response instanceof AnsweredResponse) return { answer: response.answer };
    if (isEventStream(response) && response.body) return { follow: response };
    // A final error answered the re-issue: handed on if it answers the request.
    const found = findAnswer(await response.text().catch(() => ''), this.#sentId, this.originalId);
    if (found) return { answer: found.answer };
    throw this.#fail({ code: 'MALFORMED_RESPONSE', message: 'The re-issued request got no answer', details: { status: response.status } });
  }

  /** GET + `Last-Event-ID` on the call's session; undefined when that did not give a stream. */
  async #resume(lastEventId: string): Promise<Response | undefined> {
    const { session } = this;
    // A cursor belongs to its session: on another one it means nothing.
    if (session.ordinal !== this.#ordinal) return undefined;
    const headers = new Headers(this.request.init.headers);
    session.stamp(headers);
    headers.delete('content-type');
    headers.set('accept', 'text/event-stream');
    headers.set('last-event-id', lastEventId);
    try {
      const signal = this.signal;
      const response = await this.engine.fetch(this.request.url, { method: 'GET', headers, redirect: 'manual', ...(signal ? { signal } : {}) });
      if (response.ok && isEventStream(response) && response.body) return response;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      if (this.signal?.aborted) throw error;
      // Not resumable after all: the next decision knows.
    }
    return undefined;
  }

  /**
   * Before each attempt: the session's own preparation (a shared re-initialization, an idle
   * replacement), abortable; `undefined` when the attempt may go at once.
   */
  #prepare(sdkSentSession: boolean, idleCheck = this.#attempts === 0 && !this.#completesHandshake): Promise<void> | undefined {
    if (this.session.changed) throw this.#fail(this.session.changed);
    const waiting = this.session.prepare(sdkSentSession, idleCheck, this.request.entered === true);
    // Once it has waited, it prepares again: a re-initialization it waited for may have changed the
    // session (to a revision without sessions, even), or failed, or another may be under way. The
    // idle check is made once: a session opened for this call is never replaced for being idle.
    return waiting && this.#waitFor(waiting).then(() => this.#prepare(sdkSentSession, false));
  }

  /**
   * Waits on the session (a re-initialization, shared or not) until it is done, the call is
   * aborted or the engine closed. A call that stops waiting leaves the work to the others: its
   * failure is theirs to hear of, never an unhandled rejection.
   */
  #waitFor(work: Promise<void>): Promise<void> {
    work.catch(() => {});
    return this.#guard(this.engine.wait(this.signal, (ended) => abortable(work, ended)));
  }

  /** A wait's end, for the call: an abort as it is, anything else a typed give-up. */
  async #guard(wait: Promise<void>): Promise<void> {
    try {
      await wait;
    } catch (error) {
      if (this.signal?.aborted) throw this.signal.reason;
      // The session's own error names what failed; its cause (the server's answer, the hook's error) is the call's cause.
      if (isResilienceError(error)) throw this.#fail({ code: error.code, message: error.message, details: error.details }, error.cause ?? error);
      throw this.#fail({ code: 'SESSION_LOST', message: 'A new session could not be opened', details: {} }, error);
    }
  }

  #newId(id: string): void {
    this.#sentId = id;
    this.#text = withRequestId(this.#text!, id);
  }

  /** The call gives up: told once, as `gave-up`, and thrown (or written into its stream) as a typed error. */
  #fail(error: ErrorInfo, cause?: unknown): ResilienceError {
    this.#giveUp(error.code);
    return new ResilienceError(error, cause === undefined ? {} : { cause });
  }

  #giveUp(code: ErrorInfo['code']): void {
    if (this.#gaveUp) return;
    this.#gaveUp = true;
    const method = this.request.operation.method;
    this.engine.emit({ type: 'gave-up', ...(method === undefined ? {} : { method }), code });
  }
}
