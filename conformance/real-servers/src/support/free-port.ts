import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now (the kernel picks it), for a server the test starts.
 *
 * @example
 * const port = await freePort(); // e.g. 40123
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
