import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createResilientFetch } from './engine.ts';
import { loadScenarios, SCENARIOS_DIR } from './load-scenarios.ts';
import { runAll } from './run-all.ts';
import { runScenario } from './run-scenario.ts';

// Loaded at collect time: one test per file, and a file that cannot be mapped is a failing test.
const files = loadScenarios();

describe('every conformance scenario, through @mcp-resilience/node against the chaos server', () => {
  it('finds the scenario files', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const entry of files) {
    it(entry.file, async () => {
      if (entry.error) throw entry.error;
      const result = await runScenario(entry.scenario, createResilientFetch);
      expect(result.mismatches).toEqual([]);
      expect(result).toMatchObject({ name: entry.scenario.name, ok: true, trace: entry.scenario.expect.trace });
    });
  }
});

describe('the report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-sample-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(SCENARIOS_DIR, 'forbidden-403-passthrough.json'), join(dir, 'forbidden-403-passthrough.json'));
  writeFileSync(join(dir, 'zz-broken.json'), '{ "name": "zz-broken", ');

  it('counts a file it cannot parse as a failed scenario, next to the ones that pass', async () => {
    const report = await runAll(createResilientFetch, 'node', dir);
    expect(report).toMatchObject({ runtime: 'node', passed: 1, failed: 1 });
    expect(report.scenarios[0]).toEqual({ name: 'forbidden-403-passthrough', ok: true, trace: [] });
    expect(report.scenarios[1]).toMatchObject({ name: 'zz-broken.json', ok: false, trace: [] });
    expect(report.scenarios[1]!.mismatches![0]).toMatch(/zz-broken\.json: not JSON/);
  });

  const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
  // The test task builds the sample first: a missing dist/main.js is a broken build, never a reason to skip.
  it('the built main exists', () => {
    expect(existsSync(main), `${main} is missing: the sample was not built`).toBe(true);
  });

  it('main prints one JSON report and exits 1 on a failure', () => {
    const run = spawnSync(process.execPath, [main, dir], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { runtime: string; passed: number; failed: number };
    expect(report).toMatchObject({ runtime: 'node', passed: 1, failed: 1 });
  });

  it('main exits 1 when there is no scenario at all', () => {
    const empty = mkdtempSync(join(tmpdir(), 'node-sample-empty-'));
    try {
      const run = spawnSync(process.execPath, [main, empty], { encoding: 'utf8', timeout: 20_000 });
      expect(run.status).toBe(1);
      expect(JSON.parse(run.stdout)).toEqual({ runtime: 'node', scenarios: [], passed: 0, failed: 0 });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
