import type { ServerReport } from '@mcp-resilience/chaos';
import type { ScoredRun } from './server-scoreboard.ts';

type Check = ServerReport['checks'][number];

/** Why a check failed, in a few words (the report's detail says it all; the table must read the same every run). */
const FAILED: readonly (readonly [RegExp, (m: RegExpExecArray) => string])[] = [
  [/Server already initialized/, () => 'a 2nd `initialize` refused 400'],
  [/the JSON-RPC error carries id null/, () => '404 with `"id": null`'],
  [/^(?:an id [^:]*: )?POST → (\d{3})\b[^;]*: not 404/, (m) => `${m[1]}, not 404`],
  [/→ (\d{3})\b.*: not 400$/, (m) => `${m[1]}, not 400`],
  [/: no JSON-RPC error object$/, () => 'not a JSON-RPC error'],
  [/vary in about (\d+) bits: guessable/, (m) => `${m[1]} bits`],
  [/^a dead session id was answered (\d{3})/, (m) => (m[1] === '404' ? 'not the seed\'s body' : `${m[1]}, not the seed's 404`)],
];

/** Why a check was skipped, in a few words. */
const SKIPPED: readonly (readonly [RegExp, string])[] = [
  [/the server keeps no sessions/, 'no sessions'],
  [/the server negotiated 2025-11-25/, '2025-11-25'],
  [/2026-07-28 has no sessions/, '2026-07-28'],
  [/carried no server_uptime_seconds/, 'no uptime sent'],
  [/no --idle-ms/, 'no idle budget'],
  [/answered 405/, '405'],
  [/no dead session id was answered 404/, 'no 404'],
  [/no 404 carried a JSON-RPC error/, 'no JSON-RPC body'],
];

/**
 * A check's cell: `✓`, `✗` with why in a few words, `–` with why it was skipped. A reason no
 * pattern knows is shown cut at 60 characters (and a table that differs run to run fails its test).
 *
 * @example
 * cell({ status: 'failed', detail: 'an id never issued: POST → 404 {…}: the JSON-RPC error carries id null, not the request\'s 15', … }); // '✗ 404 with `"id": null`'
 */
export function cell(check: Check): string {
  if (check.status === 'passed') return '✓';
  if (check.status === 'skipped') return `– ${SKIPPED.find(([pattern]) => pattern.test(check.detail))?.[1] ?? check.detail.slice(0, 60)}`;
  for (const [pattern, say] of FAILED) {
    const match = pattern.exec(check.detail);
    if (match) return `✗ ${say(match)}`;
  }
  return `✗ ${check.detail.replace(/\|/g, '\\|').slice(0, 60)}`;
}

/** The checks of a level passed out of those that ran (skipped ones left out). */
function passedAt(report: ServerReport, level: Check['level']): string {
  const ran = report.checks.filter((c) => c.level === level && c.status !== 'skipped');
  return `${ran.filter((c) => c.status === 'passed').length}/${ran.length}`;
}

/** A column's header: the check, and its rule when it is not a MUST of MCP's. */
const heading = (c: Check) => `\`${c.name}\`${c.level === 'must' ? (c.source === 'seed' ? ' (seed)' : '') : c.level === 'should' ? ' (SHOULD)' : ` (optional, ${c.source === 'jsonrpc' ? 'JSON-RPC' : c.source})`}`;

/**
 * The table of docs/servers.md: a row per wiring, a column per check (in the catalogue's order,
 * each check that is not an MCP MUST marked with its rule), and the MUST and SHOULD checks passed
 * of those that ran.
 *
 * @example
 * console.log(serverTable(await scoreWirings()));
 */
export function serverTable(runs: readonly ScoredRun[]): string {
  const checks = runs[0]!.report.checks;
  const header = ['wiring', ...checks.map(heading), 'MUST passed', 'SHOULD passed'];
  const rows = runs.map(({ wiring, report }) => [wiring.label, ...report.checks.map(cell), `**${passedAt(report, 'must')}**`, passedAt(report, 'should')]);
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

/**
 * The README's line: how many of the real servers' wirings that keep sessions pass every required
 * check, and that each fixed one does.
 *
 * @example
 * serverSummary(runs) // 'Of the 9 real-server wirings that keep sessions, 0 pass every required check …'
 */
export function serverSummary(runs: readonly ScoredRun[]): string {
  const real = runs.slice(1).filter((r) => !r.wiring.fixed && r.report.checks.some((c) => c.name === 'session-id-issued' && c.status !== 'skipped'));
  const clean = real.filter((r) => r.report.requiredFailed === 0);
  const fixed = runs.filter((r) => r.wiring.fixed);
  return `Of the ${real.length} real-server wirings that keep sessions, ${clean.length} pass${clean.length === 1 ? 'es' : ''} every required check of \`mcp-chaos check --server\`; `
    + `each of the ${fixed.length} fixes in [docs/servers.md](docs/servers.md#scored-by-the-server-check) passes them all${fixed.every((r) => r.report.requiredFailed === 0) ? '' : ' (NOT: see the table)'}.`;
}
