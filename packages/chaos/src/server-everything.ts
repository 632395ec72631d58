import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { ProcessStartError, startProcess } from './start-process.ts';

/**
 * Preloaded into server-everything, which binds every interface by default: every listen()
 * binds 127.0.0.1 instead, and says so once bound (the line {@link BOUND} reads). Its own
 * "listening on port" line is no proof: Express 5 calls that callback with the error too when the
 * port is taken. Inline, so that nothing but this module has to ship.
 */
const FORCE_LOOPBACK = `data:text/javascript,${encodeURIComponent(`
import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => process.stderr.write('[mcp-chaos] bound 127.0.0.1:' + this.address().port + '\\n'));
  const [first, ...rest] = args;
  if (typeof first === 'object' && first !== null) return listen.call(this, { ...first, host: '127.0.0.1' }, ...rest);
  if (typeof first === 'number' || (typeof first === 'string' && /^\\d+$/.test(first))) {
    return listen.call(this, Number(first), '127.0.0.1', rest.find((arg) => typeof arg === 'function'));
  }
  return listen.apply(this, args);
};`)}`;
/** The preload's line once server-everything's server is bound. */
const BOUND = /^\[mcp-chaos\] bound 127\.0\.0\.1:(\d+)$/;

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

/** How often a start is tried again on a new port when another process took the one chosen before the server bound it. */
const PORT_TRIES = 3;
/** What server-everything prints when its port was taken ("Failed to start: Port 3001 is already in use", or the error's code). */
const PORT_TAKEN = /already in use|EADDRINUSE/;

/**
 * Starts `@modelcontextprotocol/server-everything`'s Streamable HTTP mode (it must be installed) on
 * 127.0.0.1 and a free port, for tests and demos: the reference server, in front of which
 * proxy mode puts the faults. Ready once it is bound to its port, never on another process's
 * answer there: the port is free when chosen, but another server can take it while
 * server-everything starts (a second or two), and then it is tried again on a new port. With
 * `port`, there or nowhere. A minute at most, then a `ProcessStartError` that shows what it
 * printed; `stop()` ends it by its PID.
 *
 * @example
 * const upstream = await startServerEverything(); // or ({ port: 3001 })
 * const chaos = await startChaosServer({ upstream: upstream.url });
 * // … later: await chaos.stop(); await upstream.stop();
 */
export async function startServerEverything(options: { port?: number } = {}): Promise<ServerEverything> {
  const entry = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
  const tries = options.port === undefined ? PORT_TRIES : 1;
  for (let tried = 1; ; tried++) {
    const port = options.port ?? await freePort();
    const listening = (line: string) => {
      if (PORT_TAKEN.test(line)) throw new Error(line); // the start fails with it, and is tried again
      return BOUND.exec(line)?.[1] === String(port) ? true : undefined;
    };
    try {
      const started = await startProcess(process.execPath, ['--import', FORCE_LOOPBACK, entry, 'streamableHttp'], {
        name: 'server-everything', env: { ...process.env, PORT: String(port) }, ready: { line: listening },
      });
      return { url: `http://127.0.0.1:${port}/mcp`, pid: started.pid, stop: () => started.stop() };
    } catch (error) {
      if (tried === tries || !(error instanceof ProcessStartError && PORT_TAKEN.test(error.message))) throw error;
    }
  }
}
