import { ERROR_CODES, isResilienceError, normalizeTrace, resilienceCodeOf, SURFACED_ERROR_CODE } from '@mcp-resilience/core';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ID_MARKER } from './hostile-behaviours.ts';
import type { Received } from './hostile-server.ts';
import { SDK_TIMEOUT_MS, SETTLE_WITHIN_MS, type HostileRun, type Settled } from './hostile-run.ts';

/*
 * What must hold whatever the server does, checked on one hostile run:
 * 1. the connection and every call settle, each without help but for the test's end of a call
 *    whose request the server stalled (read from the wire, not the clock): a call ended by the SDK's
 *    timeout or by the watchdog above it (both hang guards, far above any call's time) has hung;
 * 2. nothing escapes: no unhandled rejection, no uncaught exception;
 * 3. failures are typed: a ResilienceError, an McpError (the engine's own code carries a known
 *    `data.code`), the SDK's StreamableHTTPError, or the SDK failing to parse a 2xx body the
 *    server garbled; never a raw network TypeError or anything else;
 * 4. a session id the engine classified dead (or that the server had declared gone before the
 *    engine opened a newer session) is never sent again;
 * 5. no raw session id in any event;
 * 6. at most one replay per call (per request the SDK sent: a followed redirect is a new one;
 *    concurrent calls are counted together), and nothing sent for a call after its second session loss;
 * 7. a call that resolves resolves with its own answer;
 * 8. the server listened on 127.0.0.1 only and, once stopped, no longer listens and holds no connection.
 */

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);
const inWindow = (run: HostileRun, s: Settled): readonly Received[] => run.log.slice(s.requests[0], s.requests[1]);

function describe(error: unknown): string {
  if (!(error instanceof Error)) return `non-Error ${JSON.stringify(error)}`;
  const code = (error as { code?: unknown }).code;
  return `${error.constructor.name}${code === undefined ? '' : ` ${String(code)}`}: ${error.message.slice(0, 200)}`;
}

/** Why a failure is not one of the typed ones the property allows, or undefined when it is. */
function untyped(error: unknown, isConnect: boolean): string | undefined {
  if (isResilienceError(error)) return CODES.has(error.code) ? undefined : `unknown resilience code ${error.code}`;
  if (error instanceof McpError) {
    if (!Number.isInteger(error.code)) return 'McpError without an integer code';
    if (error.code === SURFACED_ERROR_CODE && resilienceCodeOf(error) === undefined) return 'surfaced engine error without a known data.code';
    return undefined;
  }
  if (error instanceof StreamableHTTPError) return typeof error.code === 'number' ? undefined : 'StreamableHTTPError without a code';
  // The SDK refuses a protocol version it does not know, in a plain Error.
  if (isConnect && error instanceof Error && error.message.startsWith("Server's protocol version is not supported")) return undefined;
  return 'untyped failure';
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout && error.message.endsWith('Request timed out');
}

/** The requests the SDK sent for one call: the call, and one more per redirect it followed. */
function sdkRequests(requests: readonly Received[]): number {
  return 1 + requests.filter((r) => /"kind":"redirect","status":30[78],"location":"self"/.test(r.did)).length;
}

function checkSettled(run: HostileRun, s: Settled, isConnect: boolean, found: string[]): void {
  if (s.settled === 'hung') return void found.push(`${s.label} hung: the SDK's timeout did not end it, nor the watchdog's ${SETTLE_WITHIN_MS / 1000} s`);
  if (s.settled === 'fulfilled') {
    const text = (s.value as { content?: { text?: unknown }[] } | undefined)?.content?.[0]?.text;
    if (!isConnect && text !== s.label) found.push(`${s.label} resolved with ${JSON.stringify(text)?.slice(0, 80)}, not its own answer`);
    return;
  }
  // Ended by the test: the server stalled one of its requests (it is in the log, stalled), so only a timeout could have ended it.
  if (s.endedOnStall !== undefined && run.log.find((r) => r.seq === s.endedOnStall)?.costly) return;
  if (isTimeout(s.error)) return void found.push(`${s.label} hung: only the SDK's timeout ended it (a ${SDK_TIMEOUT_MS / 1000} s hang guard), though the server stalled none of its requests`);
  const why = untyped(s.error, isConnect);
  if (why) found.push(`${s.label} rejected with ${why}: ${describe(s.error)}`);
}

/** One replay per request the SDK sent: counted over a call, or over concurrent calls together (their windows overlap). */
function checkReplayCount(run: HostileRun, group: readonly Settled[], found: string[]): void {
  const from = Math.min(...group.map((s) => s.requests[0]));
  const to = Math.max(...group.map((s) => s.requests[1]));
  const allowed = group.length - 1 + sdkRequests(run.log.slice(from, to));
  const events = run.events.slice(Math.min(...group.map((s) => s.events[0])), Math.max(...group.map((s) => s.events[1])));
  const replays = events.filter((e) => e.type === 'replayed' && e.method === 'tools/call').length;
  if (replays > allowed) found.push(`${group.map((s) => s.label).join(', ')}: ${replays} replays (${allowed} request(s) from the SDK)`);
}

function checkReplays(run: HostileRun, s: Settled, found: string[]): void {
  const requests = inWindow(run, s);
  if (sdkRequests(requests) > 1) return;
  const posts = requests.filter((r) => r.httpMethod === 'POST' && r.label === s.label);
  const losses = posts.filter((r) => r.declaredDead !== undefined);
  if (losses.length >= 2) {
    const after = posts.filter((r) => r.seq > losses[1]!.seq);
    if (after.length > 0) found.push(`${s.label} was sent again (seq ${after.map((r) => r.seq).join(',')}) after its second session loss`);
  }
}

/** 4: dead ids, on the client's own timeline (a request stamped before a loss was known may arrive after it). */
function checkDeadIds(run: HostileRun, found: string[]): void {
  const idOf = new Map<number, string | undefined>();
  const dead = new Set<string>();
  let lastInitialized: string | undefined;
  for (const moment of run.timeline) {
    if (moment.kind === 'initialized') lastInitialized = moment.sessionId;
    else if (moment.kind === 'event' && moment.event.type === 'session-started') {
      idOf.set(moment.event.session, lastInitialized);
      for (const id of moment.deadSoFar) dead.add(id);
    } else if (moment.kind === 'event' && moment.event.type === 'session-lost') {
      const id = idOf.get(moment.event.session);
      if (id !== undefined) dead.add(id);
    } else if (moment.kind === 'send' && moment.sessionId !== undefined && dead.has(moment.sessionId)) {
      found.push(`a dead session id was sent again: ${moment.httpMethod} ${moment.rpcMethod ?? ''} ${JSON.stringify(moment.sessionId.slice(0, 40))}`);
    }
  }
}

/** Every invariant the run broke, described; empty when it kept them all. */
export function hostileViolations(run: HostileRun): string[] {
  const found: string[] = [];
  for (const e of run.escaped) found.push(e.slice(0, 600));
  checkSettled(run, run.connect, true, found);
  for (const call of run.calls) {
    checkSettled(run, call, false, found);
    checkReplays(run, call, found);
  }
  if (run.scenario.concurrent && run.calls.length > 0) checkReplayCount(run, run.calls, found);
  else for (const call of run.calls) checkReplayCount(run, [call], found);
  checkDeadIds(run, found);
  const text = JSON.stringify(run.events);
  const leaked = run.minted.filter((id) => id.trim() !== '' && text.includes(JSON.stringify(id).slice(1, -1)));
  if (text.includes(ID_MARKER) || leaked.length > 0) found.push('a raw session id appears in an event');
  if (run.afterStop.host !== '127.0.0.1') found.push(`the server listened on ${run.afterStop.host}`);
  if (run.afterStop.listening || run.afterStop.openConnections > 0) {
    found.push(`the server did not stop cleanly (listening ${String(run.afterStop.listening)}, ${run.afterStop.openConnections} connection(s))`);
  }
  return found;
}

/** A report of a failed run: what broke, the calls, the events and the server's log. */
export function describeRun(run: HostileRun, found: readonly string[]): string {
  const outcome = (s: Settled) => `${s.label}: ${s.endedOnStall === undefined ? s.settled : 'ended by the test'}${s.settled === 'rejected' ? ` ${describe(s.error)}` : ''}`;
  return [
    'invariants broken:', ...found.map((f) => `  - ${f}`),
    'outcomes:', ...[run.connect, ...run.calls].map((s) => `  ${outcome(s)}`),
    'events:', ...normalizeTrace(run.events).map((e) => `  ${JSON.stringify(e)}`),
    'server log (seq method rpc id session did):',
    ...run.log.map((r) => `  ${r.seq} ${r.httpMethod} ${r.rpcMethod ?? '-'} ${String(r.rpcId ?? '-')} ${r.sessionId === undefined ? '-' : JSON.stringify(r.sessionId.slice(0, 24))} ${r.did.slice(0, 160)}`),
  ].join('\n');
}
