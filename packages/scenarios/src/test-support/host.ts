/**
 * A host for the runner's own tests: the web-standard engine of `@mcp-resilience/client`, the
 * official SDK 1.x, and an `mcp-chaos` process (started and stopped by PID) as the pool.
 */
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { START_CAP_MS } from '@mcp-resilience/chaos/process';
import { callLongTool, createResilientFetch } from '@mcp-resilience/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { chaosPool } from '../chaos-control.ts';
import type { ScenarioHost } from '../host.ts';
import type { RuntimeName } from '../scenario.ts';

export function hostFor(control: string, runtime: RuntimeName = 'node'): ScenarioHost {
  return { runtime, createFetch: createResilientFetch, callLongTool, sdk: { Client, StreamableHTTPClientTransport }, chaos: chaosPool(control) };
}

/** One mcp-chaos process for the test file: started before its tests, stopped by PID after them. */
export function chaosProcessForTests(args: readonly string[] = []): () => ChaosProcess {
  let chaos: ChaosProcess | undefined;
  beforeAll(async () => {
    chaos = await startChaosProcess(args);
  }, START_CAP_MS + 30_000); // above the start's cap, so that "did not start" is what fails
  afterAll(async () => {
    await chaos?.stop();
  });
  return () => chaos!;
}
