import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { scoreWirings, SCORED_WIRINGS, type ScoredRun } from './support/server-scoreboard.ts';
import { serverSummary, serverTable } from './support/server-scoreboard-table.ts';

const DOC = fileURLToPath(new URL('../../../docs/servers.md', import.meta.url));
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

let runs: ScoredRun[];
const failedChecks = (run: ScoredRun, required = true) =>
  run.report.checks.filter((c) => c.status === 'failed' && (!required || c.required)).map((c) => `${c.name}: ${c.detail}`);

// `mcp-chaos check --server-command` (scoreServer) on every wiring, once for the file: each
// server started, restarted and stopped by the check, by its PID, four at a time.
beforeAll(async () => {
  runs = await scoreWirings();
  console.log(`${serverTable(runs)}\n\n${serverSummary(runs)}`);
}, 240_000);

describe('the server check on every wiring (docs/servers.md, "Scored by the server check")', () => {
  it('scored every wiring: each started and opened a session, or said why not', () => {
    expect(runs.map((r) => r.wiring.label)).toEqual(SCORED_WIRINGS.map((w) => w.label));
    expect(runs.flatMap((r) => (r.report.problem ? [`${r.wiring.label}: ${r.report.problem}`] : [])).join(' · ')).toBe('');
  });

  it('mcp-chaos, the reference, passes every check: required and optional, the restart and the idle budget', () => {
    const [chaos] = runs;
    expect(failedChecks(chaos!, false)).toEqual([]);
    expect(chaos!.report.checks.filter((c) => c.status === 'skipped').map((c) => c.name)).toEqual(['no-session-id', 'unknown-method-404']);
  });

  it.each(SCORED_WIRINGS.filter((w) => w.fixed).map((w) => w.label))('%s passes every required check, none skipped for want of a session', (label) => {
    const run = runs.find((r) => r.wiring.label === label)!;
    expect(failedChecks(run)).toEqual([]);
    const sessionChecks = ['session-id-issued', 'unknown-session-404', 'deleted-session-404', 'restart-404', 'delete-ends-only-that-session', 'concurrent-calls'];
    expect(run.report.checks.filter((c) => sessionChecks.includes(c.name)).map((c) => c.status)).toEqual(sessionChecks.map(() => 'passed'));
  });

  it('is the table in docs/servers.md, as printed (paste it from this test\'s output)', () => {
    expect(readFileSync(DOC, 'utf8')).toContain(`\n\n${serverTable(runs)}\n\n`);
  });

  it('is summed up in the root README, as printed', () => {
    expect(readFileSync(README, 'utf8')).toContain(serverSummary(runs));
  });
});
