import { defined, sendPhase, type Blocked, type Observation, type RequestFacts } from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';
import { isEventStream } from './messages.ts';
import { discard, HandedResponse } from './responses.ts';

/** Statuses whose responses have no body (Fetch standard: a null body status). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** What the wire needs of the engine: the `fetch` it sends through, and how its runtime tells a request that never went out. */
export interface WireHost {
  readonly fetch: typeof fetch;
  readonly ports: { readonly notSent: (error: unknown) => boolean | Blocked };
}

/** What one attempt of a request came to: a response (any status), or no response at all (and the fetch's error). */
export type Exchanged =
  | { readonly response: Response; readonly observation?: undefined; readonly error?: undefined }
  | { readonly response?: undefined; readonly observation: Extract<Observation, { kind: 'network' }>; readonly error: unknown };

/**
 * Sends one attempt of a request the engine carries: the one place where the engine calls
 * `fetch`. A fetch that failed is observed as a network failure, before or after the request
 * went out as `notSent` tells, its error kept (what the runtime could tell of it: the cause of a
 * call that gives up on it); a fetch the caller aborted rejects as it did.
 *
 * @example
 * const { response, observation } = await exchange(engine, url, init, facts);
 */
export function exchange(host: WireHost, url: string, init: RequestInit, facts: RequestFacts): Promise<Exchanged> {
  let sent: Promise<Response>;
  try {
    sent = host.fetch(url, init);
  } catch (error) { // a fetch that throws at once fails like one that rejects
    sent = Promise.reject(error);
  }
  return sent.then((response) => ({ response }), (error: unknown) => {
    if (init.signal?.aborted) throw error;
    return { observation: { kind: 'network', ...sendPhase(host.ports.notSent(error)), ...facts }, error };
  });
}

/**
 * A request that is not the engine's to carry (not MCP, or a body it cannot read twice): sent
 * as the application gave it, its response handed back as it came.
 *
 * @example
 * if (!isMcp(url, headers, body)) return passThrough(engine, input, init);
 */
export function passThrough(host: WireHost, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return host.fetch(input, init);
}

/**
 * A response that did not succeed, as the classifier takes it: its status, `Retry-After`,
 * content type and the first 64 KiB of its body (read here, so the caller gets the text too).
 *
 * @example
 * const refusal = await refusalOf(response, facts); // refusal.body: the error text
 */
export async function refusalOf(response: Response, facts: RequestFacts): Promise<Extract<Observation, { kind: 'http' }> & { body: string }> {
  return {
    kind: 'http', status: response.status, retryAfter: response.headers.get('retry-after'),
    contentType: response.headers.get('content-type'), body: await readBounded(response), ...facts,
  };
}

/**
 * Whether a refusal may say "session gone": a 4xx other than 429, to a request that carried the
 * session's id. Until it is classified, nothing else goes out on the session.
 *
 * @example
 * const release = maySayGone(response, facts) ? session.refusals.hold() : undefined;
 */
export function maySayGone(response: Response, facts: RequestFacts): boolean {
  return facts.sessionIdSent && response.status >= 400 && response.status < 500 && response.status !== 429;
}

/**
 * A final refusal handed on to the application: its status and headers, and the body text
 * already read for the classifier (a status that has no body, a 304 say, gets none, not even an empty one).
 *
 * @example
 * return finalAnswer(response, refusal.body);
 */
export function finalAnswer(response: Response, text: string): Response {
  return new HandedResponse(NULL_BODY_STATUSES.has(response.status) ? null : text, response);
}

/**
 * Resumes a response stream that broke: a GET with `Last-Event-ID` (over `headers`, the call's
 * own, stamped). The new stream; or the refusal, observed for the classifier (it may say the
 * session is gone), with the release of the hold `hold` put on the session while a 4xx was read;
 * or undefined when the server gave no stream and no refusal (another answer, or none at all).
 * A caller's abort rejects as it did.
 *
 * @example
 * const resumed = await resumeStream(engine, url, headers, '42', signal, facts, () => session.refusals.hold());
 */
export async function resumeStream(
  host: WireHost, url: string, headers: Headers, lastEventId: string, signal: AbortSignal | undefined, facts: RequestFacts,
  hold: () => () => void,
): Promise<Response | { readonly refusal: Observation; readonly release?: () => void } | undefined> {
  headers.delete('content-type');
  headers.set('accept', 'text/event-stream');
  headers.set('last-event-id', lastEventId);
  const { response } = await exchange(host, url, defined({ method: 'GET', headers, redirect: 'manual' as const, signal }), facts);
  if (response?.ok && isEventStream(response) && response.body) return response;
  if (!response || response.ok) return void (await discard(response));
  const release = maySayGone(response, facts) ? hold() : undefined;
  return defined({ refusal: await refusalOf(response, facts).catch((error: unknown) => (release?.(), Promise.reject(error))), release });
}
