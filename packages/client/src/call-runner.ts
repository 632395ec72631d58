import {
  advance, classify, defined, FRESH_CALL, isResilienceError, ResilienceError, unrecognisedAnswer, type CallState, type ErrorInfo, type Observation,
  type RequestFacts, type Verdict,
} from '@mcp-resilience/core';
import { abortable, guarded } from './abortable.ts';
import { readAnswer } from './answer-read.ts';
import { credentialProblem } from './credential-refusal.ts';
import { withoutSpentProof } from './credentials.ts';
import type { Engine } from './engine.ts';
import type { Attempt, CallRequest } from './call-request.ts';
import { CallSignal } from './call-signal.ts';
import type { Abandonable } from './in-flight-calls.ts';
import type { Lineage } from './lineage.ts';
import type { RpcMessage } from './messages.ts';
import { withRequestId } from './request-id.ts';
import { neverReached, ServerWait } from './server-wait.ts';
import { streamNextOf, type StreamNext, type StreamOwner } from './stream-supervisor.ts';
import { exchange, finalAnswer, maySayGone, refusalOf, resumeStream } from './wire.ts';

/** A call that ended before its answer (its stream, or a failure on the way): whether it ran, nobody can tell. */
const UNFINISHED: ErrorInfo = { code: 'OUTCOME_UNKNOWN', message: 'The call could not be completed', details: {} };

/**
 * One logical request, and the one owner of its state: the one classify → decide → act loop of
 * the engine. It sends the request (through the wire), observes what came back, has core
 * classify and decide, and carries the decision out (deliver, re-initialize and replay, back off,
 * wait for the server, re-issue, resume) until the request is answered or given up. A response
 * stream that ends before its answer is an observation fed into the same loop (the stream
 * supervisor only reports it). `gave-up` is emitted here, once per call.
 *
 * @example
 * const response = await new CallRunner(engine, session, { url, init, body, operation }).run();
 */
export class CallRunner implements StreamOwner, Abandonable {
  readonly originalId: string | number;
  /** The id the server knows the call by: the client's, or a resumed client's mapped one (see `EndpointSession.wireIdOf`); a re-issue adds to it. */
  readonly #wireId: string | number;
  #sentId: string | number;
  #text: string | undefined;
  #state: CallState = FRESH_CALL;
  #attempts = 0;
  #facts: RequestFacts = { sessionIdSent: false }; // of the latest attempt, and the session it went out on:
  #ordinal = 0;
  /** The version of the client's credentials the latest attempt carried (at first, those the request came with). */
  #version: number;
  #gaveUp = false;
  #finished = false;
  #cursor: string | undefined; // the stream's, at its last resume
  #resumed: Response | undefined; // the stream that resume opened
  #serverWait: ServerWait | undefined; // for a server that refuses connections (a restart), made when it meets one
  readonly #ends: CallSignal;
  #leftInFlight: (() => void) | undefined;
  readonly #engine: Engine;
  readonly #session: Lineage;
  readonly #request: CallRequest;

  constructor(engine: Engine, session: Lineage, request: CallRequest) {
    this.#engine = engine;
    this.#session = session;
    this.#request = request;
    this.#version = session.clientHeaders.version;
    this.#ends = new CallSignal(request.init.signal);
    const message = request.body?.kind === 'request' ? request.body.message : undefined;
    this.originalId = message?.id as string | number;
    this.#wireId = this.#sentId = message === undefined ? this.originalId : session.wireIdOf(this.originalId);
    this.#text = this.#sentId === this.originalId ? request.body?.text : withRequestId(request.body!.text, this.#sentId);
  }

  get sentId(): string | number { return this.#sentId; }
  get signal(): AbortSignal { return this.#ends.signal; }

  /** Runs the request to its answer (a supervised stream, for SSE) or its typed failure. */
  run(): Promise<Response> {
    const own = this.#request.own;
    if (!own) this.#engine.countCall();
    if (!own && this.originalId !== undefined) this.#leftInFlight = this.#session.inFlight.add(this.originalId, this);
    return this.#loop(true).catch((error: unknown) => {
      if (error === this.#ends.abandoned) this.#giveUp('CALL_CANCELLED');
      this.finished();
      throw error;
    });
  }

  /** Its client gave up on it (its SDK's `notifications/cancelled`): never sent again, and every wait for it ends now. */
  abandon(): void { this.#ends.abandon(); }
  reading(open: boolean): void { this.#ends.reading(open); }

  finished(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#ends.over();
    this.#leftInFlight?.();
    this.#request.done?.();
  }

  message(message: RpcMessage, isAnswer: boolean): RpcMessage | undefined {
    if (!isAnswer) return void this.#session.notice(message);
    const answer = message.id === this.originalId ? message : { ...message, id: this.originalId }; // under the id the SDK sent
    const instead = this.#session.answered(this.#request.body!.message!, answer, this.#ordinal, this.#request.operation);
    if (instead) this.#giveUp('TASK_LOST'); // its answer, handed on, is the typed error
    return instead;
  }

  /** The stream handed to the SDK ended before its answer: an observation for the loop, whose outcome the supervisor follows. */
  async ended(cursor: { readonly lastEventId?: string; readonly retryMs?: number }): Promise<StreamNext> {
    try {
      // An event moved the cursor since the last resume: the stream makes progress (a server that polls), and may resume as often again.
      if (cursor.lastEventId !== this.#cursor) this.#state = { ...this.#state, resumes: 0 };
      this.#cursor = cursor.lastEventId;
      const response = await this.#loop(false, { kind: 'stream-ended', ...this.#facts, ...cursor });
      const next = await streamNextOf(response, this.#sentId, this.originalId);
      return 'follow' in next && response === this.#resumed ? { follow: next.follow, resumed: true } : next;
    } catch (error) {
      if (error === this.#ends.abandoned) this.#giveUp('CALL_CANCELLED');
      if (this.signal.aborted) throw this.signal.reason;
      const info: ErrorInfo = isResilienceError(error) ? error : UNFINISHED;
      this.#fail(info, error);
      return { fail: info };
    }
  }

  /** Classifies, decides and acts until the request is answered or given up. `top`: the answer goes to the SDK; otherwise to the supervisor, whose stream ended (`observed`). */
  async #loop(top: boolean, observed?: Observation): Promise<Response> {
    const engine = this.#engine, session = this.#session;
    const { operation } = this.#request;
    const method = operation.method;
    for (let pending = observed; ;) {
      const attempt: Attempt = pending ? { observation: pending } : await this.#attempt(top);
      pending = undefined;
      if ('answer' in attempt) return attempt.answer;
      const { observation, response } = attempt;
      const classified = classify(observation, engine.options);
      // Ended by the application while this was in flight (its DELETE answered first): not the engine's to mend; the answer goes back as it is.
      const verdict: Verdict = (session.terminated || session.ending) && !this.#request.own && classified.kind !== 'success' ? { kind: 'client-error' } : classified;
      this.#serverWait?.observed(verdict);
      const action = engine.decide(verdict, this.#state, operation, this.#facts.revision);
      if (verdict.kind === 'session-gone') session.recovery.lost(this.#ordinal, verdict, method);
      else if (response) session.touch(); // the session answered: in use, a 429 as much as a 200
      const unrecognised = unrecognisedAnswer(observation, classified, attempt.sessionId);
      if (unrecognised) engine.emit({ type: 'unrecognised-answer', method, ...unrecognised }, session.client);
      this.#state = advance(this.#state, action);
      switch (action.type) {
        case 'deliver': { // a final answer; a 304 (a status that has no body) cannot be given one, even an empty one
          if (!response) throw this.#fail(UNFINISHED, observation); // the stream ended before its answer
          const answer = () => finalAnswer(response, attempt.text ?? '');
          // The client's credentials refused: one call's answer (its SDK mends them); the others wait for the new ones and go again.
          const problem = verdict.kind === 'client-error' && this.#facts.sessionIdSent ? credentialProblem(response) : undefined;
          if (problem) {
            const refused = await this.#answerOf(Promise.reject(session.clientHeaders.refuse(engine, this.#version, response.status, answer, problem)));
            if (refused) return this.#delivered(refused, top);
            break;
          }
          return this.#delivered(answer(), top);
        }
        case 'give-up': // the cause: the server's answer, or what the runtime said of a fetch that got none
          this.#serverWait?.gaveUp(); // a wait still open ends here only at its deadline (SERVER_UNREACHABLE)
          throw this.#fail(action.error, attempt.cause ?? observation);
        case 'wait-for-server': // refused, so nothing was sent: the same request goes again once the wait is over
          if (!session.reached && !this.#request.own && !engine.options.waitForNewServer) throw this.#fail(neverReached(this.#request.url), attempt.cause ?? observation);
          await this.#guard((this.#serverWait ??= new ServerWait(engine, method, this.#request.own, session.client)).sleep(action, this.signal));
          break;
        case 'reinitialize-and-replay': {
          const refused = await this.#answerOf(session.recovery.recover(this.#ordinal));
          if (refused) return this.#delivered(refused, top);
          engine.emit({ type: 'replayed', session: session.ordinal, method, stream: operation.stream || undefined }, session.client);
          break;
        }
        case 'retry':
        case 'reissue':
          await this.#guard(engine.backOff(action, verdict, method, response?.status, this.signal, session.client));
          // Re-issued under a new id: the first copy may still be running.
          if (action.type === 'reissue' && this.originalId !== undefined) {
            this.#text = withRequestId(this.#text!, (this.#sentId = `${String(this.#wireId)}~${top ? 'r' : 's'}${action.attempt}`));
          }
          break;
        case 'resume': {
          engine.emit({ type: 'resumed', method, attempt: action.attempt, delayMs: action.delayMs }, session.client);
          await this.#guard(engine.sleep(action.delayMs, this.signal));
          const resumed = await this.#resume(action.lastEventId);
          if (resumed) return resumed;
          pending = { kind: 'stream-ended', ...this.#facts }; // not resumable after all: decided again, without a cursor
        }
      }
    }
  }

  /** One attempt: prepared and stamped (the application's requests), sent, and what came back read far enough to decide. */
  async #attempt(top: boolean): Promise<Attempt> {
    const engine = this.#engine, session = this.#session;
    const { url, init, own } = this.#request;
    if (this.#ends.abandoned) throw this.#ends.abandoned; // its caller gave up while it waited: nothing goes out for it
    let headers = init.headers; // never changed: a copy is made for what differs from it
    const sdkSentSession = headers.has('mcp-session-id');
    // A session the application ended or is ending is not the engine's to mend (a DELETE goes to the current session, if any).
    const sessionLogic = !own && !session.terminated && init.method !== 'DELETE';
    const preparing = sessionLogic ? this.#prepare(sdkSentSession) : undefined;
    const refused = preparing && await preparing;
    if (refused) return { answer: this.#delivered(refused, top) };
    // Sent again, or after the client's credentials changed while it waited, a client's request carries its own headers with the current credentials.
    if (!own && sdkSentSession && (this.#attempts || this.#version !== session.clientHeaders.version)) headers = session.clientHeaders.onto(headers);
    if (!own) headers = session.stamp(headers);
    this.#ordinal = session.ordinal;
    this.#version = session.clientHeaders.version;
    this.#attempts++;
    const method = this.#request.operation.method;
    // The negotiated revision; without an initialize (2026-07-28), the one the request declares.
    const revision = own ? undefined : (session.revision ?? headers.get('mcp-protocol-version') ?? undefined);
    // Facts a request may not have are there as undefined (no copy to leave them out: this runs on every call).
    this.#facts = {
      revision, sessionIdSent: sessionLogic && headers.has('mcp-session-id'), httpMethod: init.method as 'POST' | 'GET' | 'DELETE', rpcMethod: method,
    } as RequestFacts;
    const sent = await exchange(engine, url, { ...init, headers, body: this.#text ?? init.body ?? null, signal: own || this.originalId === undefined ? init.signal ?? null : this.#ends.wire }, this.#facts);
    const { response } = sent;
    const sessionId = headers.get('mcp-session-id') ?? undefined;
    session.noteExchange(method ?? init.method, response?.status ?? 'network', this.#version);
    if (!response) return { observation: sent.observation, cause: sent.error, sessionId };
    this.#serverWait?.reached(); // any answer: the server listens
    if (response.ok) { // the session is in use until the call is over (it is touched then)
      const answered = await readAnswer(this, this.#request, response, top, this.#facts);
      return answered instanceof Response ? { answer: answered } : { observation: answered, response, sessionId };
    }
    // After an initialize whose session id may have been hidden (CORS): does the server want one?
    const hidden = own || sessionId !== undefined ? undefined : session.answeredWithoutId(response.status);
    // A refusal that may say "session gone": nothing else goes out on the session until it is decided.
    const release = maySayGone(response, this.#facts) ? session.refusals.hold() : undefined;
    try {
      const refusal = await refusalOf(response, this.#facts);
      if (hidden) throw this.#fail(hidden, refusal); // instead of the server's "No valid session ID provided"
      return { observation: refusal, response, text: refusal.body, sessionId };
    } finally {
      release?.(); // released once classified by the loop: the same tick, nothing awaited in between
    }
  }

  /** GET + `Last-Event-ID` on the call's session (a cursor means nothing on another); a refusal tells of the session, never of the call. */
  async #resume(lastEventId: string): Promise<Response | undefined> {
    const session = this.#session;
    if (session.ordinal !== this.#ordinal) return undefined;
    // The client's current credentials, no spent DPoP proof; without a session id (clients of the fetch share that lineage), its own.
    const own = this.#request.init.headers;
    const headers = session.stamp(own.has('mcp-session-id') ? session.clientHeaders.onto(own) : withoutSpentProof(own));
    const { rpcMethod: _, ...facts } = { ...this.#facts, httpMethod: 'GET' as const, sessionIdSent: this.#facts.sessionIdSent && headers.has('mcp-session-id') };
    const resumed = await resumeStream(this.#engine, this.#request.url, headers, lastEventId, this.signal, facts, () => session.refusals.hold());
    if (resumed instanceof Response) return (this.#resumed = resumed);
    if (resumed === undefined) return undefined;
    try {
      const verdict = classify(resumed.refusal, this.#engine.options);
      if (verdict.kind === 'session-gone' && !session.terminated) session.recovery.lost(this.#ordinal, verdict, this.#request.operation.method);
    } finally {
      resumed.release?.();
    }
    return undefined;
  }

  /**
   * Before each attempt: the session's own preparation (a shared re-initialization, an idle
   * replacement), abortable; `undefined` when the attempt may go at once. The SDK's
   * `notifications/initialized` ends the `initialize` just answered: a session is not idle before it.
   */
  #prepare(sdkSentSession: boolean, idleCheck = this.#attempts === 0 && this.#request.operation.method !== 'notifications/initialized'): Promise<Response | undefined> | undefined {
    if (this.#session.changed) throw this.#fail(this.#session.changed);
    const waiting = this.#session.recovery.prepare(sdkSentSession, idleCheck, this.#request.entered === true);
    // Once it has waited, it prepares again (the session may have changed, or another re-initialization be under way), with
    // no idle check: a session opened for this call is never replaced for being idle. A refusal may be its answer instead.
    return waiting && this.#answerOf(waiting).then((refused) => refused ?? this.#prepare(sdkSentSession, false));
  }

  /** A final answer handed on (a refusal of the client's credentials among them, for the SDK's auth provider). */
  #delivered(answer: Response, top: boolean): Response {
    if (top) this.finished();
    return answer;
  }

  /**
   * Waits on the session (a re-initialization, or a refusal met) until it is done, the call ends or the engine closes; a refusal
   * of the client's credentials may be this call's answer. A call that stops waiting leaves the work (and its failure) to the others.
   */
  #answerOf(work: Promise<void>): Promise<Response | undefined> {
    const answer = this.#session.clientHeaders.answerOf(work, this.originalId);
    answer.catch(() => {});
    return this.#guard(this.#engine.wait(this.signal, (ended) => abortable(answer, ended)));
  }

  /** A wait's end, for the request (see {@link guarded}). */
  #guard<T>(wait: Promise<T>): Promise<T> {
    return guarded(wait, this.signal, (error, cause) => this.#fail(error, cause));
  }

  /** The request gives up: told once, as `gave-up`, and thrown (or written into its stream) as a typed error. */
  #fail(error: ErrorInfo, cause?: unknown): ResilienceError {
    this.#giveUp(error.code);
    return new ResilienceError(error, defined({ cause })); // no `cause` at all when there is none
  }

  #giveUp(code: ErrorInfo['code']): void {
    if (this.#gaveUp || this.#request.own) return;
    this.#gaveUp = true;
    this.#engine.emit({ type: 'gave-up', method: this.#request.operation.method, code }, this.#session.client);
  }
}
