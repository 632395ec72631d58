// The Node sample's built main, then the Deno sample as a person or a Node script runs it
// (scripts/run.mjs: Deno with --allow-net of the chaos host and --allow-read of the corpus
// only), against one mcp-chaos process this file starts and stops by PID; the tests read what
// they printed and compare the two reports.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { compareReports, parseReport, renderReport, type CorpusReport } from '@mcp-resilience/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary, denoEnv } from '../../../packages/deno/scripts/deno-env.mjs';

const APP = fileURLToPath(new URL('..', import.meta.url));
const RUN = join(APP, 'scripts', 'run.mjs');
const NODE_MAIN = fileURLToPath(new URL('../../node-sample/dist/main.js', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('../../../conformance/scenarios/', import.meta.url));
const files = readdirSync(SCENARIOS).filter((f) => f !== 'README.md').sort();

interface Run { readonly code: number | null; readonly stdout: string; readonly stderr: string }

/** A Node script as a process of its own (killed after 150 s): its exit code and what it printed. */
function runNode(script: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const cap = setTimeout(() => child.kill('SIGKILL'), 150_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => (clearTimeout(cap), resolve({ code, stdout, stderr })));
  });
}

/** What a run printed, as a report; undefined when it printed none (the tests below say so). */
function reportOf(run: Run): CorpusReport | undefined {
  try {
    return parseReport(run.stdout);
  } catch {
    return undefined;
  }
}

let chaos: ChaosProcess | undefined;
let node: Run | undefined;
let deno: Run | undefined;
let nodeReport: CorpusReport | undefined;
let denoReport: CorpusReport | undefined;

beforeAll(async () => {
  chaos = await startChaosProcess();
  // One after the other: the machine's two cores are not shared between the two runs.
  node = await runNode(NODE_MAIN, ['--chaos', chaos.control]);
  deno = await runNode(RUN, ['--chaos', chaos.control]);
  nodeReport = reportOf(node);
  denoReport = reportOf(deno);
}, 240_000);
afterAll(async () => {
  await chaos?.stop();
});

describe('the Deno sample', () => {
  it('type-checks: deno check of its entry point (the runner and @mcp-resilience/deno with it)', () => {
    const checked = spawnSync(denoBinary(APP), ['check', 'src/main.ts'], { cwd: APP, env: denoEnv(), encoding: 'utf8', timeout: 120_000 });
    expect(checked.status, checked.stderr).toBe(0);
  });

  it('exits 0 with a one-line summary', () => {
    expect(deno!.code, deno!.stderr).toBe(0);
    expect(denoReport, 'no report on stdout').toBeDefined();
    expect(deno!.stderr).toBe(`deno: ${files.length} scenarios, ${files.length} passed, 0 failed\n`);
    expect(denoReport!.runtime).toBe('deno');
  });

  for (const file of files) {
    it(file, () => {
      const report = denoReport?.scenarios.find((s) => `${s.name}.json` === file || s.name === file);
      expect(report, `no report for ${file}`).toBeDefined();
      expect(report!.mismatches).toEqual([]);
      expect(report!.ok).toBe(true);
    });
  }

  it("prints the Node sample's report, byte for byte but for the runtime and declared differences", () => {
    expect(node!.code, node!.stderr).toBe(0);
    expect(denoReport, 'no Deno report').toBeDefined();
    expect(nodeReport!.scenarios).toHaveLength(files.length);
    const comparison = compareReports(nodeReport!, denoReport!);
    expect(comparison.undeclared).toEqual([]);
    expect(comparison.same).toBe(true);
    if (comparison.declared.length === 0) expect(deno!.stdout).toBe(renderReport({ ...nodeReport!, runtime: 'deno' }));
  });

  it('carries no time, port or id in its report', () => {
    expect(deno!.stdout).not.toMatch(/127\.0\.0\.1|localhost|:\d{4,5}\b|sid-|[0-9a-f]{8}-[0-9a-f]{4}-|"(atMs|delayMs|sessionAgeMs|idleMs|serverUptimeSeconds)"/);
  });
});

describe('the Deno sample on a corpus that does not pass, with an mcp-chaos process of its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deno-sample-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(SCENARIOS, 'forbidden-403-passthrough.json'), join(dir, 'forbidden-403-passthrough.json'));
  writeFileSync(join(dir, 'zz-broken.json'), '{ "name": "zz-broken", ');

  it('counts a file it cannot parse as a failed scenario, next to the one that passes, and exits 1', async () => {
    const run = await runNode(RUN, [dir]);
    expect(run.code).toBe(1);
    expect(parseReport(run.stdout)).toMatchObject({ runtime: 'deno', passed: 1, failed: 1 });
    expect(run.stderr).toBe('deno: 2 scenarios, 1 passed, 1 failed (zz-broken.json)\n');
  });
});

describe('the Deno sample, given what it cannot run', () => {
  it('exits 1 on a directory without scenarios', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'deno-sample-empty-'));
    try {
      const run = await runNode(RUN, ['--chaos', chaos!.control, empty]);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toEqual({ runtime: 'deno', scenarios: [], passed: 0, failed: 0 });
      expect(run.stderr).toBe('deno: 0 scenarios, 0 passed, 0 failed: no scenario at all\n');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('exits 2 with its usage on a --chaos that is not a URL, and main.ts without --chaos', async () => {
    const run = await runNode(RUN, ['--chaos', 'not a url']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: 'usage: run.mjs [--chaos CONTROL_URL] [scenarios-dir]\n' });
    const main = spawnSync(denoBinary(APP), ['run', '--no-prompt', 'src/main.ts'], { cwd: APP, env: denoEnv(), encoding: 'utf8', timeout: 60_000 });
    expect({ code: main.status, stdout: main.stdout, stderr: main.stderr }).toEqual({ code: 2, stdout: '', stderr: 'usage: main.ts --chaos CONTROL_URL [scenarios-dir]\n' });
  });
});
