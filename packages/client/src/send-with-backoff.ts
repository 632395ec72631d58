import { advance, classify, FRESH_CALL, ResilienceError } from '@mcp-resilience/core';
import type { Engine } from './engine.ts';
import { exchange, refusalOf } from './exchange.ts';
import { ServerWait } from './server-wait.ts';

/**
 * Sends one of the engine's own requests outside any session (the `initialize` that opens a
 * new one), backing off 429, 503 and other refusals as core decides, within the policy's
 * attempts and delays, and waiting for a server that refuses connections (a restart) until
 * the deadline core sets or `init.signal` fires (then `SERVER_UNREACHABLE`). Resolves with
 * the first 2xx response; any other end is a `ResilienceError`: core's give-up, or
 * `SESSION_LOST` for a final refusal (401, 403, …).
 *
 * @example
 * const response = await sendWithBackoff(engine, url, { method: 'POST', headers, body, signal }, 'initialize');
 */
export async function sendWithBackoff(engine: Engine, url: string, init: RequestInit & { signal: AbortSignal }, method: string): Promise<Response> {
  const facts = { sessionIdSent: false, httpMethod: 'POST', rpcMethod: method } as const;
  const wait = new ServerWait(engine, method, true);
  let call = FRESH_CALL;
  for (;;) {
    const { response, observation: failure } = await exchange(engine.fetch, engine.ports.notSent, url, init, facts);
    if (response) wait.reached();
    if (response?.ok) return response;
    const observation = failure ?? (await refusalOf(response!, facts));
    const verdict = classify(observation, engine.classifyOptions);
    wait.observed(verdict);
    const action = engine.decide(verdict, call, { method }, undefined);
    if (action.type === 'wait-for-server') {
      await wait.sleep(action, init.signal);
      call = advance(call, action);
      continue;
    }
    if (action.type === 'retry' || action.type === 'reissue') {
      await engine.backOff(action, verdict, method, response?.status, init.signal);
      call = advance(call, action);
      continue;
    }
    wait.gaveUp(); // a wait still open ends here only at its deadline (SERVER_UNREACHABLE)
    const status = response?.status;
    throw new ResilienceError(action.type === 'give-up'
      ? action.error
      : { code: 'SESSION_LOST', message: `A new session could not be opened (HTTP ${status})`, details: { status } }, { cause: observation });
  }
}
