import { createResilientFetch, type ResilientFetch } from '@mcp-resilience/node';
import { startChaosProcess } from './chaos-process.ts';

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

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
});
const ECHO = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });

/** One client as the SDK's transport would be: initialize, one call, and (`end`) a DELETE; then it is let go. */
async function oneClient(fetch: ResilientFetch, url: string, user: number, end: boolean): Promise<boolean> {
  const auth = { authorization: `Bearer user-${user}` };
  const opened = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...auth }, body: INITIALIZE });
  await opened.text();
  const sessionId = opened.headers.get('mcp-session-id');
  if (!opened.ok || sessionId === null) return false;
  const session = { ...HEADERS, ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  await (await fetch(url, { method: 'POST', headers: session, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
  const answer = await fetch(url, { method: 'POST', headers: session, body: ECHO });
  const ok = answer.ok && (await answer.text()).includes('"result"');
  if (end) await (await fetch(url, { method: 'DELETE', headers: session })).text();
  return ok;
}

/**
 * `clients` MCP clients, one after another, on one shared resilient fetch (a module-scope
 * fetch in a server with many users), each with its own token: each opens its session (its own
 * lineage), calls once, and is let go, every other one ending its session (a DELETE) and the
 * others not (the engine is never told). The fetch must forget them: the heap after the
 * warm-up (which fills the fetch's bound on remembered lineages, `max`) and after the clients
 * is the same. Needs `node --expose-gc`.
 *
 * @example
 * const { heapGrowthBytes } = await measureLineageMemory(10_000, 2_500);
 */
export async function measureLineageMemory(clients: number, warmup: number, max?: number): Promise<LineageMemoryResult> {
  const chaos = await startChaosProcess();
  const fetch = createResilientFetch(max === undefined ? {} : { lineages: { max } });
  let failedCalls = 0;
  let user = 0;
  const run = async (n: number) => {
    for (let i = 0; i < n; i++, user++) {
      if (!(await oneClient(fetch, chaos.url, user, user % 2 === 0).catch(() => false))) failedCalls += 1;
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
