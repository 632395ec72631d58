import { sendPhase, type Blocked, type Observation, type RequestFacts } from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';

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
export async function exchange(host: WireHost, url: string, init: RequestInit, facts: RequestFacts): Promise<Exchanged> {
  try {
    return { response: await host.fetch(url, init) };
  } catch (error) {
    if (init.signal?.aborted) throw error;
    return { observation: { kind: 'network', ...sendPhase(host.ports.notSent(error)), ...facts }, error };
  }
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
