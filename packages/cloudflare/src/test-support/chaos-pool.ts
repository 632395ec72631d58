// The chaos pool as the workerd tests use it: fresh servers (stopped after the file), their wire logs.
import { afterAll, inject } from 'vitest';
import './provided-context.ts';

export interface PoolServer {
  readonly url: string;
  readonly control: string;
}

const started: string[] = [];
afterAll(async () => {
  // One a test stopped itself is gone already.
  for (const control of started.splice(0)) await fetch(control, { method: 'DELETE' }).then((r) => r.body?.cancel(), () => {});
});

/** A fresh server of the chaos pool (stopped when the test file ends). */
export async function poolServer(options: object = {}): Promise<PoolServer> {
  const response = await fetch(`${inject('chaosControl')}/servers`, { method: 'POST', body: JSON.stringify(options) });
  const server = await response.json() as PoolServer;
  started.push(server.control);
  return server;
}

interface WireEntry {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly status?: number;
  /** The session the request carried, by ordinal. */
  readonly sessionOrdinal?: number;
}

/** The server's wire log: every request it received, in order. */
export async function wireLog(server: PoolServer): Promise<WireEntry[]> {
  return ((await (await fetch(`${server.control}/state`)).json()) as { log: WireEntry[] }).log;
}

/** How many `initialize` requests the server received. */
export const initializes = async (server: PoolServer) => (await wireLog(server)).filter((e) => e.rpcMethod === 'initialize').length;

/** Ends every session of the server (an eviction). */
export async function evictAll(server: PoolServer): Promise<void> {
  await fetch(`${server.control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'evict', session: 'all' }) }).then((r) => r.body?.cancel());
}
