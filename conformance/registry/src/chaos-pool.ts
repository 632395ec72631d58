// A fresh chaos server for a test file, from the one `mcp-chaos` process globalSetup starts
// (`POST {control}/servers`, the pool every runtime's tests use): no process of its own to start.

export interface PoolServer {
  /** Its MCP endpoint. */
  readonly url: string;
  /** Its own control API. */
  readonly control: string;
  /** Ends it (`DELETE` on its control URL). */
  stop(): Promise<void>;
}

/**
 * Starts a server in the pool of the `mcp-chaos` process whose control API is `control`.
 *
 * @example
 * const chaos = await poolServer(inject('chaosControl'));
 * await chaos.stop();
 */
export async function poolServer(control: string): Promise<PoolServer> {
  const response = await fetch(`${control}/servers`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(10_000) });
  if (response.status !== 201) throw new Error(`the chaos pool refused a server: ${response.status} ${await response.text()}`);
  const server = (await response.json()) as { url: string; control: string };
  return { ...server, stop: async () => void (await fetch(server.control, { method: 'DELETE', signal: AbortSignal.timeout(10_000) })) };
}
