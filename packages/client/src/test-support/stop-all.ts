/**
 * The end of a test that started clients and servers: the clients are closed first (a client
 * that fails to close does not keep a server running), then the servers are stopped.
 *
 * @example
 * afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));
 */
export async function stopAll(
  clients: readonly ({ close(): Promise<unknown> } | undefined)[],
  servers: readonly ({ stop(): Promise<unknown> } | undefined)[],
): Promise<void> {
  await Promise.all(clients.map((client) => client?.close().catch(() => {})));
  await Promise.all(servers.map((server) => server?.stop()));
}
