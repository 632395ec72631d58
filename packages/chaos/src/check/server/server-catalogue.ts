/**
 * The server check's named checks, in the order they are reported: what each asks, where the
 * rule comes from (`spec`: the MCP specification; `jsonrpc`: JSON-RPC 2.0, which MCP's messages
 * follow but which no MCP rule applies to an HTTP error's body; `seed`: the project's session
 * contract), and how strong the rule is (`must`, `should`, `optional`). A failed `must` check
 * fails the run; a failed `should` check fails it only with `--strict`; an optional one never.
 */
export const SERVER_CHECKS = [
  { name: 'session-id-issued', level: 'must', source: 'spec', title: 'initialize issues a session id of visible ASCII (0x21–0x7E)' },
  { name: 'session-id-random', level: 'should', source: 'spec', title: 'session ids are unique and carry at least 64 bits of entropy (globally unique, cryptographically secure)' },
  { name: 'missing-session-400', level: 'should', source: 'spec', title: 'a request without a session id is answered 400' },
  { name: 'bad-protocol-version-400', level: 'must', source: 'spec', title: 'an unsupported MCP-Protocol-Version is answered 400' },
  { name: 'unknown-session-404', level: 'must', source: 'spec', title: 'an id never issued is answered with status 404 (POST, GET, DELETE)' },
  { name: 'deleted-session-404', level: 'must', source: 'spec', title: 'an id ended by DELETE is answered with status 404 (POST, GET, DELETE)' },
  { name: 'reinitialize-after-404', level: 'must', source: 'spec', title: 'after a 404 a fresh initialize works' },
  { name: 'restart-404', level: 'must', source: 'spec', title: 'after a restart every old id is answered with status 404' },
  { name: 'uptime-younger-than-session', level: 'must', source: 'seed', title: 'server_uptime_seconds after a restart is younger than the old session' },
  { name: 'delete-ends-only-that-session', level: 'must', source: 'spec', title: 'DELETE ends that session only' },
  { name: 'concurrent-calls', level: 'must', source: 'spec', title: '20 concurrent calls on one session are all answered' },
  { name: 'gone-jsonrpc-body', level: 'optional', source: 'jsonrpc', title: 'the 404 to a dead id carries a JSON-RPC error object' },
  { name: 'gone-jsonrpc-id', level: 'optional', source: 'jsonrpc', title: "the 404's JSON-RPC error echoes the request's id" },
  { name: 'gone-body', level: 'optional', source: 'seed', title: 'the 404 carries -32000 with data.reason, data.action, server_uptime_seconds' },
  { name: 'stream-keeps-alive', level: 'optional', source: 'seed', title: 'an open GET stream keeps an idle session alive' },
  { name: 'no-session-id', level: 'must', source: 'spec', title: '2026-07-28: no session id is issued' },
  { name: 'unknown-method-404', level: 'must', source: 'spec', title: '2026-07-28: 404 only for an unknown method' },
] as const;

/**
 * How strong a check's rule is: `must` (fails the run), `should` (fails it with `--strict`), `optional`.
 *
 * @example
 * const level: CheckLevel = 'should';
 */
export type CheckLevel = 'must' | 'should' | 'optional';

/**
 * Where a check's rule comes from: the MCP specification, JSON-RPC 2.0, or the seed's session contract.
 *
 * @example
 * const source: CheckSource = 'jsonrpc';
 */
export type CheckSource = 'spec' | 'jsonrpc' | 'seed';

/**
 * A check's rule in words for the reports: `MUST (MCP)`, `SHOULD (MCP)`, `optional (JSON-RPC)`, `MUST (seed)`.
 *
 * @example
 * ruleLabel('should', 'spec'); // 'SHOULD (MCP)'
 */
export function ruleLabel(level: CheckLevel, source: CheckSource): string {
  const from = { spec: 'MCP', jsonrpc: 'JSON-RPC', seed: 'seed' }[source];
  return `${level === 'optional' ? 'optional' : level.toUpperCase()} (${from})`;
}

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
  readonly level: CheckLevel;
  /** Whether its failure fails the run: a `must` check, or a `should` one under `--strict`. */
  readonly required: boolean;
  readonly source: CheckSource;
}

export const passed = (detail: string): Verdict => ({ status: 'passed', detail });
export const failed = (detail: string): Verdict => ({ status: 'failed', detail });
export const skipped = (detail: string): Verdict => ({ status: 'skipped', detail });

/** The checks that need a session (all but the 2026-07-28 ones). */
export const SESSION_CHECKS: readonly ServerCheckName[] = SERVER_CHECKS.map((c) => c.name).filter((n) => n !== 'no-session-id' && n !== 'unknown-method-404');

/**
 * A result per check of the catalogue, in its order, from the verdicts found (a check with no
 * verdict gets `fallback`); `strict` makes the `should` checks required.
 *
 * @example
 * results(new Map([['restart-404', passed('…')]]), failed('not run: the server did not start'));
 */
export function results(verdicts: ReadonlyMap<ServerCheckName, Verdict>, fallback: Verdict, strict = false): ServerCheckResult[] {
  return SERVER_CHECKS.map(({ name, title, level, source }) => ({
    name, title, level, source, required: level === 'must' || (strict && level === 'should'), ...(verdicts.get(name) ?? fallback),
  }));
}
