import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { startProcess } from './start-process.ts';

/**
 * Preloaded into server-everything, which binds every interface by default: every listen()
 * binds 127.0.0.1 instead. Inline, so that nothing but this module has to ship.
 */
const FORCE_LOOPBACK = `data:text/javascript,${encodeURIComponent(`
import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first, ...rest] = args;
  if (typeof first === 'object' && first !== null) return listen.call(this, { ...first, host: '127.0.0.1' }, ...rest);
  if (typeof first === 'number' || (typeof first === 'string' && /^\\d+$/.test(first))) {
    return listen.call(this, Number(first), '127.0.0.1', rest.find((arg) => typeof arg === 'function'));
  }
  return listen.apply(this, args);
};`)}`;

/** A running @modelcontextprotocol/server-everything, bound to 127.0.0.1. */
export interface ServerEverything {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `@modelcontextprotocol/server-everything`'s Streamable HTTP mode (it must be installed) on
 * 127.0.0.1 and a free port, for tests and demos: the reference server, in front of which
 * proxy mode puts the faults. Ready once its endpoint answers (a minute at most, then a
 * `ProcessStartError` that shows what it printed); `stop()` ends it by its PID.
 *
 * @example
 * const upstream = await startServerEverything();
 * const chaos = await startChaosServer({ upstream: upstream.url });
 * // … later: await chaos.stop(); await upstream.stop();
 */
export async function startServerEverything(): Promise<ServerEverything> {
  const entry = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  // Ready once its endpoint answers at all (an empty POST gets a 4xx).
  const answers = (signal: AbortSignal) => fetch(url, { method: 'POST', body: '{}', signal }).then(async (response) => (await response.body?.cancel(), true));
  const started = await startProcess(process.execPath, ['--import', FORCE_LOOPBACK, entry, 'streamableHttp'], {
    name: 'server-everything', env: { ...process.env, PORT: String(port) }, ready: { probe: answers },
  });
  return { url, pid: started.pid, stop: () => started.stop() };
}
