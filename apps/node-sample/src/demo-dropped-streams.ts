// Act 4 of the demo's story: dropped response streams.
import type { ResilienceEvent } from '@mcp-resilience/core';
import { errorCode } from '@mcp-resilience/scenarios';
import { narrate, plainError, seconds } from './demo-narration.ts';
import { CALL_TIMEOUT_MS, IDLE_BUDGET_MS, type DemoStage, type Side } from './demo-stage.ts';

/** The plain client's request timeout in act 4 (the SDK's default is 60 s: nobody waits that long in a demo). */
const PLAIN_TIMEOUT_MS = 3_000;

/** One call, timed: how it ended and after how long. */
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

/**
 * Act 4: each client's next call loses its response stream after the server's priming event,
 * before the answer. With event ids, a record call; without, a read-only echo and a record call.
 * The resilient client's calls go first, back to back (the plain client's waits in between
 * would leave its session idle past idleBudgetMs, and it would be replaced: true, but another
 * story); each part is told once both clients have made its call. Answers whether the resilient
 * record call without ids failed as designed, with OUTCOME_UNKNOWN.
 *
 * @example
 * const designed = await droppedStreams(stage, plain, resilient, events);
 */
export async function droppedStreams(stage: DemoStage, plain: Side, resilient: Side, events: ResilienceEvent[]): Promise<boolean> {
  const { say } = stage;
  const note = (text: string) => say({ kind: 'note', text });
  const row = (side: Side, text: string) => say({ kind: 'row', side: side.label, text });
  // Resuming takes a GET (+ Last-Event-ID), which this server has refused so far: reset lifts
  // that fault (and clears the ledger and the wire log; the sessions stay).
  await stage.reset();
  const drop = (eventIds: boolean) => stage.apply([{ kind: 'drop-stream', afterEvents: 1, eventIds, rpcMethod: 'tools/call' }]);
  const ledger = async (key: string) => (await stage.state()).ledger[key] ?? 0;
  const toolCallIds = async (from: number) => (await stage.state()).log.slice(from).filter((e) => e.rpcMethod === 'tools/call').map((e) => String(e.rpcId));

  say({ kind: 'act', text: '4 · dropped response streams: each call\'s stream breaks after the server\'s priming event, before the answer' });
  note('(the server now accepts GET, so a stream whose events carry ids can be resumed)');

  // The resilient client's three calls, back to back.
  const resilientCall = async (eventIds: boolean, name: string, args: Record<string, unknown>) => {
    const from = events.length;
    const log = (await stage.state()).log.length;
    await drop(eventIds);
    const outcome = await timedCall(resilient, name, args, CALL_TIMEOUT_MS);
    return { outcome, events: events.slice(from), ids: await toolCallIds(log) };
  };
  const resumed = await resilientCall(true, 'record', { key: 'resume-resilient' });
  const reissued = await resilientCall(false, 'echo', { text: 'read-only' });
  const unknown = await resilientCall(false, 'record', { key: 'unknown-resilient' });

  const plainRow = async (outcome: Timed, key: string, ok: string) => {
    if (outcome.ok) row(plain, `✓   ${ok}`);
    else if (timedOut(outcome.error)) {
      row(plain, `✗   no answer; after ${seconds(outcome.ms)} the SDK gave up${key ? ` (the server had run it: ledger shows ${await ledger(key)})` : ''}`);
    } else row(plain, `✗   ${plainError(outcome.error)}`);
  };
  const resilientRow = (call: { outcome: Timed; events: ResilienceEvent[] }, text: string) => {
    const error = call.outcome.error === undefined ? '' : ` ${errorCode(call.outcome.error)}`;
    row(resilient, `${call.outcome.ok ? '✓' : '✗'}${error}   ${text}`);
    for (const said of narrate(call.events, IDLE_BUDGET_MS)) note(said);
  };

  say({ kind: 'part', text: 'a · record, the events carry ids' });
  await drop(true);
  const plainResumed = await timedCall(plain, 'record', { key: 'resume-plain' }, PLAIN_TIMEOUT_MS);
  await plainRow(plainResumed, 'resume-plain', `answered after ${seconds(plainResumed.ms)}: the SDK 1.x resumes such a stream itself (GET + Last-Event-ID, after its 1 s reconnection delay) · ledger ${await ledger('resume-plain')}`);
  resilientRow(resumed, `answered after ${seconds(resumed.outcome.ms)} · ledger ${await ledger('resume-resilient')}: ran once, the POST never sent twice`);

  say({ kind: 'part', text: 'b · echo, no event ids: the stream cannot be resumed; the application vouches that echo is read-only' });
  await drop(false);
  await plainRow(await timedCall(plain, 'echo', { text: 'read-only' }, PLAIN_TIMEOUT_MS), '', 'answered');
  resilientRow(reissued, `answered after ${seconds(reissued.outcome.ms)}`);
  if (reissued.ids.length === 2) note(`  the request ids on the wire: ${reissued.ids.join(' → ')}; the SDK got its answer under ${reissued.ids[0]}`);

  say({ kind: 'part', text: 'c · record, no event ids: cannot be resumed, and not safe to send again' });
  await drop(false);
  await plainRow(await timedCall(plain, 'record', { key: 'unknown-plain' }, PLAIN_TIMEOUT_MS), 'unknown-plain', 'answered');
  const designed = !unknown.outcome.ok && errorCode(unknown.outcome.error) === 'OUTCOME_UNKNOWN';
  resilientRow(unknown, `failed at once (${seconds(unknown.outcome.ms)}) · it ran once (ledger ${await ledger('unknown-resilient')}): the engine will not run it twice`);
  note(`(the plain client's request timeout is set to ${seconds(PLAIN_TIMEOUT_MS)} here; by default it would have waited 60 s)`);
  return designed;
}
