import type { ResilienceEvent } from '@mcp-resilience/core';

/** `850 ms`, `1.2 s`, `12 s`. */
function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  return `${seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds)} s`;
}

/**
 * One human line for an engine event, prefixed `mcp-resilience`, and `client N:` for the second
 * and later clients of one fetch (their sessions are numbered from 1 too). Sessions are named by
 * their ordinal; a session id never appears (events carry none).
 *
 * @example
 * describeEvent({ type: 'session-lost', session: 1, dialect: 'amdahl', cause: 'server-restarted',
 *   suspectedServerBug: false, sessionAgeMs: 9_000, idleMs: 4_000, serverUptimeSeconds: 3 })
 * // 'mcp-resilience session 1 lost (amdahl, server-restarted, server up 3 s) → re-initializing'
 * describeEvent({ type: 'session-started', session: 1, revision: '2025-11-25', client: 2 })
 * // 'mcp-resilience client 2: session 1 started (revision 2025-11-25)'
 */
export function describeEvent(event: ResilienceEvent): string {
  return `mcp-resilience ${event.client === undefined ? '' : `client ${event.client}: `}${describe(event)}`;
}

function describe(event: ResilienceEvent): string {
  /** The request an event is about, as its JSON-RPC method (`request` when it had none). */
  const call = (event as { method?: string }).method ?? 'request';
  switch (event.type) {
    case 'session-started':
      return `session ${event.session} started (revision ${event.revision})`;
    case 'session-lost': {
      const facts: string[] = [event.dialect, event.cause];
      if (event.serverUptimeSeconds !== undefined) facts.push(`server up ${event.serverUptimeSeconds} s`);
      if (event.suspectedServerBug) facts.push('suspected server bug');
      const during = event.method === undefined ? '' : ` during ${event.method}`;
      return `session ${event.session} lost${during} (${facts.join(', ')}) → re-initializing`;
    }
    case 'session-reinitialized':
      return `session ${event.to} replaces session ${event.from} (${event.reason})`;
    case 'session-changed': {
      const revision = event.revision ? `revision ${event.revision.from} → ${event.revision.to}, ` : '';
      return `session ${event.to} differs from session ${event.from} (${revision}capabilities [${event.capabilities.join(', ')}]) → call not replayed`;
    }
    case 'state-restored':
      return `session ${event.session} restored ${event.subscriptions} subscription(s)${event.logLevel === undefined ? '' : `, log level ${event.logLevel}`}`;
    case 'replayed':
      return `${event.stream ? 'standalone stream reopened' : `${call} replayed`} on session ${event.session}`;
    case 'backed-off': {
      const what = event.status === undefined ? event.verdict : `HTTP ${event.status} (${event.verdict})`;
      return `${call} got ${what} → retry ${event.attempt} in ${duration(event.delayMs)}`;
    }
    case 'resumed':
      return `${call} stream broke → resume ${event.attempt} in ${duration(event.delayMs)}`;
    case 'reissued':
      return `${call} outcome unknown → re-issue ${event.attempt} in ${duration(event.delayMs)}`;
    case 'gave-up':
      return `${call} gave up: ${event.code}`;
    case 'server-wait-started':
      return `${call} refused → wait up to ${duration(event.limitMs)}`;
    case 'server-wait-ended':
      return `${call} waited ${duration(event.waitedMs)} for the server: ${event.outcome}`;
    case 'task-survived':
      return `task ${event.task} survived session ${event.from}, now on session ${event.session}`;
    case 'task-lost':
      return `task ${event.task} lost with session ${event.session} (${event.cause}): ${event.mayStillRun ? 'may still run' : 'stopped'}, ${event.recreatable ? '' : 'not '}safe to create again`;
    case 'unrecognised-answer': {
      const said = event.code === undefined ? (event.text === undefined ? '' : ` "${event.text}"`) : ` (${event.code} "${event.message}")`;
      return `${call} got HTTP ${event.status}${said}, which no "session gone" dialect knows (see the dialects option)`;
    }
    default:
      // Compile-time exhaustiveness; at run time an event type added later still gets a line.
      event satisfies never;
      return `event ${(event as { type: string }).type}`;
  }
}
