import type { WireRecord } from './counting-fetch.ts';

/**
 * The `initialize` requests sent after timeline tick `from`.
 *
 * @example
 * initializesAfter(client.wire, run.restartedAt).length // 1: one per loss
 */
export function initializesAfter(wire: readonly WireRecord[], from: number): WireRecord[] {
  return wire.filter((r) => r.sentAt > from && r.rpcMethods.includes('initialize'));
}

/**
 * When `deadId` was first answered with an error (4xx/5xx): the first failed request carrying
 * it. `undefined`: it never was. A refused connection (the server down while it restarts) does
 * not count: it says nothing of the session.
 *
 * @example
 * firstFailedAt(client.wire, run.deadId) // 41
 */
export function firstFailedAt(wire: readonly WireRecord[], deadId: string): number | undefined {
  const failed = wire.filter((r) => r.sessionId === deadId && r.status !== undefined && r.status >= 400).map((r) => r.answeredAt!);
  return failed.length === 0 ? undefined : Math.min(...failed);
}

/**
 * When the engine declared the session lost: its first `session-lost` event.
 *
 * @example
 * declaredLostAt(client.events) // 67
 */
export function declaredLostAt(events: readonly { readonly at: number; readonly event: { readonly type: string } }[]): number | undefined {
  return events.find((e) => e.event.type === 'session-lost')?.at;
}

/**
 * Requests that carried `deadId` although they were sent after tick `at`.
 *
 * @example
 * sentAfter(client.wire, run.deadId, declaredLostAt(client.events)!) // [] — invariant 2
 */
export function sentAfter(wire: readonly WireRecord[], deadId: string, at: number): WireRecord[] {
  return wire.filter((r) => r.sessionId === deadId && r.sentAt > at);
}

/**
 * The session a client was on at tick `at`: the id the last `initialize` answered before it
 * issued (the engine may have replaced the first one already).
 *
 * @example
 * sessionAt(client.wire, idleFrom) // '3fac…'
 */
export function sessionAt(wire: readonly WireRecord[], at: number): string | undefined {
  return wire.filter((r) => r.answeredAt !== undefined && r.answeredAt < at && r.rpcMethods.includes('initialize') && r.issuedSessionId).at(-1)?.issuedSessionId ?? undefined;
}

/**
 * How many times each logical `tools/call` (named by its argument) went over the wire.
 *
 * @example
 * sendsPerCall(client.wire, ['after-0', 'after-1']) // { 'after-0': 2, 'after-1': 2 }
 */
export function sendsPerCall(wire: readonly WireRecord[], calls: readonly string[]): Record<string, number> {
  return Object.fromEntries(calls.map((call) => [call, wire.filter((r) => r.callArgument === call && r.httpMethod === 'POST').length]));
}

/**
 * The client's exchanges and events on one line each, in timeline order: the message of a
 * failed assertion, so that a failure shows what went over the wire.
 *
 * @example
 * expect(initializes, trace(client.wire, client.events)).toHaveLength(1);
 */
export function trace(wire: readonly WireRecord[], events: readonly { readonly at: number; readonly event: { readonly type: string } }[] = []): string {
  const lines = [
    ...wire.map((w) => [w.sentAt, `${w.sentAt}→${w.answeredAt ?? '?'} ${w.httpMethod} ${w.rpcMethods.join('+')} ${w.callArgument ?? ''} sid=${w.sessionId?.slice(0, 8) ?? '-'} → ${w.status ?? w.failed ?? 'pending'}${w.issuedSessionId ? ` new sid=${w.issuedSessionId.slice(0, 8)}` : ''}`] as const),
    ...events.map((e) => [e.at, `${e.at} event ${JSON.stringify(e.event)}`] as const),
  ];
  return `\n${lines.sort((a, b) => a[0] - b[0]).map(([, line]) => line).join('\n')}\n`;
}
