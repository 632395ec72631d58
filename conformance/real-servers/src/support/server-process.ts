import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './free-port.ts';

/** How to run one server: a Node script and its arguments, given the port it must listen on. */
export interface Launch {
  /** Arguments after `node` (preloads, the script, its own arguments). */
  readonly args: (port: number) => readonly string[];
  readonly env?: (port: number) => Readonly<Record<string, string>>;
  /** The endpoint's path (default `/mcp`). */
  readonly path?: string;
}

/** A server the test started: a child process (and its own children) on 127.0.0.1. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** The PID of the current process (it changes on {@link RunningServer.restart}). */
  readonly pid: number | undefined;
  /** Kills the process (and its process group) by PID and waits until it is gone. */
  stop(): Promise<void>;
  /** A real restart: the process killed by PID, then started again on the same port. */
  restart(): Promise<void>;
  /** How the current process ended, if it did on its own (`undefined`: still running), and the end of its stderr. */
  exited(): { readonly code: number | null; readonly signal: string | null; readonly stderr: string } | undefined;
}

const READY_TIMEOUT_MS = 20_000;

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Whether any process of the group `pgid` still exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts a server as a child process in its own process group, on 127.0.0.1 and a free port
 * (or `port`), and waits until it accepts connections. `stop()` kills the group by the
 * child's PID (a server like `mcp-proxy` has a stdio server of its own under it) and waits
 * for it to be gone; never by name.
 *
 * @example
 * const server = await startServer({ args: (port) => ['dist/servers/sdk1-one-transport.js'], env: (port) => ({ PORT: String(port) }) });
 * await server.restart(); // same port, new PID
 * await server.stop();
 */
export async function startServer(launch: Launch, port?: number): Promise<RunningServer> {
  const chosen = port ?? (await freePort());
  let child: ChildProcess | undefined;
  let stderr = '';

  async function start(): Promise<void> {
    stderr = '';
    const current = spawn(process.execPath, [...launch.args(chosen)], {
      env: { ...process.env, ...launch.env?.(chosen) },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    child = current;
    current.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await listening(chosen))) {
      if (current.exitCode !== null || current.signalCode !== null) throw new Error(`server exited before listening (${current.exitCode ?? current.signalCode}): ${stderr}`);
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`server did not listen on ${chosen} within ${READY_TIMEOUT_MS} ms: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The port answers: it must be this child that holds it (a child that failed to bind exits).
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (current.exitCode !== null || current.signalCode !== null) throw new Error(`server exited after its port answered (${current.exitCode ?? current.signalCode}): ${stderr}`);
  }

  async function stop(): Promise<void> {
    const current = child;
    if (current?.pid === undefined) return;
    child = undefined;
    // SIGKILL cannot be caught: every process of the group is dead once it is sent. The child's
    // exit frees its port; a grandchild (mcp-proxy's stdio server) lingers only as a zombie until
    // PID 1 reaps it, so it is not waited for.
    if (groupAlive(current.pid)) process.kill(-current.pid, 'SIGKILL');
    await exited(current);
  }

  await start();
  return {
    url: `http://127.0.0.1:${chosen}${launch.path ?? '/mcp'}`,
    port: chosen,
    get pid() {
      return child?.pid;
    },
    stop,
    async restart() {
      await stop();
      await start();
    },
    exited() {
      if (!child || (child.exitCode === null && child.signalCode === null)) return undefined;
      return { code: child.exitCode, signal: child.signalCode, stderr };
    },
  };
}
