// The listener in Deno: deno/eviction-in-deno.ts runs inside the repository's Deno workspace
// (`@mcp-resilience/deno` and this package from their sources, the OpenTelemetry SDK from npm),
// through a real eviction on an mcp-chaos this test starts on 127.0.0.1 and stops by its handle.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
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

describe('otelListener in Deno', () => {
  // Deno is stopped after 60 s; the test waits for that, beyond the package's 15 s: in a clean
  // clone Deno's cache (.deno/) starts empty, and its first run on a loaded CI machine took more than 15 s.
  it('reports a real eviction as metrics and span events, with no permission but the server\'s host and the OTEL_* variables the SDK reads', { timeout: 75_000 }, async () => {
    const { stdout } = await run(denoBinary(PACKAGE), [
      'run', '--no-check', '--no-prompt', `--allow-net=127.0.0.1:${new URL(chaos!.url).port}`, '--allow-env=OTEL_*',
      PROGRAM, chaos!.url, chaos!.control,
    ], { cwd: REPO_ROOT, env: denoEnv(), timeout: 60_000 });
    const cause = { 'mcp.session.loss.cause': expect.any(String) };
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      answer: 'two',
      losses: [[{ ...cause, 'mcp.method.name': 'tools/call', 'mcp.session.loss.dialect': 'typescript-sdk', 'mcp.session.loss.suspected_server_bug': false }, 1]],
      replays: [[{ 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false }, 1]],
      recoveries: [[{ ...cause, 'mcp.method.name': 'tools/call' }, 1]],
      spanEvents: ['mcp.resilience.session_lost', 'mcp.resilience.session_started', 'mcp.resilience.session_reinitialized', 'mcp.resilience.replayed'],
    });
  });
});
