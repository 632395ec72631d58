import { sendPhase, type Blocked, type Observation, type RequestFacts } from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';

/** What one attempt of a request came to: a response (any status), or no response at all (and the fetch's error). */
export type Exchanged =
  | { readonly response: Response; readonly observation?: undefined; readonly error?: undefined }
  | { readonly response?: undefined; readonly observation: Extract<Observation, { kind: 'network' }>; readonly error: unknown };

/**
 * Sends one attempt. A fetch that failed is observed as a network failure, before or after the
 * request went out as `notSent` tells, its error kept (what the runtime could tell of it: the
 * cause of a call that gives up on it); a fetch the caller aborted rejects as it did.
 *
 * @example
 * const { response, observation } = await exchange(fetch, notSent, url, init, facts);
 */
export async function exchange(
  send: typeof fetch, notSent: (error: unknown) => boolean | Blocked, url: string, init: RequestInit, facts: RequestFacts,
): Promise<Exchanged> {
  try {
    return { response: await send(url, init) };
  } catch (error) {
    if (init.signal?.aborted) throw error;
    return { observation: { kind: 'network', ...sendPhase(notSent(error)), ...facts }, error };
  }
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
