import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCorpus, parseReport, type CorpusReport } from '@mcp-resilience/scenarios';
import { runNodeScript, type ScriptRun } from 'node-sample/dist/run-node-script.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { proofTable, type ProofTable } from './proof-table.ts';
import { SAMPLE_RUNS } from './runtimes.ts';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const REPORTS = fileURLToPath(new URL('../reports/', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('../../conformance/scenarios/', import.meta.url));
/** Stopped by its PID before vitest gives up on the hook (900 s). */
const PROOF_CAP_MS = 850_000;

// Known at collect time: one test per scenario file, each checked in every runtime.
const corpus = parseCorpus(readdirSync(SCENARIOS).filter((f) => f !== 'README.md').map((file) => ({ file, text: readFileSync(join(SCENARIOS, file), 'utf8') })));
let run: ScriptRun | undefined;
let table: ProofTable | undefined;

// `pnpm proof` itself, as a process: it starts and stops its own mcp-chaos.
beforeAll(async () => {
  expect(existsSync(MAIN), `${MAIN} is missing: the proof was not built`).toBe(true);
  run = await runNodeScript(MAIN, [], PROOF_CAP_MS);
  const reports = SAMPLE_RUNS.flatMap((r): CorpusReport[] =>
    existsSync(`${REPORTS}${r.runtime}.json`) ? [parseReport(readFileSync(`${REPORTS}${r.runtime}.json`, 'utf8'))] : []);
  if (reports[0]) table = proofTable(reports[0], reports.slice(1));
});

describe(`pnpm proof: the corpus in ${SAMPLE_RUNS.map((r) => r.runtime).join(', ')}`, () => {
  it('writes one report per runtime, prints the table it computed, and exits 0', () => {
    expect(run!.stderr).not.toMatch(/stopped after/);
    expect(readdirSync(REPORTS).sort()).toEqual([...SAMPLE_RUNS.map((r) => `${r.runtime}.json`), 'table.md'].sort());
    expect(run!.stdout).toBe(readFileSync(`${REPORTS}table.md`, 'utf8'));
    expect(run!.stdout.split('\n')[0]).toBe(`| scenario | ${SAMPLE_RUNS.map((r) => r.runtime).join(' | ')} |`);
    expect(run!.code, run!.stderr).toBe(0);
  });

  it("is the table in the repository's README", () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    expect(readme, 'README.md: paste proof/reports/table.md under "One trace in four runtimes"').toContain(`\n\n${run!.stdout}\n`);
  });

  for (const { runtime } of SAMPLE_RUNS) {
    it(`runs the whole corpus in ${runtime}: its sample exits 0 with its summary line, and its report carries no time, port or id`, () => {
      const summary = run!.stderr.split('\n').find((line) => line.startsWith(`${runtime}: `));
      expect(summary).toMatch(new RegExp(`^${runtime}: ${corpus.length} scenarios, ${corpus.length} passed, 0 failed \\(\\d+\\.\\d s\\)$`));
      const text = readFileSync(`${REPORTS}${runtime}.json`, 'utf8');
      expect(parseReport(text).runtime).toBe(runtime);
      expect(text).not.toMatch(/127\.0\.0\.1|localhost|:\d{4,5}\b|sid-|[0-9a-f]{8}-[0-9a-f]{4}-|"(atMs|delayMs|sessionAgeMs|idleMs|serverUptimeSeconds)"/);
    });
  }

  for (const entry of corpus) {
    it(`${entry.file}: the same in every runtime, or as its file declares`, () => {
      if (entry.error) throw entry.error;
      const row = table?.rows.find((r) => r.scenario === entry.scenario.name);
      expect(row, `${entry.scenario.name} is in no report`).toBeDefined();
      const failures = row!.cells.flatMap((cell, i) => (cell.mark === 'fail' ? [`${table!.runtimes[i]}: ${cell.detail}`] : []));
      expect(failures).toEqual([]);
      expect(row!.cells).toHaveLength(SAMPLE_RUNS.length);
    });
  }
});
