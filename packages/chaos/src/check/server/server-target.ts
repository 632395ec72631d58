import { connect, createServer } from 'node:net';
import { startProcess, type StartedProcess } from '../../start-process.ts';

/** The server under check: where it answers, and (when the check started it) how to restart and stop it. */
export interface ServerTarget {
  readonly url: string;
  /** The URL, or the command, for the report. */
  readonly label: string;
  /** Stops the process by its PID and starts it again on the same port; absent for a URL. */
  readonly restart?: () => Promise<void>;
  stop(): Promise<void>;
}

/** How to reach the server: its URL, or a command the check starts (and restarts) itself. */
export type TargetOptions =
  | { readonly url: string }
  | {
      readonly command: string;
      /** The environment variable that tells the command its port (default `PORT`). */
      readonly portEnv?: string;
      /** The MCP endpoint's path on it (default `/mcp`). */
      readonly path?: string;
      /** How long it may take to listen (default a minute, `START_CAP_MS`). */
      readonly startCapMs?: number;
      /** The port to give it (default: one the system says is free). */
      readonly port?: number;
    };

/** A free port on 127.0.0.1, as the system gives one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** After a stop, how long the port may still accept connections before the group is sent SIGKILL, and then before the stop fails. */
const GONE_CAP_MS = 5_000;
const PORT_POLL_MS = 25;

/** Resolves `true` once something accepts a connection on 127.0.0.1:`port` (`undefined` while nothing does). */
function listening(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(undefined)));
  });
}

/** Whether the port still accepts connections after `capMs` of asking (`false` as soon as it refuses one). */
async function stillListening(port: number, capMs: number): Promise<boolean> {
  const until = Date.now() + capMs;
  while (await listening(port)) {
    if (Date.now() > until) return true;
    await new Promise((resolve) => setTimeout(resolve, PORT_POLL_MS));
  }
  return false;
}

/**
 * Stops the command's process group by its PID and waits until its port refuses connections.
 * The group's leader is the shell: it can exit on SIGTERM before the server it started has let
 * go of the port (or while that server ignores SIGTERM), and a restart started then would take
 * the old server's listener for the new one's readiness, and the check would talk to a process
 * on its way out (seen: fastmcp, `read ECONNRESET` after the restart). A group whose port still
 * accepts connections 5 s after the leader is gone is sent SIGKILL; one that still does 5 s later
 * fails the stop, saying so.
 */
async function stopGroup(running: StartedProcess<true>, port: number): Promise<void> {
  await running.stop();
  if (!(await stillListening(port, GONE_CAP_MS))) return;
  try {
    process.kill(-running.pid, 'SIGKILL');
  } catch {
    // The group is gone: something else holds the port.
  }
  if (await stillListening(port, GONE_CAP_MS)) throw new Error(`127.0.0.1:${port} still accepts connections after the server (process group ${running.pid}) was stopped`);
}

/**
 * The server under check. A URL is used as it is (no restart). A command is run through the shell
 * in a process group of its own, with a free port in `portEnv` (`PORT`), and is ready once
 * 127.0.0.1 on that port accepts a connection (`@mcp-resilience/chaos/process`: a command that
 * exits first or does not listen within the cap fails with what it printed); `restart()` stops it
 * by its PID (its group), waits until the port refuses connections (so that the old process's
 * listener is never taken for the new one's), and starts it again on the same port; `stop()` too
 * returns only once the port is free.
 *
 * @example
 * const target = await startTarget({ command: 'node server.js', portEnv: 'PORT' });
 * await target.restart?.();
 * await target.stop();
 */
export async function startTarget(options: TargetOptions): Promise<ServerTarget> {
  if ('url' in options) return { url: options.url, label: options.url, stop: async () => {} };
  const port = options.port ?? (await freePort());
  const portEnv = options.portEnv ?? 'PORT';
  const start = () => startProcess('/bin/sh', ['-c', options.command], {
    name: options.command, group: true, env: { ...process.env, [portEnv]: String(port) },
    ready: { probe: () => listening(port) }, ...(options.startCapMs === undefined ? {} : { capMs: options.startCapMs }),
  });
  let running: StartedProcess<true> | undefined = await start();
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/mcp'}`,
    label: options.command,
    async restart() {
      const current = running;
      running = undefined;
      if (current) await stopGroup(current, port);
      running = await start();
    },
    async stop() {
      const current = running;
      running = undefined;
      if (current) await stopGroup(current, port);
    },
  };
}
