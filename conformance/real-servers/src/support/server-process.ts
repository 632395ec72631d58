import type { ChildProcess } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { describeOutput, startProcess, type OutputTail } from '@mcp-resilience/chaos/process';
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
  exited(): Ending | undefined;
  /**
   * Resolves once the current process has ended on its own and all it printed is read: how it
   * ended. One still running after `hangMs` has hung: it rejects, saying so.
   */
  whenExited(hangMs: number): Promise<Ending>;
  /** Every line the current process has printed since it was ready (stdout and stderr). */
  printed(): readonly string[];
  /**
   * Resolves with the first line the current process prints (or printed since it was ready) that
   * matches `pattern`: a server's own word that something happened. Not printed within `hangMs`:
   * it rejects, saying it hung waiting for it.
   */
  untilPrinted(pattern: RegExp, hangMs: number): Promise<string>;
}

/** How a server's process ended, and the end of its stderr. */
export interface Ending {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
}

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

/** Whether process `pid` holds the socket that listens on `port` (Linux: /proc); `undefined` where there is no /proc to ask. */
async function holdsListener(pid: number, port: number): Promise<boolean | undefined> {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const tables = await Promise.all(['/proc/net/tcp', '/proc/net/tcp6'].map((table) => readFile(table, 'utf8').catch(() => undefined)));
  if (tables.every((table) => table === undefined)) return undefined;
  const listeners = new Set<string>();
  for (const line of tables.join('\n').split('\n')) {
    const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
    if (local?.endsWith(hexPort) && state === '0A') listeners.add(`socket:[${inode}]`);
  }
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return links.some((link) => listeners.has(link));
}

/** Ready once `port` takes a connection and it is this process's listener (not another's that holds the port). */
function listenerOf(port: number): (signal: AbortSignal, pid: number) => Promise<true | undefined> {
  return async (_signal, pid) => ((await listening(port)) && (await holdsListener(pid, port)) !== false ? true : undefined);
}

/**
 * Starts a server as a child process in its own process group, on 127.0.0.1 and a free port
 * (or `port`), and waits until it accepts connections there with a listener of its own (a
 * minute at most: then it fails naming the command, with the end of its stdout and stderr).
 * `stop()` kills the group by the child's PID (a server like `mcp-proxy` has a stdio server of
 * its own under it) and waits for it to be gone; never by name.
 *
 * @example
 * const server = await startServer({ args: (port) => ['dist/servers/sdk1-one-transport.js'], env: (port) => ({ PORT: String(port) }) });
 * await server.restart(); // same port, new PID
 * await server.stop();
 */
export async function startServer(launch: Launch, port?: number): Promise<RunningServer> {
  const chosen = port ?? (await freePort());
  let child: ChildProcess | undefined;
  let output: OutputTail = { stdout: '', stderr: '' };
  let closed: Promise<void> = Promise.resolve();
  let lines: string[] = [];
  const onLine = new Set<() => void>();

  async function start(): Promise<void> {
    const started = await startProcess(process.execPath, [...launch.args(chosen)], {
      name: `the server on port ${chosen}`, env: { ...process.env, ...launch.env?.(chosen) }, group: true, ready: { probe: listenerOf(chosen) },
    });
    child = started.child;
    output = started.output;
    closed = new Promise((resolve) => started.child.once('close', () => resolve()));
    const own: string[] = (lines = []);
    for (const stream of [started.child.stdout!, started.child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => (own.push(line), onLine.forEach((changed) => changed())));
    }
  }

  const ending = (ended: ChildProcess): Ending => ({ code: ended.exitCode, signal: ended.signalCode, stderr: output.stderr.slice(-4_000) });

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
      return ending(child);
    },
    async whenExited(hangMs) {
      const current = child;
      if (!current) throw new Error(`the server on port ${chosen} was stopped by the test, not ended on its own`);
      let guard: NodeJS.Timeout | undefined;
      const hung = new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error(`hung: the server on port ${chosen} (PID ${current.pid}) still runs after ${hangMs / 1000} s\n${describeOutput(output)}`)), hangMs);
      });
      await Promise.race([closed, hung]).finally(() => clearTimeout(guard));
      return ending(current);
    },
    printed: () => lines,
    async untilPrinted(pattern, hangMs) {
      let guard: NodeJS.Timeout | undefined;
      let changed = () => {};
      const found = new Promise<string>((resolve, reject) => {
        changed = () => {
          const line = lines.find((l) => pattern.test(l));
          if (line !== undefined) resolve(line);
        };
        onLine.add(changed);
        changed();
        guard = setTimeout(() => reject(new Error(`hung: the server on port ${chosen} printed no line like ${pattern} within ${hangMs / 1000} s\n${describeOutput(output)}`)), hangMs);
      });
      return found.finally(() => (clearTimeout(guard), onLine.delete(changed)));
    },
  };
}
