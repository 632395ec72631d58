import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

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
 * proxy mode puts the faults. `stop()` ends it by its PID.
 *
 * @example
 * const upstream = await startServerEverything();
 * const chaos = await startChaosServer({ upstream: upstream.url });
 * // … later: await chaos.stop(); await upstream.stop();
 */
export async function startServerEverything(): Promise<ServerEverything> {
  const entry = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', FORCE_LOOPBACK, entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server-everything exited: ${stderr}`);
    const up = await fetch(url, { method: 'POST', body: '{}' }).then(() => true, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server-everything did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
