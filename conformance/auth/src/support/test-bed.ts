import { startAuthorizationServer, type AuthorizationServer } from './authorization-server.ts';
import { startProtectedMcpServer, type CheckOrder, type ProtectedMcpServer } from './protected-mcp-server.ts';
import type { WireEntry } from './wire-log.ts';

/** The two check orders every scenario runs in. */
export const CHECK_ORDERS: readonly CheckOrder[] = ['auth-first', 'session-first'];

/**
 * One authorization server and one protected MCP server per check order, shared by a test file
 * whose tests run one after another: all three log to one wire list (a server's `reset()` empties it).
 */
export interface AuthTestBed {
  readonly as: AuthorizationServer;
  readonly servers: Readonly<Record<CheckOrder, ProtectedMcpServer>>;
  close(): Promise<void>;
}

/**
 * Starts what a test file shares: the authorization server and the MCP server in both orders.
 *
 * @example
 * let bed: AuthTestBed;
 * beforeAll(async () => (bed = await startAuthTestBed()));
 * afterAll(() => bed.close());
 */
export async function startAuthTestBed(): Promise<AuthTestBed> {
  const wire: WireEntry[] = [];
  const as = await startAuthorizationServer(wire);
  const [authFirst, sessionFirst] = await Promise.all(CHECK_ORDERS.map((order) => startProtectedMcpServer(order, as, wire)));
  return {
    as,
    servers: { 'auth-first': authFirst!, 'session-first': sessionFirst! },
    close: async () => {
      await Promise.all([authFirst!.close(), sessionFirst!.close()]);
      await as.close();
    },
  };
}
