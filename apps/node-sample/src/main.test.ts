import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { parseCorpus, parseReport, type CorpusReport } from '@mcp-resilience/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, SCENARIOS_DIR } from './load-corpus.ts';
import { runNodeScript } from './run-node-script.ts';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
/** The built main as a process: its exit code, the report it printed, its summary line. */
const runMain = (args: readonly string[]) => runNodeScript(MAIN, args);


// Loaded at collect time: one test per file; a file that cannot be mapped is a failing test.
const corpus = parseCorpus(loadCorpus());
let chaos: ChaosProcess | undefined;
const runs: Awaited<ReturnType<typeof runMain>>[] = [];
let report: CorpusReport | undefined;

// The whole corpus, twice, through the built main against one mcp-chaos process this file
// starts and stops by PID: the tests below assert on what main printed.
beforeAll(async () => {
  expect(existsSync(MAIN), `${MAIN} is missing: the sample was not built`).toBe(true);
  chaos = await startChaosProcess();
  for (let i = 0; i < 2; i++) runs.push(await runMain(['--chaos', chaos.control]));
  report = parseReport(runs[0]!.stdout);
}, 180_000);
afterAll(async () => {
  await chaos?.stop();
});

describe('the corpus through @mcp-resilience/node, in the report main prints', () => {
  it('finds the scenario files, and main exits 0 with a one-line summary', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(10);
    expect(runs[0]!.code).toBe(0);
    expect(runs[0]!.stderr).toBe(`node: ${corpus.length} scenarios, ${corpus.length} passed, 0 failed\n`);
  });

  for (const entry of corpus) {
    it(entry.file, () => {
      if (entry.error) throw entry.error;
      const scenario = report!.scenarios.find((s) => s.name === entry.scenario.name);
      expect(scenario, `${entry.scenario.name} is not in the report`).toBeDefined();
      expect(scenario!.mismatches).toEqual([]);
      const { trace, ...wire } = entry.scenario.expect;
      expect(scenario).toEqual({ name: entry.scenario.name, ok: true, trace, wire, mismatches: [] });
    });
  }

  it('two runs print byte-identical reports', () => {
    expect(runs[1]!.code).toBe(0);
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
  });

  it('the report carries no time, port or id', () => {
    const text = runs[0]!.stdout;
    expect(text).not.toMatch(/127\.0\.0\.1|localhost|:\d{4,5}\b|sid-|[0-9a-f]{8}-[0-9a-f]{4}-|"(atMs|delayMs|sessionAgeMs|idleMs|serverUptimeSeconds)"/);
  });
});

describe('main on a corpus that does not pass, with an mcp-chaos process of its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-sample-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(SCENARIOS_DIR, 'forbidden-403-passthrough.json'), join(dir, 'forbidden-403-passthrough.json'));
  writeFileSync(join(dir, 'zz-broken.json'), '{ "name": "zz-broken", ');

  it('counts a file it cannot parse as a failed scenario, next to the one that passes, and exits 1', async () => {
    const run = await runMain([dir]);
    expect(run.code).toBe(1);
    const failed = parseReport(run.stdout);
    expect(failed).toMatchObject({ runtime: 'node', passed: 1, failed: 1 });
    expect(failed.scenarios[0]).toEqual({
      name: 'forbidden-403-passthrough', ok: true, trace: [],
      wire: { posts: ['initialize 200', 'notifications/initialized 202 s1', 'tools/call 403 s1', 'tools/call 200 s1'] }, mismatches: [],
    });
    expect(failed.scenarios[1]).toMatchObject({ name: 'zz-broken.json', ok: false, trace: [] });
    expect(failed.scenarios[1]!.mismatches[0]).toMatch(/^zz-broken\.json: not JSON/);
    expect(run.stderr).toBe('node: 2 scenarios, 1 passed, 1 failed (zz-broken.json)\n');
  });

  it('exits 1 when there is no scenario at all', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'node-sample-empty-'));
    try {
      const run = await runMain([empty]);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toEqual({ runtime: 'node', scenarios: [], passed: 0, failed: 0 });
      expect(run.stderr).toBe('node: 0 scenarios, 0 passed, 0 failed: no scenario at all\n');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
