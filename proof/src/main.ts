// pnpm proof: the whole scenario corpus in every runtime's sample against one mcp-chaos process
// (started and stopped here by PID), and the Node sample also on Node 22, 24 and 26 (binaries from
// npm, @mcp-resilience/node-lines), each canonical report written to proof/reports/<name>.json
// (git-ignored), compared with Node's, and the scenario × runtime table printed (and written to
// proof/reports/table.md). Exits 1 when a cell fails: a scenario failed somewhere, or came out
// otherwise than on Node with nothing declared in its file. Off linux-x64 the other Node lines are
// skipped (said on stderr), not failed.
// Usage: node proof/dist/main.js [--runtimes node,node22,node24,node26,deno,workerd,browser]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { describeOutput } from '@mcp-resilience/chaos/process';
import { corpusReport, parseReport, type CorpusReport } from '@mcp-resilience/scenarios';
import { proofTable, renderProofTable } from './proof-table.ts';
import { runSample } from './run-sample.ts';
import { PROOF_RUNS } from './runtimes.ts';

const REPORTS = fileURLToPath(new URL('../reports/', import.meta.url));
const { values } = parseArgs({ options: { runtimes: { type: 'string' } }, strict: true });
const wanted = values.runtimes?.split(',') ?? PROOF_RUNS.map((r) => r.name);
const runs = PROOF_RUNS.filter((r) => wanted.includes(r.name));
if (runs[0]?.name !== 'node' || runs.length !== wanted.length) {
  console.error(`proof: --runtimes must start with node and name only ${PROOF_RUNS.map((r) => r.name).join(', ')}`);
  process.exit(2);
}

let chaos: ChaosProcess | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void (chaos?.stop() ?? Promise.resolve()).finally(() => process.exit(1)));
}
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });
try {
  chaos = await startChaosProcess();
  const { control } = chaos;
  // The runtimes at once, each scenario on a server of its own in the pool: the runs mostly wait
  // (idle budgets, Retry-After), so one after another took three times as long for the same CPU.
  const ran = await Promise.all(runs.map(async (run) => ({ run, outcome: await runSample(run, control) })));
  const compared = ran.filter(({ run, outcome }) => {
    if (outcome.skipped !== undefined) console.error(`${run.name}: skipped, ${outcome.skipped}`);
    return outcome.skipped === undefined;
  });
  const reports = compared.map(({ run, outcome }): CorpusReport => {
    console.error(`${outcome.summary} (${outcome.seconds.toFixed(1)} s${run.nodeVersion ? `, Node ${run.nodeVersion}` : ''})`);
    try {
      const report = parseReport(outcome.stdout);
      writeFileSync(`${REPORTS}${run.name}.json`, outcome.stdout);
      return report;
    } catch (error) {
      // No report: every scenario fails on it, and what the sample printed instead says why.
      console.error(`${run.name}: ${(error as Error).message}; it exited ${outcome.code} and printed\n${describeOutput(outcome)}`);
      return corpusReport(run.runtime, []);
    }
  });
  const allExited = compared.every(({ outcome }) => outcome.code === 0);
  const table = proofTable(reports[0]!, reports.slice(1), compared.map(({ run }) => run.name));
  const text = renderProofTable(table);
  writeFileSync(`${REPORTS}table.md`, text);
  process.stdout.write(text);
  const cells = table.rows.length * table.runtimes.length;
  const failed = table.rows.flatMap((r) => r.cells).filter((c) => c.mark === 'fail').length;
  console.error(`proof: ${table.rows.length} scenarios × ${table.runtimes.length} runtimes, ${cells - failed} of ${cells} cells pass`);
  if (!table.passed || !allExited) process.exitCode = 1;
} finally {
  await chaos?.stop();
}
