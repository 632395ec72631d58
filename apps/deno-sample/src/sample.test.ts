// The Deno sample as a person or a Node script runs it (scripts/run.mjs: Deno with --allow-net of
// the chaos host and --allow-read of the corpus only), on what it must refuse or count as failed;
// the whole corpus in Deno, compared with every other runtime, is `pnpm proof` (proof/).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { START_CAP_MS } from '@mcp-resilience/chaos/process';
import { parseReport } from '@mcp-resilience/scenarios';
import { readOutput, runNodeScript } from 'node-sample/dist/run-node-script.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary, denoEnv } from '../../../packages/deno/scripts/deno-env.mjs';

const APP = fileURLToPath(new URL('..', import.meta.url));
const RUN = join(APP, 'scripts', 'run.mjs');
const SCENARIOS = fileURLToPath(new URL('../../../conformance/scenarios/', import.meta.url));

/** The corpus of two files takes about 20 s with Deno's cache empty on a loaded machine; 150 s is a hang. */
const RUN_CAP_MS = 150_000;
const runNode = (script: string, args: readonly string[]) => runNodeScript(script, args, RUN_CAP_MS);

let chaos: ChaosProcess | undefined;

beforeAll(async () => {
  chaos = await startChaosProcess();
}, START_CAP_MS + 30_000);
afterAll(async () => {
  await chaos?.stop();
});

describe('the Deno sample', () => {
  it('type-checks: deno check of its entry point (the runner and @mcp-resilience/deno with it)', () => {
    const checked = spawnSync(denoBinary(APP), ['check', 'src/main.ts'], { cwd: APP, env: denoEnv(), encoding: 'utf8', timeout: 120_000 });
    expect(checked.status, checked.stderr).toBe(0);
  });
});

describe('the Deno sample on a corpus that does not pass, with an mcp-chaos process of its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deno-sample-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(SCENARIOS, 'forbidden-403-passthrough.json'), join(dir, 'forbidden-403-passthrough.json'));
  writeFileSync(join(dir, 'zz-broken.json'), '{ "name": "zz-broken", ');

  it('counts a file it cannot parse as a failed scenario, next to the one that passes, and exits 1', async () => {
    const run = await runNode(RUN, [dir]);
    expect(readOutput(run, parseReport)).toMatchObject({ runtime: 'deno', passed: 1, failed: 1 });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('deno: 2 scenarios, 1 passed, 1 failed (zz-broken.json)\n');
  });
});

describe('the Deno sample, given what it cannot run', () => {
  it('exits 1 on a directory without scenarios', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'deno-sample-empty-'));
    try {
      const run = await runNode(RUN, ['--chaos', chaos!.control, empty]);
      expect(readOutput(run, JSON.parse)).toEqual({ runtime: 'deno', scenarios: [], passed: 0, failed: 0 });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('deno: 0 scenarios, 0 passed, 0 failed: no scenario at all\n');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('exits 2 with its usage on a --chaos that is not a URL, and main.ts without --chaos', async () => {
    const run = await runNode(RUN, ['--chaos', 'not a url']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: 'usage: run.mjs [--chaos CONTROL_URL] [scenarios-dir | --overhead [--quick]]\n' });
    // --quiet as run.mjs runs it: a first run's `Download …` lines are Deno's, not main.ts's.
    const main = spawnSync(denoBinary(APP), ['run', '--quiet', '--no-prompt', 'src/main.ts'], { cwd: APP, env: denoEnv(), encoding: 'utf8', timeout: 120_000 });
    expect({ code: main.status, stdout: main.stdout, stderr: main.stderr }).toEqual({
      code: 2, stdout: '', stderr: 'usage: main.ts --chaos CONTROL_URL [scenarios-dir] | main.ts --chaos CONTROL_URL --overhead [--quick]\n',
    });
  });

  it('exits 2 on --quick without --overhead, and on a directory with --overhead', async () => {
    for (const args of [['--quick'], ['--overhead', SCENARIOS]]) expect((await runNode(RUN, ['--chaos', chaos!.control, ...args])).code).toBe(2);
  });
});
