import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseReport } from '@mcp-resilience/scenarios';
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from './load-corpus.ts';
import { readOutput, runNodeScript } from './run-node-script.ts';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
/** A run of two files takes seconds, its own mcp-chaos started (a minute at most) included: 150 s is a hang. */
const RUN_CAP_MS = 150_000;
/** The built main as a process: its exit code, the report it printed, its summary line. */
const runMain = (args: readonly string[]) => runNodeScript(MAIN, args, RUN_CAP_MS);

// The whole corpus through main, against one mcp-chaos, is the proof's Node run (`proof/`): one
// test per scenario file there, its report compared with the other runtimes'. Here: main on
// what it cannot run.
describe('main on a corpus that does not pass, with an mcp-chaos process of its own', { timeout: RUN_CAP_MS + 30_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-sample-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(SCENARIOS_DIR, 'forbidden-403-passthrough.json'), join(dir, 'forbidden-403-passthrough.json'));
  writeFileSync(join(dir, 'zz-broken.json'), '{ "name": "zz-broken", ');

  it('counts a file it cannot parse as a failed scenario, next to the one that passes, and exits 1', async () => {
    const run = await runMain([dir]);
    const failed = readOutput(run, parseReport);
    expect(run.code).toBe(1);
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
      expect(readOutput(run, JSON.parse)).toEqual({ runtime: 'node', scenarios: [], passed: 0, failed: 0 });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('node: 0 scenarios, 0 passed, 0 failed: no scenario at all\n');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
