// The listener in Deno: deno/eviction-in-deno.ts runs inside the repository's Deno workspace
// (`@mcp-resilience/deno` and this package from their sources, the OpenTelemetry SDK from npm),
// through a real eviction on an mcp-chaos this test starts on 127.0.0.1 and stops by its handle.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { describeOutput } from '@mcp-resilience/chaos/process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary, denoEnv, REPO_ROOT } from '../../deno/scripts/deno-env.mjs';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const PROGRAM = fileURLToPath(new URL('../deno/eviction-in-deno.ts', import.meta.url));
const run = promisify(execFile);

let chaos: ChaosServer | undefined;
beforeAll(async () => {
  chaos = await startChaosServer({ faults: [{ kind: 'status', status: 405, httpMethod: 'GET', count: 1_000 }] });
});
afterAll(() => chaos?.stop());

/** With Deno's cache empty its run took 12 s on a quiet machine, 15 s beside other Deno runs with both cores busy: two minutes is a hang. */
const DENO_RUN_CAP_MS = 120_000;

describe('otelListener in Deno', () => {
  // The test waits as long as its Deno process may run, beyond the package's 15 s: in a clean clone
  // Deno's cache (.deno/) starts empty, and Deno downloads the OpenTelemetry SDK first.
  it('reports a real eviction as metrics and span events, with no permission but the server\'s host and the OTEL_* variables the SDK reads', { timeout: DENO_RUN_CAP_MS + 30_000 }, async () => {
    const ran = await run(denoBinary(PACKAGE), [
      'run', '--no-check', '--no-prompt', `--allow-net=127.0.0.1:${new URL(chaos!.url).port}`, '--allow-env=OTEL_*',
      PROGRAM, chaos!.url, chaos!.control,
    ], { cwd: REPO_ROOT, env: denoEnv(), timeout: DENO_RUN_CAP_MS, killSignal: 'SIGKILL' }).then(
      ({ stdout, stderr }) => ({ how: 'exited 0', stdout, stderr }),
      (error: { code?: number; killed?: boolean; stdout: string; stderr: string }) =>
        ({ how: error.killed ? `hung: killed after ${DENO_RUN_CAP_MS / 1000} s` : `exited ${error.code}`, stdout: error.stdout, stderr: error.stderr }),
    );
    const shown = `Deno ${ran.how} and printed\n${describeOutput(ran)}`;
    expect(ran.how, shown).toBe('exited 0');
    let outcome: unknown;
    try {
      outcome = JSON.parse(ran.stdout.trim().split('\n').at(-1)!);
    } catch {
      throw new Error(`its last line on stdout is not JSON; ${shown}`);
    }
    const cause = { 'mcp.session.loss.cause': expect.any(String) };
    expect(outcome).toEqual({
      answer: 'two',
      losses: [[{ ...cause, 'mcp.method.name': 'tools/call', 'mcp.session.loss.dialect': 'typescript-sdk', 'mcp.session.loss.suspected_server_bug': false }, 1]],
      replays: [[{ 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false }, 1]],
      recoveries: [[{ ...cause, 'mcp.method.name': 'tools/call' }, 1]],
      spanEvents: ['mcp.resilience.session_lost', 'mcp.resilience.session_started', 'mcp.resilience.session_reinitialized', 'mcp.resilience.replayed'],
    });
  });
});
