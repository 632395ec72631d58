import type { LossCause, ResilienceEvent } from '@mcp-resilience/core';

/** `0.8 s`, `1.3 s`, `12 s`. */
export function seconds(ms: number): string {
  const s = ms / 1_000;
  return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
}

/** What each diagnosis means, in the seed contract's terms. */
const MEANING: Record<LossCause, string> = {
  'server-restarted': 'the server is younger than the session, so it restarted (a deploy): nothing to fix on the client side',
  'idle-expired': 'the session sat idle past the server\'s idle budget',
  'evicted-while-idle': 'dropped while idle, within the budget: capacity pressure on the server',
  'evicted-while-busy': 'dropped while in use: a suspected server bug, worth reporting with this trace',
  unknown: 'the server gave no usable uptime (or too close to call): cause unknown',
};

/**
 * The resilient client's events of one act, as lines of narration: what it saw, what it did,
 * and why. `session-started` is told by the re-initialization that follows it.
 */
export function narrate(events: readonly ResilienceEvent[], idleBudgetMs: number): string[] {
  const lines: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'session-lost': {
        const uptime = event.serverUptimeSeconds === undefined ? 'no uptime given' : `server up ${event.serverUptimeSeconds} s`;
        lines.push(`session ${event.session} lost: ${event.method ?? 'a request'} met "session gone" (${event.dialect} dialect)`);
        lines.push(`diagnosis: ${event.cause} · ${uptime} · session age ${seconds(event.sessionAgeMs)} · idle ${seconds(event.idleMs)}`);
        lines.push(`  ${MEANING[event.cause]}`);
        break;
      }
      case 'session-reinitialized':
        lines.push(event.reason === 'idle'
          ? `session ${event.from} idle past idleBudgetMs (${seconds(idleBudgetMs)}) → replaced by session ${event.to} before the call was sent`
          : `→ one re-initialization, shared by every call that met it: session ${event.to} (the client's own initialize, sent again)`);
        break;
      case 'state-restored':
        lines.push(`→ session ${event.session} given back ${event.subscriptions} subscription(s)${event.logLevel ? ` and log level ${event.logLevel}` : ''}`);
        break;
      case 'replayed':
        lines.push(`→ the failed ${event.method} sent again, once, on session ${event.session}: answered`);
        break;
      case 'backed-off':
        lines.push(`HTTP ${event.status ?? '-'} (${event.verdict}) → waited ${seconds(event.delayMs)} on the same session, as Retry-After asked (retry ${event.attempt})`);
        break;
      case 'reissued':
        lines.push(`outcome unknown → re-issued under a new id after ${seconds(event.delayMs)} (attempt ${event.attempt})`);
        break;
      case 'resumed':
        lines.push(`stream broke → resumed with GET + Last-Event-ID after ${seconds(event.delayMs)} (attempt ${event.attempt})`);
        break;
      case 'session-changed':
        lines.push(`session ${event.to} negotiated differently from session ${event.from} → the call was not replayed`);
        break;
      case 'gave-up':
        lines.push(event.code === 'OUTCOME_UNKNOWN'
          ? 'gave up: OUTCOME_UNKNOWN → it may have run, and sending it again could run it twice: the call ends now, not at a timeout'
          : `gave up: ${event.code}`);
        break;
      case 'session-started':
        break;
    }
  }
  return lines;
}

/** The gist of a plain SDK client's error: the HTTP status and the server's own words. */
export function plainError(error: unknown): string {
  const status = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const body = message.replace(/^Streamable HTTP error: Error POSTing to endpoint: /, '');
  let said = `"${body.length > 60 ? `${body.slice(0, 57)}…` : body}"`;
  try {
    const rpc = JSON.parse(body) as { error?: { code?: number; message?: string; data?: { server_uptime_seconds?: number } } };
    if (rpc.error) {
      const uptime = rpc.error.data?.server_uptime_seconds;
      said = `${rpc.error.code} "${rpc.error.message}"${uptime === undefined ? '' : ` (server up ${uptime} s)`}`;
    }
  } catch {
    // not JSON: the text as it came
  }
  return typeof status === 'number' ? `HTTP ${status} ${said}` : said;
}
