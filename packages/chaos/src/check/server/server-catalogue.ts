/**
 * The server check's named checks, in the order they are reported: what each asks, where the
 * rule comes from (the MCP specification, or the seed's session contract), and whether a failure
 * fails the run (`required`) or is reported only (`optional`).
 */
export const SERVER_CHECKS = [
  { name: 'session-id-issued', required: true, source: 'spec', title: 'initialize issues a visible-ASCII, unguessable session id' },
  { name: 'missing-session-400', required: true, source: 'spec', title: 'a request without a session id is answered 400' },
  { name: 'bad-protocol-version-400', required: true, source: 'spec', title: 'an unsupported MCP-Protocol-Version is answered 400' },
  { name: 'unknown-session-404', required: true, source: 'spec', title: 'an id never issued is answered 404 (POST, GET, DELETE)' },
  { name: 'deleted-session-404', required: true, source: 'spec', title: 'an id ended by DELETE is answered 404 (POST, GET, DELETE)' },
  { name: 'reinitialize-after-404', required: true, source: 'spec', title: 'after a 404 a fresh initialize works' },
  { name: 'restart-404', required: true, source: 'spec', title: 'after a restart every old id is answered 404' },
  { name: 'uptime-younger-than-session', required: true, source: 'seed', title: 'server_uptime_seconds after a restart is younger than the old session' },
  { name: 'delete-ends-only-that-session', required: true, source: 'spec', title: 'DELETE ends that session only' },
  { name: 'concurrent-calls', required: true, source: 'spec', title: '20 concurrent calls on one session are all answered' },
  { name: 'gone-body', required: false, source: 'seed', title: 'the 404 carries -32000 with data.reason, data.action, server_uptime_seconds' },
  { name: 'stream-keeps-alive', required: false, source: 'seed', title: 'an open GET stream keeps an idle session alive' },
  { name: 'no-session-id', required: true, source: 'spec', title: '2026-07-28: no session id is issued' },
  { name: 'unknown-method-404', required: true, source: 'spec', title: '2026-07-28: 404 only for an unknown method' },
] as const;

/**
 * The name of a server check.
 *
 * @example
 * const name: ServerCheckName = 'restart-404';
 */
export type ServerCheckName = (typeof SERVER_CHECKS)[number]['name'];

/** What a check came to: passed, failed, or skipped (it does not apply, or cannot be run here), and why. */
export interface Verdict {
  readonly status: 'passed' | 'failed' | 'skipped';
  /** One line: what was sent and what came back (the reason, when it failed or was skipped). */
  readonly detail: string;
}

/** One check's result in a report. */
export interface ServerCheckResult extends Verdict {
  readonly name: ServerCheckName;
  readonly title: string;
  readonly required: boolean;
  readonly source: 'spec' | 'seed';
}

export const passed = (detail: string): Verdict => ({ status: 'passed', detail });
export const failed = (detail: string): Verdict => ({ status: 'failed', detail });
export const skipped = (detail: string): Verdict => ({ status: 'skipped', detail });

/** The checks that need a session (all but the 2026-07-28 ones). */
export const SESSION_CHECKS: readonly ServerCheckName[] = SERVER_CHECKS.map((c) => c.name).filter((n) => n !== 'no-session-id' && n !== 'unknown-method-404');

/**
 * A result per check of the catalogue, in its order, from the verdicts found (a check with no
 * verdict gets `fallback`).
 *
 * @example
 * results(new Map([['restart-404', passed('…')]]), failed('not run: the server did not start'));
 */
export function results(verdicts: ReadonlyMap<ServerCheckName, Verdict>, fallback: Verdict): ServerCheckResult[] {
  return SERVER_CHECKS.map(({ name, title, required, source }) => ({ name, title, required, source, ...(verdicts.get(name) ?? fallback) }));
}
