import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports are taken from below the kernel's ephemeral range, in a block per test worker. */
const BLOCK_SIZE = 500;
const FIRST_PORT = 20_000;

/** The kernel's ephemeral port range (Linux), or the IANA default elsewhere. */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 49_152;
  } catch {
    return 49_152;
  }
}

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise((resolve) => server.close(resolve));
  return bound;
}

/**
 * A TCP port free on 127.0.0.1 for a server the test starts and restarts on the same port.
 * Not one the kernel hands out (`listen(0)`, outgoing connections): while a server restarts its
 * port is free for a moment, and an ephemeral port could be given to another process in that
 * moment — the server would then fail to bind and the test would talk to someone else. So the
 * port comes from below the ephemeral range, from a block of its own per vitest worker
 * (`VITEST_POOL_ID`), and is checked free by binding it.
 *
 * @example
 * const port = await freePort(); // e.g. 20731
 */
export async function freePort(): Promise<number> {
  const pool = Number(process.env.VITEST_POOL_ID ?? 0) || 0;
  const first = FIRST_PORT + (pool % 20) * BLOCK_SIZE;
  if (first + BLOCK_SIZE > ephemeralLow()) throw new Error(`no room below the ephemeral port range for worker ${pool}`);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = first + Math.floor(Math.random() * BLOCK_SIZE);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${first}–${first + BLOCK_SIZE - 1}`);
}
