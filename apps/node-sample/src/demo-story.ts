// The demo's story, told the same way in the terminal (`pnpm demo`) and in a page (`pnpm demo
// --web`): a plain official SDK client and a resilient one (the same SDK, its transport given the
// runtime's createResilientFetch) through the same churn on one chaos server. Runtime-neutral: the
// chaos server, the engine and where the lines go are the caller's.
import type { Fault } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { defaultSleep as sleep } from '@mcp-resilience/scenarios';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { droppedStreams } from './demo-dropped-streams.ts';
import { narrate, plainError, seconds } from './demo-narration.ts';
import { CALL_TIMEOUT_MS, IDLE_BUDGET_MS, type DemoStage, type Side } from './demo-stage.ts';

/** The server expires a session idle this long (the resilient client replaces one idle IDLE_BUDGET_MS). */
const SERVER_IDLE_MS = 2_000;

/**
 * The chaos server the story needs: the Amdahl dialect (it tells the server's uptime), and no
 * standalone GET stream (405), as many servers offer none, so that an idle session really is idle.
 */
export const DEMO_CHAOS = {
  dialect: 'amdahl',
  faults: [{ kind: 'status', status: 405, httpMethod: 'GET', count: 1_000 }],
} as const satisfies { dialect: string; faults: readonly Fault[] };

/** How the story ended: calls made and failed on each side, and whether it went as designed. */
export interface DemoOutcome {
  readonly plain: { readonly calls: number; readonly failed: number };
  readonly resilient: { readonly calls: number; readonly failed: number };
  /** The resilient client's one failure is act 4's OUTCOME_UNKNOWN, and it has no other. */
  readonly asDesigned: boolean;
  readonly summary: string;
  readonly ms: number;
}

/** An official SDK 1.x client, connected; `fetch` given to its transport. */
export async function connectClient(url: string, fetch?: typeof globalThis.fetch): Promise<Client> {
  const client = new Client({ name: 'demo', version: '1.0.0' });
  client.onerror = () => {}; // the SDK's background stream errors; the calls tell the story
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {}));
  return client;
}

/** `n` echo calls one after another: ✓ or ✗ each, and the errors. */
async function calls(side: Side, n: number): Promise<{ marks: string[]; errors: unknown[] }> {
  const marks: string[] = [];
  const errors: unknown[] = [];
  for (let i = 0; i < n; i++) {
    side.calls++;
    try {
      await side.client.callTool({ name: 'echo', arguments: { text: `call ${side.calls}` } }, undefined, { timeout: CALL_TIMEOUT_MS });
      marks.push('✓');
    } catch (error) {
      side.failed++;
      marks.push('✗');
      errors.push(error);
    }
  }
  return { marks, errors };
}

/**
 * Tells the story through `stage`: acts 1 to 4, then one summary line. Every client it opens is
 * put in `closing`, for the caller to close whatever happens.
 *
 * @example
 * const outcome = await runDemoStory(stage, closing);
 * if (!outcome.asDesigned) process.exitCode = 1;
 */
export async function runDemoStory(stage: DemoStage, closing: Client[]): Promise<DemoOutcome> {
  const started = Date.now();
  const say = stage.say;
  const note = (text: string) => say({ kind: 'note', text });
  const events: ResilienceEvent[] = [];
  const wire = { posts: 0, failed: 0 };
  // The resilient client's own fetch to the network, counted: what a failed request costs is visible.
  const counted: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') === 'POST') {
      wire.posts++;
      if (!response.ok) wire.failed++;
    }
    return response;
  };
  const resilientFetch = stage.createResilientFetch({ idleBudgetMs: IDLE_BUDGET_MS, tools: { readOnlyTools: ['echo'] }, fetch: counted, onEvent: (e) => events.push(e) });
  const plain: Side = { label: 'plain', client: await connectClient(stage.url), calls: 0, failed: 0 };
  const resilient: Side = { label: 'resilient', client: await connectClient(stage.url, resilientFetch), calls: 0, failed: 0 };
  closing.push(plain.client, resilient.client);
  const freshPlain = async () => {
    await plain.client.close().catch(() => {});
    plain.client = await connectClient(stage.url);
    closing.push(plain.client);
  };
  const report = (side: Side, outcome: { marks: string[]; errors: unknown[] }, after: string) => {
    const answered = outcome.marks.length - outcome.errors.length;
    const failures = [...new Set(outcome.errors.map(plainError))];
    const why = failures.length === 0 ? '' : ` · ${after}: ${failures.join('; ')}`;
    say({ kind: 'row', side: side.label, text: `${outcome.marks.join(' ')}   ${answered} of ${outcome.marks.length} answered${why}` });
  };
  /** Runs an act's calls on both sides and tells what the resilient one saw and did. */
  const act = async (n: number, after: string, before?: () => Promise<void>) => {
    const from = events.length;
    const failedBefore = wire.failed;
    report(plain, await calls(plain, n), after);
    await before?.();
    report(resilient, await calls(resilient, n), after);
    for (const text of narrate(events.slice(from), IDLE_BUDGET_MS)) note(text);
    const failed = wire.failed - failedBefore;
    note(`${failed === 0 ? 'no' : failed} failed request${failed === 1 ? '' : 's'} on the wire${failed === 0 ? '' : ', absorbed: the application saw none'}`);
    return events.slice(from);
  };
  const apply = (...faults: Fault[]) => stage.apply(faults);

  say({ kind: 'title', text: 'mcp-resilience demo · one chaos server (Amdahl dialect), two official MCP SDK 1.x clients side by side' });
  say({ kind: 'row', side: 'plain', text: 'Client + StreamableHTTPClientTransport, as they ship' });
  say({ kind: 'row', side: 'resilient', text: `the same, with fetch: createResilientFetch({ idleBudgetMs: ${IDLE_BUDGET_MS}, tools: { readOnlyTools: ['echo'] } })` });
  note('(the server offers no standalone GET stream, as many do not: an idle session really is idle)');

  say({ kind: 'act', text: '1 · restart: the server is redeployed under both clients (every session gone, uptime back to 0)' });
  for (const side of [plain, resilient]) await calls(side, 1);
  await sleep(1_200);
  await apply({ kind: 'restart' });
  note('each made 1 call, held its session 1.2 s, and then the restart; 3 calls each after it:');
  await act(3, 'every call after it');
  note('plain: the SDK keeps the dead session id, so every later call fails; it gets a fresh client for act 2');
  await freshPlain();

  say({ kind: 'act', text: `2 · idle expiry: the server ends a session idle ${seconds(SERVER_IDLE_MS)}; both clients go quiet for 2.1 s` });
  await apply({ kind: 'idle-budget', ms: SERVER_IDLE_MS });
  for (const side of [plain, resilient]) await calls(side, 1);
  await sleep(2_100);
  note('each made 1 call and then nothing for 2.1 s; 3 calls each after the pause:');
  await act(3, 'after the pause');
  note(`(sent on the old session, that call would have met a dead one: the server's budget is ${seconds(SERVER_IDLE_MS)})`);
  await apply({ kind: 'idle-budget', ms: null });
  note('plain: a fresh client again for act 3');
  await freshPlain();

  say({ kind: 'act', text: '3 · rate limit: a burst: the next two requests of each client get 429 Too Many Requests, Retry-After: 1' });
  const rateLimited = { kind: 'status', status: 429, count: 2, retryAfter: '1' } as const;
  await apply(rateLimited);
  const limited = await act(4, 'the 429, which the SDK does not retry', () => apply(rateLimited));
  if (!limited.some((e) => e.type === 'session-reinitialized')) note('a rate limit is not a session loss: same session, after the server\'s wait, never re-initialized');

  const designed = await droppedStreams(stage, plain, resilient, events);

  const reinits = events.filter((e) => e.type === 'session-reinitialized');
  const idle = reinits.filter((e) => e.type === 'session-reinitialized' && e.reason === 'idle').length;
  const count = (type: ResilienceEvent['type'], one: string, many: string) => {
    const n = events.filter((e) => e.type === type).length;
    return `${n} ${n === 1 ? one : many}`;
  };
  const ms = Date.now() - started;
  const summary = `plain client: ${plain.failed} of ${plain.calls} calls failed · resilient client: ${resilient.failed} of ${resilient.calls} failed`
    + `${designed ? ' (OUTCOME_UNKNOWN: ran once, never twice)' : ''}, `
    + `${reinits.length} re-initializations (${reinits.length - idle} after a loss, ${idle} ahead of idle expiry), ${count('backed-off', 'backoff', 'backoffs')}, `
    + `${count('resumed', 'resume', 'resumes')}, ${count('reissued', 're-issue', 're-issues')} · ${seconds(ms)}`;
  say({ kind: 'summary', text: summary });
  return {
    plain: { calls: plain.calls, failed: plain.failed }, resilient: { calls: resilient.calls, failed: resilient.failed },
    // The one failure the resilient client is meant to have is act 4's OUTCOME_UNKNOWN; any other is a broken demo.
    asDesigned: designed && resilient.failed === 1, summary, ms,
  };
}
