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

/** Resolves `true` once something accepts a connection on 127.0.0.1:`port` (`undefined` while nothing does). */
function listening(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(undefined)));
  });
}

/**
 * The server under check. A URL is used as it is (no restart). A command is run through the shell
 * in a process group of its own, with a free port in `portEnv` (`PORT`), and is ready once
 * 127.0.0.1 on that port accepts a connection (`@mcp-resilience/chaos/process`: a command that
 * exits first or does not listen within the cap fails with what it printed); `restart()` stops it
 * by its PID (its group) and starts it again on the same port.
 *
 * @example
 * const target = await startTarget({ command: 'node server.js', portEnv: 'PORT' });
 * await target.restart?.();
 * await target.stop();
 */
export async function startTarget(options: TargetOptions): Promise<ServerTarget> {
  if ('url' in options) return { url: options.url, label: options.url, stop: async () => {} };
  const port = await freePort();
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
      await running?.stop();
      running = undefined;
      running = await start();
    },
    async stop() {
      await running?.stop();
      running = undefined;
    },
  };
}
