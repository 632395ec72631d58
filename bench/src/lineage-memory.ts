import { createResilientFetch } from '@mcp-resilience/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startChaosProcess } from './chaos-process.ts';
import { echo } from './sdk-clients.ts';

export interface LineageMemoryResult {
  /** Clients opened, called once and let go on one fetch, after the warm-up: half ended (DELETE), half only closed. */
  readonly clients: number;
  readonly failedCalls: number;
  /** Heap used after full GCs, after the warm-up (past the fetch's bound on lineages) and after the measured clients. */
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
  readonly heapGrowthBytes: number;
}

async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run node with --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/**
 * `clients` SDK 1.x clients, one after another, on one shared resilient fetch (a module-scope
 * fetch in a server with many users): each connects (its own lineage), calls once, and is let
 * go, every other one ending its session (`terminateSession`, a DELETE) and the others only
 * closed (the engine is never told). The fetch must forget them: the heap after the warm-up
 * (which fills the fetch's bound on remembered lineages) and after the clients is the same.
 * Needs `node --expose-gc`.
 *
 * @example
 * const { heapGrowthBytes } = await measureLineageMemory(10_000, 2_500);
 */
export async function measureLineageMemory(clients: number, warmup: number): Promise<LineageMemoryResult> {
  const chaos = await startChaosProcess();
  const fetch = createResilientFetch();
  let failedCalls = 0;
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(chaos.url), { fetch, requestInit: { headers: { authorization: `Bearer user-${i}` } } });
      const client = new Client({ name: `user-${i}`, version: '1.0.0' });
      client.onerror = () => {};
      try {
        await client.connect(transport);
        await echo(client, `call ${i}`);
        if (i % 2 === 0) await transport.terminateSession();
      } catch {
        failedCalls += 1;
      } finally {
        await client.close().catch(() => {});
      }
    }
  };
  try {
    await run(warmup);
    failedCalls = 0;
    const before = await settledHeap();
    await run(clients);
    const after = await settledHeap();
    return { clients, failedCalls, heapBeforeBytes: before, heapAfterBytes: after, heapGrowthBytes: after - before };
  } finally {
    await fetch.close();
    await chaos.stop();
  }
}
