import type { ChaosInstance, ChaosStateView } from './chaos-control.ts';
import type { Sleep } from './deadline.ts';
import type { ScenarioExpectation, SessionExpectation } from './scenario.ts';

/** What the chaos server saw, as far as a scenario checks it: the keys of its `expect` besides `trace`. */
export interface WireSummary {
  readonly posts?: readonly string[];
  readonly postCounts?: Readonly<Record<string, number>>;
  readonly requestCounts?: Readonly<Record<string, number>>;
  readonly ledger?: Readonly<Record<string, number>>;
  readonly sessions?: readonly SessionExpectation[];
}

/** The POSTs on the wire as `method status sN` (sN: the session the request carried, when the server knew it). */
export function postsOf(state: ChaosStateView): string[] {
  return state.log.filter((e) => e.httpMethod === 'POST')
    .map((e) => `${e.rpcMethod ?? '?'} ${e.status ?? '?'}${e.sessionOrdinal === undefined ? '' : ` s${e.sessionOrdinal}`}`);
}

/**
 * The SDK opens its standalone GET stream after `initialize` without waiting for it: the steps
 * start once the server holds that stream open or has refused it, so that a fault in the first
 * step cannot race the stream's opening (2 s at most).
 */
export async function standaloneStreamSettled(chaos: ChaosInstance, sleep: Sleep): Promise<void> {
  for (let waited = 0; waited < 2_000; waited += 10) {
    const { log, sessions } = await chaos.state();
    const get = log.find((e) => e.httpMethod === 'GET');
    if (get && (get.status !== undefined || sessions.some((s) => s.openStreams > 0))) return;
    await sleep(10);
  }
}

/** The wire log records a status when the server closes the response: the state once the last ones have it (1 s at most). */
async function settledState(chaos: ChaosInstance, sleep: Sleep): Promise<ChaosStateView> {
  let state = await chaos.state();
  for (let waited = 0; waited < 1_000 && !state.log.every((e) => e.status !== undefined || e.httpMethod === 'GET'); waited += 10) {
    await sleep(10);
    state = await chaos.state();
  }
  return state;
}

/**
 * Reads the server's side of what `expect` checks, and nothing else: `{}` for a scenario that
 * checks only its trace. Counts are given for exactly the keys `expect` names.
 */
export async function wireSummary(chaos: ChaosInstance, expect: ScenarioExpectation, sleep: Sleep): Promise<WireSummary> {
  const { posts, postCounts, requestCounts, ledger, sessions } = expect;
  if (!posts && !postCounts && !requestCounts && !ledger && !sessions) return {};
  const state = posts || postCounts || requestCounts ? await settledState(chaos, sleep) : await chaos.state();
  const wire = postsOf(state);
  const bare = wire.map((p) => p.replace(/ s\d+$/, ''));
  const countOf = (keys: readonly string[], count: (key: string) => number) => Object.fromEntries(keys.map((key) => [key, count(key)]));
  return {
    ...(posts ? { posts: wire } : {}),
    ...(postCounts ? { postCounts: countOf(Object.keys(postCounts), (key) => bare.filter((p) => p === key).length) } : {}),
    ...(requestCounts ? { requestCounts: countOf(Object.keys(requestCounts), (m) => state.log.filter((e) => e.httpMethod === m).length) } : {}),
    ...(ledger ? { ledger: { ...state.ledger } } : {}),
    ...(sessions ? {
      sessions: state.sessions.map((s) => ({ ordinal: s.ordinal, subscriptions: [...s.subscriptions], ...(s.logLevel === undefined ? {} : { logLevel: s.logLevel }) })),
    } : {}),
  };
}
