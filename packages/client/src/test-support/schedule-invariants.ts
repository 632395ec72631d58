import type { WireEntry } from '@mcp-resilience/chaos';
import { isResilienceError } from '@mcp-resilience/core';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { SURFACED_ERROR_CODE as GAVE_UP_CODE } from '@mcp-resilience/core';
import { BACKOFF, SETTLE_WITHIN_MS, type CallOutcome, type RunResult } from './fault-schedule.ts';

/** How a call failed, as the caller sees it. */
export interface Failure {
  readonly kind: 'resilience' | 'gave-up' | 'http' | 'other';
  readonly code?: string | number;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly message: string;
}

export function describeFailure(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  if (isResilienceError(error)) return { kind: 'resilience', code: error.code, details: error.details, message };
  if (error instanceof McpError && error.code === GAVE_UP_CODE) {
    const data = (error.data ?? {}) as Record<string, unknown>;
    return { kind: 'gave-up', ...(typeof data.code === 'string' ? { code: data.code } : {}), details: data, message };
  }
  if (error instanceof StreamableHTTPError) return { kind: 'http', ...(error.code === undefined ? {} : { code: error.code }), message };
  return { kind: 'other', message };
}

/** Typed failures a non-idempotent call may end with. */
const UNSAFE_CODES = new Set([
  'OUTCOME_UNKNOWN', 'SESSION_LOST', 'RETRY_EXHAUSTED', 'SERVER_UNREACHABLE', 'RETRY_AFTER_TOO_LONG', 'RETRY_BUDGET_EXHAUSTED', 'SESSION_CHANGED',
]);
/** A replay-safe call may fail only when a budget ran out (or after a double loss: SESSION_LOST). */
const BUDGET_CODES = new Set(['RETRY_EXHAUSTED', 'SERVER_UNREACHABLE', 'RETRY_AFTER_TOO_LONG', 'RETRY_BUDGET_EXHAUSTED']);

/** An HTTP error the engine delivers untouched: 4xx other than 429, 501, 505. */
const deliveredHttp = (f: Failure) =>
  f.kind === 'http' && typeof f.code === 'number' && ((f.code >= 400 && f.code < 500 && f.code !== 429) || f.code === 501 || f.code === 505);

const typed = (f: Failure, codes: ReadonlySet<string>) =>
  (f.kind === 'resilience' || f.kind === 'gave-up') && typeof f.code === 'string' && codes.has(f.code);

function textOf(value: unknown): string | undefined {
  const content = (value as { content?: { type?: string; text?: string }[] } | undefined)?.content;
  return content?.[0]?.text;
}

function expectedText(call: CallOutcome): string {
  switch (call.tool) {
    case 'echo': return String(call.args.text);
    case 'add': return String(Number(call.args.a) + Number(call.args.b));
    case 'record': return `executions of ${String(call.args.key)}: 1`;
    case 'slow': return 'slept 20 ms';
  }
}

const isSessionGone = (e: WireEntry) => e.fault?.startsWith('session-gone') === true;

/**
 * The invariants of the design, checked on one run: every violation, described. Empty when
 * the run kept them all.
 */
export function violations(run: RunResult): string[] {
  const found: string[] = [];
  const { calls, events, state, labels } = run;
  const log = state.log;
  const toolPosts = log.filter((e) => e.httpMethod === 'POST' && e.rpcMethod === 'tools/call');
  const labelOf = (e: WireEntry) => (e.rpcId === undefined || e.rpcId === null ? undefined : labels.get(String(e.rpcId)));
  const postsOf = (label: string) => toolPosts.filter((e) => labelOf(e) === label);

  // 5. Nothing hangs.
  for (const call of calls) if (call.settled === 'hung') found.push(`${call.label} hung: not settled within the watchdog's ${SETTLE_WITHIN_MS / 1000} s`);

  // 1. No duplicate executions; a failed non-idempotent call fails with a typed error.
  for (const [key, count] of Object.entries(state.ledger)) if (count > 1) found.push(`record ${key} executed ${count} times`);
  for (const call of calls) {
    const label = call.label;
    if (call.settled === 'fulfilled') {
      const text = textOf(call.value);
      if (text !== expectedText(call)) found.push(`${label} resolved with ${JSON.stringify(text)}, expected ${JSON.stringify(expectedText(call))}`);
      if (call.tool === 'record' && state.ledger[label] !== 1) found.push(`${label} resolved but the ledger counts ${state.ledger[label] ?? 0}`);
    }
    if (call.settled !== 'rejected') continue;
    const failure = describeFailure(call.error);
    const shown = `${failure.kind} ${String(failure.code)} (${failure.message})`;
    if (call.tool === 'record') {
      if (!typed(failure, UNSAFE_CODES) && !deliveredHttp(failure)) found.push(`${label} rejected with an untyped failure: ${shown}`);
      continue;
    }
    // 2. Replay-safe calls never fail with OUTCOME_UNKNOWN: only a spent budget, or a second loss.
    const losses = postsOf(label).filter(isSessionGone).length;
    const doubleLoss = typed(failure, new Set(['SESSION_LOST'])) && losses >= 2;
    if (!typed(failure, BUDGET_CODES) && !doubleLoss) {
      found.push(`replay-safe ${label} rejected with ${shown} after ${losses} session-gone answer(s)`);
    }
  }

  // 3. At most one replay per logical call, and bounded re-sends of any one request.
  const replayed = events.filter((e) => e.type === 'replayed' && e.method === 'tools/call').length;
  if (replayed > calls.length) found.push(`${replayed} tools/call replays for ${calls.length} calls`);
  const perId = new Map<string, number>();
  for (const e of toolPosts) perId.set(String(e.rpcId), (perId.get(String(e.rpcId)) ?? 0) + 1);
  const maxPerId = 1 + BACKOFF.maxAttempts + 1; // the request, its retries, one replay
  for (const [id, count] of perId) if (count > maxPerId) found.push(`rpcId ${id} was POSTed ${count} times (at most ${maxPerId})`);
  for (const call of calls) {
    const posts = postsOf(call.label);
    const losses = posts.filter(isSessionGone);
    if (losses.length > 2) found.push(`${call.label} met ${losses.length} session-gone answers: replayed more than once`);
    if (losses.length >= 2) {
      const after = posts.filter((e) => e.seq > losses[1]!.seq);
      if (after.length > 0) found.push(`${call.label} was sent again (seq ${after.map((e) => e.seq).join(',')}) after its second loss`);
    }
  }

  // 4. A session id classified dead is never sent again. Checked on the client's own timeline:
  // the wire log orders requests by arrival, and a request stamped before the loss was known
  // may arrive after the re-initialization (a legitimate race, not a resend).
  const idOf = new Map<number, string | undefined>();
  const dead = new Map<string, number>();
  let lastInitialized: string | undefined;
  for (const moment of run.timeline) {
    if (moment.kind === 'initialized') lastInitialized = moment.sessionId;
    else if (moment.kind === 'event' && moment.event.type === 'session-started') idOf.set(moment.event.session, lastInitialized);
    else if (moment.kind === 'event' && moment.event.type === 'session-lost') {
      const id = idOf.get(moment.event.session);
      if (id !== undefined) dead.set(id, moment.event.session);
    } else if (moment.kind === 'send' && moment.sessionId !== undefined && dead.has(moment.sessionId)) {
      found.push(`session ${dead.get(moment.sessionId)} was declared lost, then sent again: ${moment.httpMethod} ${moment.rpcMethod ?? ''} ${String(moment.rpcId ?? '')}`);
    }
  }
  return found;
}

/** A compact wire log for a report: `seq method rpcMethod id sN status fault`. */
export function wireSummary(run: RunResult): string[] {
  return run.state.log.map((e) => [
    e.seq, e.httpMethod, e.rpcMethod ?? '-', e.rpcId ?? '-', e.sessionOrdinal === undefined ? (e.session ? 'dead' : '-') : `s${e.sessionOrdinal}`,
    e.status ?? '?', e.fault ?? '',
  ].join(' '));
}
