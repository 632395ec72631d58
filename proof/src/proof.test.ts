import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCorpus, parseReport, type CorpusReport } from '@mcp-resilience/scenarios';
import { runNodeScript, type ScriptRun } from 'node-sample/dist/run-node-script.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofTable, type ProofTable } from './proof-table.ts';
import { NODE_LINE_RUNS, PROOF_RUNS } from './runtimes.ts';

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
  const written = PROOF_RUNS.filter((r) => existsSync(`${REPORTS}${r.name}.json`));
  const reports = written.map((r): CorpusReport => parseReport(readFileSync(`${REPORTS}${r.name}.json`, 'utf8')));
  if (reports[0]) table = proofTable(reports[0], reports.slice(1), written.map((r) => r.name));
});

describe(`pnpm proof: the corpus in ${PROOF_RUNS.map((r) => r.name).join(', ')}`, () => {
  it('writes one report per runtime and Node line, prints the table it computed, and exits 0', () => {
    expect(run!.stderr).not.toMatch(/stopped after|skipped/);
    expect(readdirSync(REPORTS).sort()).toEqual([...PROOF_RUNS.map((r) => `${r.name}.json`), 'table.md'].sort());
    expect(run!.stdout).toBe(readFileSync(`${REPORTS}table.md`, 'utf8'));
    expect(run!.stdout.split('\n')[0]).toBe(`| scenario | ${PROOF_RUNS.map((r) => r.name).join(' | ')} |`);
    expect(run!.code, run!.stderr).toBe(0);
  });

  it("is the table in docs/testing.md", () => {
    const readme = readFileSync(fileURLToPath(new URL('../../docs/testing.md', import.meta.url)), 'utf8');
    expect(readme, 'docs/testing.md: paste proof/reports/table.md under "One trace in four runtimes"').toContain(`\n\n${run!.stdout}\n`);
  });

  for (const { runtime, name, nodeVersion } of PROOF_RUNS) {
    it(`runs the whole corpus in ${name}: its sample exits 0 with its summary line, and its report carries no time, port or id`, () => {
      const summary = run!.stderr.split('\n').find((line) => line.startsWith(`${name}: `));
      const on = nodeVersion ? `, Node ${nodeVersion.replaceAll('.', '\\.')}` : '';
      expect(summary).toMatch(new RegExp(`^${name}: ${corpus.length} scenarios, ${corpus.length} passed, 0 failed \\(\\d+\\.\\d s${on}\\)$`));
      const text = readFileSync(`${REPORTS}${name}.json`, 'utf8');
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
      expect(row!.cells).toHaveLength(PROOF_RUNS.length);
    });
  }
});

describe('the Node lines the proof runs the Node sample on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'proof-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'version.mjs');
  writeFileSync(script, 'process.stdout.write(process.version);\n');

  for (const line of NODE_LINE_RUNS) {
    it(`${line.name}: a script run as the proof runs the sample runs on Node ${line.nodeVersion}`, async () => {
      const ran = await runNodeScript(script, [], 60_000, await line.executable!());
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toBe(line.nodeVersion);
    });
  }
});
