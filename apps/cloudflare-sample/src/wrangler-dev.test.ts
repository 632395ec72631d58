// The sample as a user runs it by hand: `wrangler dev --ip 127.0.0.1` (what `pnpm dev` runs, on
// free ports here), started by this test and stopped by its PID (its process group: wrangler and
// the workerd it starts), against an mcp-chaos process started and stopped the same way.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { START_CAP_MS, startProcess, type StartedProcess } from '@mcp-resilience/chaos/process';
import type { ScenarioReport } from '@mcp-resilience/scenarios';
import { SCENARIOS_DIR } from 'node-sample/dist/load-corpus.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, WRANGLER, wranglerEnv } from '../scripts/workerd-corpus.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cloudflare-sample-dev-'));
let chaos: ChaosProcess | undefined;
let dev: StartedProcess<string> | undefined;

/**
 * Starts `wrangler dev` in a process group of its own (wrangler and the workerd it starts); ready,
 * with where it listens, once it prints `Ready on http://127.0.0.1:PORT`.
 */
function startDev(): Promise<StartedProcess<string>> {
  const args = ['dev', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0', '--persist-to', join(dir, 'state'), '--show-interactive-dev-session=false'];
  return startProcess(WRANGLER, args, {
    name: 'wrangler dev', cwd: APP, env: wranglerEnv(dir), group: true, ready: { line: (line) => /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] },
  });
}

beforeAll(async () => {
  chaos = await startChaosProcess();
  dev = await startDev();
}, 2 * START_CAP_MS + 30_000); // two starts, each given the cap before it "did not start"
afterAll(async () => {
  await dev?.stop(); // SIGTERM to its group by the PID this test started, SIGKILL after 5 s
  await chaos?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the sample under wrangler dev on 127.0.0.1', () => {
  it('runs a scenario of the corpus as the test run does', async () => {
    const file = 'evict-amdahl.json';
    const query = new URLSearchParams({ chaos: chaos!.control, file });
    const response = await fetch(`${dev!.ready}/scenario?${query}`, { method: 'POST', body: readFileSync(join(SCENARIOS_DIR, file), 'utf8') });
    expect(await response.json()).toMatchObject({ name: 'evict-amdahl', ok: true, mismatches: [] } satisfies Partial<ScenarioReport>);
  });

  it('keeps a session for the next request in its Durable Object', async () => {
    const call = async (text: string) =>
      (await fetch(`${dev!.ready}/call?${new URLSearchParams({ url: chaos!.url, text })}`)).json() as Promise<{ text: string; events: { type: string }[] }>;
    expect(await call('one')).toMatchObject({ text: 'one', events: [{ type: 'session-started' }] });
    expect(await call('two')).toEqual({ text: 'two', events: [] });
  });
});
