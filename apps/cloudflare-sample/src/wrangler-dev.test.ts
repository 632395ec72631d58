// The sample as a user runs it by hand: `wrangler dev --ip 127.0.0.1` (what `pnpm dev` runs, on
// free ports here), started by this test and stopped by its PID (its process group: wrangler and
// the workerd it starts), against an mcp-chaos process started and stopped the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import type { ScenarioReport } from '@mcp-resilience/scenarios';
import { SCENARIOS_DIR } from 'node-sample/dist/load-corpus.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, WRANGLER, wranglerEnv } from '../scripts/workerd-corpus.mjs';

const READY_WITHIN_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'cloudflare-sample-dev-'));
let chaos: ChaosProcess | undefined;
let dev: ChildProcess | undefined;
let origin = '';

/** Starts `wrangler dev` in a process group of its own; resolves with where it listens once it says it is ready. */
function startDev(): Promise<string> {
  const args = ['dev', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0', '--persist-to', join(dir, 'state'), '--show-interactive-dev-session=false'];
  dev = spawn(WRANGLER, args, { cwd: APP, env: wranglerEnv(dir), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev not ready within ${READY_WITHIN_MS} ms:\n${output}`)), READY_WITHIN_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready) (clearTimeout(timer), resolve(ready[1]!));
    };
    dev!.stdout!.on('data', read);
    dev!.stderr!.on('data', read);
    dev!.once('exit', (code) => (clearTimeout(timer), reject(new Error(`wrangler dev exited (${code}):\n${output}`))));
  });
}

/** SIGTERM to the group led by the PID this test started (SIGKILL after 5 s); resolves once wrangler has exited. */
async function stopDev(): Promise<void> {
  const child = dev;
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const killer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}

beforeAll(async () => {
  chaos = await startChaosProcess();
  origin = await startDev();
}, READY_WITHIN_MS + 15_000);
afterAll(async () => {
  await stopDev();
  await chaos?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the sample under wrangler dev on 127.0.0.1', () => {
  it('runs a scenario of the corpus as the test run does', async () => {
    const file = 'evict-amdahl.json';
    const query = new URLSearchParams({ chaos: chaos!.control, file });
    const response = await fetch(`${origin}/scenario?${query}`, { method: 'POST', body: readFileSync(join(SCENARIOS_DIR, file), 'utf8') });
    expect(await response.json()).toMatchObject({ name: 'evict-amdahl', ok: true, mismatches: [] } satisfies Partial<ScenarioReport>);
  });

  it('keeps a session for the next request in its Durable Object', async () => {
    const call = async (text: string) =>
      (await fetch(`${origin}/call?${new URLSearchParams({ url: chaos!.url, text })}`)).json() as Promise<{ text: string; events: { type: string }[] }>;
    expect(await call('one')).toMatchObject({ text: 'one', events: [{ type: 'session-started' }] });
    expect(await call('two')).toEqual({ text: 'two', events: [] });
  });
});
