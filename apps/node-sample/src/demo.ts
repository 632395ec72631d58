// `pnpm demo`: a plain official SDK client and a resilient one (the same SDK, its transport
// given createResilientFetch) through the same churn on one chaos server, narrated.
import { startChaosServer, type ChaosServer, type Fault } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { narrate, plainError, seconds } from './demo-narration.ts';
import { createResilientFetch } from './engine.ts';

/** The resilient client replaces a session idle this long; the server expires one idle SERVER_IDLE_MS. */
const IDLE_BUDGET_MS = 1_500;
const SERVER_IDLE_MS = 2_000;
const PAD = 11;

interface Side {
  readonly label: string;
  client: Client;
  calls: number;
  failed: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
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
  const resilientFetch = createResilientFetch({ idleBudgetMs: IDLE_BUDGET_MS, fetch: counted, onEvent: (e) => events.push(e) });
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
  row('resilient', `the same, with fetch: createResilientFetch({ idleBudgetMs: ${IDLE_BUDGET_MS} })`);
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

  // One 429 each: waits adding up past idleBudgetMs would find the session idle by the retry
  // (only answered exchanges count as use), and it would be replaced mid-call.
  line('\n3 · rate limit: the next request of each client gets 429 Too Many Requests, Retry-After: 1');
  const rateLimited = { kind: 'status', status: 429, count: 1, retryAfter: '1' } as const;
  await apply(rateLimited);
  const limited = await act(4, 'the 429, which the SDK does not retry', () => apply(rateLimited));
  if (!limited.some((e) => e.type === 'session-reinitialized')) more('a rate limit is not a session loss: same session, after the server\'s wait, never re-initialized');

  line('\n4 · dropped response streams: recovery (resume with Last-Event-ID, or re-issue) arrives with the stream supervisor');

  const reinits = events.filter((e) => e.type === 'session-reinitialized');
  const idle = reinits.filter((e) => e.type === 'session-reinitialized' && e.reason === 'idle').length;
  const backoffs = events.filter((e) => e.type === 'backed-off').length;
  line(`\nplain client: ${plain.failed} of ${plain.calls} calls failed · resilient client: ${resilient.failed} of ${resilient.calls} failed, `
    + `${reinits.length} re-initializations (${reinits.length - idle} after a loss, ${idle} ahead of idle expiry), ${backoffs} backoff${backoffs === 1 ? '' : 's'} · ${seconds(Date.now() - started)}`);
  if (resilient.failed > 0) process.exitCode = 1;
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
