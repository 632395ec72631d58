// `pnpm demo`: a plain official SDK client and a resilient one (the same SDK, its transport
// given createResilientFetch) through the same churn on one chaos server, narrated.
import { startChaosServer, type ChaosServer, type Fault } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defaultSleep as sleep, errorCode } from '@mcp-resilience/scenarios';
import { narrate, plainError, seconds } from './demo-narration.ts';
import { createResilientFetch } from './engine.ts';

/** The resilient client replaces a session idle this long; the server expires one idle SERVER_IDLE_MS. */
const IDLE_BUDGET_MS = 1_500;
const SERVER_IDLE_MS = 2_000;
/** The plain client's request timeout in act 4 (the SDK's default is 60 s: nobody waits that long in a demo). */
const PLAIN_TIMEOUT_MS = 3_000;
const PAD = 11;

interface Side {
  readonly label: string;
  client: Client;
  calls: number;
  failed: number;
}

const line = (text = '') => console.log(text);
const row = (label: string, text: string) => line(`  ${label.padEnd(PAD)}${text}`);
const more = (text: string) => line(`  ${''.padEnd(PAD)}${text}`);

async function connect(url: string, fetch?: typeof globalThis.fetch): Promise<Client> {
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
      await side.client.callTool({ name: 'echo', arguments: { text: `call ${side.calls}` } }, undefined, { timeout: 10_000 });
      marks.push('✓');
    } catch (error) {
      side.failed++;
      marks.push('✗');
      errors.push(error);
    }
  }
  return { marks, errors };
}

/** One call in act 4, timed: how it ended and after how long. */
interface Timed {
  readonly ok: boolean;
  readonly ms: number;
  readonly error?: unknown;
}

async function timedCall(side: Side, name: string, args: Record<string, unknown>, timeout: number): Promise<Timed> {
  side.calls++;
  const started = Date.now();
  try {
    await side.client.callTool({ name, arguments: args }, undefined, { timeout });
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    side.failed++;
    return { ok: false, ms: Date.now() - started, error };
  }
}

/** The SDK's own request timeout (`McpError` -32001 "Request timed out"). */
const timedOut = (error: unknown) => (error as { code?: unknown }).code === -32001;

function report(side: Side, outcome: { marks: string[]; errors: unknown[] }, after: string): void {
  const answered = outcome.marks.length - outcome.errors.length;
  const failures = [...new Set(outcome.errors.map(plainError))];
  const why = failures.length === 0 ? '' : ` · ${after}: ${failures.join('; ')}`;
  row(side.label, `${outcome.marks.join(' ')}   ${answered} of ${outcome.marks.length} answered${why}`);
}

async function main(chaos: ChaosServer, closing: Client[]): Promise<void> {
  const started = Date.now();
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
  const resilientFetch = createResilientFetch({
    idleBudgetMs: IDLE_BUDGET_MS, tools: { readOnlyTools: ['echo'] }, fetch: counted, onEvent: (e) => events.push(e),
  });
  const plain: Side = { label: 'plain', client: await connect(chaos.url), calls: 0, failed: 0 };
  const resilient: Side = { label: 'resilient', client: await connect(chaos.url, resilientFetch), calls: 0, failed: 0 };
  closing.push(plain.client, resilient.client);
  const freshPlain = async () => {
    await plain.client.close().catch(() => {});
    plain.client = await connect(chaos.url);
    closing.push(plain.client);
  };
  /** Runs an act's calls on both sides and tells what the resilient one saw and did. */
  const act = async (n: number, after: string, before?: () => Promise<void>) => {
    const from = events.length;
    const failedBefore = wire.failed;
    report(plain, await calls(plain, n), after);
    await before?.();
    report(resilient, await calls(resilient, n), after);
    for (const text of narrate(events.slice(from), IDLE_BUDGET_MS)) more(text);
    const failed = wire.failed - failedBefore;
    more(`${failed === 0 ? 'no' : failed} failed request${failed === 1 ? '' : 's'} on the wire${failed === 0 ? '' : ', absorbed: the application saw none'}`);
    return events.slice(from);
  };
  const apply = (...faults: Fault[]) => chaos.applyFaults(faults);

  line('mcp-resilience demo · one chaos server (Amdahl dialect), two official MCP SDK 1.x clients side by side');
  row('plain', 'Client + StreamableHTTPClientTransport, as they ship');
  row('resilient', `the same, with fetch: createResilientFetch({ idleBudgetMs: ${IDLE_BUDGET_MS}, tools: { readOnlyTools: ['echo'] } })`);
  more('(the server offers no standalone GET stream, as many do not: an idle session really is idle)');

  line('\n1 · restart: the server is redeployed under both clients (every session gone, uptime back to 0)');
  for (const side of [plain, resilient]) await calls(side, 1);
  await sleep(1_200);
  await apply({ kind: 'restart' });
  more('each made 1 call, held its session 1.2 s, and then the restart; 3 calls each after it:');
  await act(3, 'every call after it');
  more('plain: the SDK keeps the dead session id, so every later call fails; it gets a fresh client for act 2');
  await freshPlain();

  line(`\n2 · idle expiry: the server ends a session idle ${seconds(SERVER_IDLE_MS)}; both clients go quiet for 2.1 s`);
  await apply({ kind: 'idle-budget', ms: SERVER_IDLE_MS });
  for (const side of [plain, resilient]) await calls(side, 1);
  await sleep(2_100);
  more('each made 1 call and then nothing for 2.1 s; 3 calls each after the pause:');
  await act(3, 'after the pause');
  more(`(sent on the old session, that call would have met a dead one: the server's budget is ${seconds(SERVER_IDLE_MS)})`);
  await apply({ kind: 'idle-budget', ms: null });
  more('plain: a fresh client again for act 3');
  await freshPlain();

  line('\n3 · rate limit: a burst: the next two requests of each client get 429 Too Many Requests, Retry-After: 1');
  const rateLimited = { kind: 'status', status: 429, count: 2, retryAfter: '1' } as const;
  await apply(rateLimited);
  const limited = await act(4, 'the 429, which the SDK does not retry', () => apply(rateLimited));
  if (!limited.some((e) => e.type === 'session-reinitialized')) more('a rate limit is not a session loss: same session, after the server\'s wait, never re-initialized');

  const designed = await droppedStreams(chaos, plain, resilient, events);

  const reinits = events.filter((e) => e.type === 'session-reinitialized');
  const idle = reinits.filter((e) => e.type === 'session-reinitialized' && e.reason === 'idle').length;
  const count = (type: ResilienceEvent['type'], one: string, many: string) => {
    const n = events.filter((e) => e.type === type).length;
    return `${n} ${n === 1 ? one : many}`;
  };
  line(`\nplain client: ${plain.failed} of ${plain.calls} calls failed · resilient client: ${resilient.failed} of ${resilient.calls} failed`
    + `${designed ? ' (OUTCOME_UNKNOWN: ran once, never twice)' : ''}, `
    + `${reinits.length} re-initializations (${reinits.length - idle} after a loss, ${idle} ahead of idle expiry), ${count('backed-off', 'backoff', 'backoffs')}, `
    + `${count('resumed', 'resume', 'resumes')}, ${count('reissued', 're-issue', 're-issues')} · ${seconds(Date.now() - started)}`);
  // The one failure the resilient client is meant to have is act 4's OUTCOME_UNKNOWN; any other is a broken demo.
  if (resilient.failed !== (designed ? 1 : 0) || !designed) process.exitCode = 1;
}

/**
 * Act 4: each client's next call loses its response stream after the server's priming event,
 * before the answer. With event ids, a record call; without, a read-only echo and a record call.
 * The resilient client's calls go first, back to back (the plain client's waits in between
 * would leave its session idle past idleBudgetMs, and it would be replaced: true, but another
 * story); each part is told once both clients have made its call. Answers whether the resilient
 * record call without ids failed as designed, with OUTCOME_UNKNOWN.
 */
async function droppedStreams(chaos: ChaosServer, plain: Side, resilient: Side, events: ResilienceEvent[]): Promise<boolean> {
  // Resuming takes a GET (+ Last-Event-ID), which this server has refused so far: reset lifts
  // that fault (and clears the ledger and the wire log; the sessions stay).
  chaos.reset();
  const drop = (eventIds: boolean) => chaos.applyFaults([{ kind: 'drop-stream', afterEvents: 1, eventIds, rpcMethod: 'tools/call' }]);
  const ledger = (key: string) => chaos.state().ledger[key] ?? 0;
  const toolCallIds = (from: number) => chaos.state().log.slice(from).filter((e) => e.rpcMethod === 'tools/call').map((e) => String(e.rpcId));

  line('\n4 · dropped response streams: each call\'s stream breaks after the server\'s priming event, before the answer');
  more('(the server now accepts GET, so a stream whose events carry ids can be resumed)');

  // The resilient client's three calls, back to back.
  const resilientCall = async (eventIds: boolean, name: string, args: Record<string, unknown>) => {
    const from = events.length;
    const log = chaos.state().log.length;
    await drop(eventIds);
    const outcome = await timedCall(resilient, name, args, 10_000);
    return { outcome, events: events.slice(from), ids: toolCallIds(log) };
  };
  const resumed = await resilientCall(true, 'record', { key: 'resume-resilient' });
  const reissued = await resilientCall(false, 'echo', { text: 'read-only' });
  const unknown = await resilientCall(false, 'record', { key: 'unknown-resilient' });

  const plainRow = (outcome: Timed, key: string, ok: string) => {
    if (outcome.ok) row(plain.label, `✓   ${ok}`);
    else if (timedOut(outcome.error)) {
      row(plain.label, `✗   no answer; after ${seconds(outcome.ms)} the SDK gave up${key ? ` (the server had run it: ledger shows ${ledger(key)})` : ''}`);
    } else row(plain.label, `✗   ${plainError(outcome.error)}`);
  };
  const resilientRow = (call: { outcome: Timed; events: ResilienceEvent[] }, text: string) => {
    const error = call.outcome.error === undefined ? '' : ` ${errorCode(call.outcome.error)}`;
    row(resilient.label, `${call.outcome.ok ? '✓' : '✗'}${error}   ${text}`);
    for (const said of narrate(call.events, IDLE_BUDGET_MS)) more(said);
  };

  line('  a · record, the events carry ids');
  await drop(true);
  const plainResumed = await timedCall(plain, 'record', { key: 'resume-plain' }, PLAIN_TIMEOUT_MS);
  plainRow(plainResumed, 'resume-plain', `answered after ${seconds(plainResumed.ms)}: the SDK 1.x resumes such a stream itself (GET + Last-Event-ID, after its 1 s reconnection delay) · ledger ${ledger('resume-plain')}`);
  resilientRow(resumed, `answered after ${seconds(resumed.outcome.ms)} · ledger ${ledger('resume-resilient')}: ran once, the POST never sent twice`);

  line('  b · echo, no event ids: the stream cannot be resumed; the application vouches that echo is read-only');
  await drop(false);
  plainRow(await timedCall(plain, 'echo', { text: 'read-only' }, PLAIN_TIMEOUT_MS), '', 'answered');
  resilientRow(reissued, `answered after ${seconds(reissued.outcome.ms)}`);
  if (reissued.ids.length === 2) more(`  the request ids on the wire: ${reissued.ids.join(' → ')}; the SDK got its answer under ${reissued.ids[0]}`);

  line('  c · record, no event ids: cannot be resumed, and not safe to send again');
  await drop(false);
  plainRow(await timedCall(plain, 'record', { key: 'unknown-plain' }, PLAIN_TIMEOUT_MS), 'unknown-plain', 'answered');
  const designed = !unknown.outcome.ok && errorCode(unknown.outcome.error) === 'OUTCOME_UNKNOWN';
  resilientRow(unknown, `failed at once (${seconds(unknown.outcome.ms)}) · it ran once (ledger ${ledger('unknown-resilient')}): the engine will not run it twice`);
  more(`(the plain client's request timeout is set to ${seconds(PLAIN_TIMEOUT_MS)} here; by default it would have waited 60 s)`);
  return designed;
}

const chaos = await startChaosServer({
  dialect: 'amdahl',
  faults: [{ kind: 'status', status: 405, httpMethod: 'GET', count: 1_000 }],
});
const closing: Client[] = [];
try {
  await main(chaos, closing);
} finally {
  for (const client of closing) await client.close().catch(() => {});
  await chaos.stop();
}
