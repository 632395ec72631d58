import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describeOutput, keepOutputTail, type OutputTail } from './output-tail.ts';

/**
 * How long a process may take to say it is ready before it "did not start": a minute. A
 * loaded 2-core machine was seen to need more than 15 s for mcp-chaos; the wait ends as soon as
 * the process says it is ready, so the cap costs nothing when all is well.
 */
export const START_CAP_MS = 60_000;
/** After SIGTERM, how long `stop()` waits before SIGKILL. */
const STOP_GRACE_MS = 5_000;
/** How often a {@link ReadyProbe} is asked again while the process is still getting ready. */
const PROBE_EVERY_MS = 50;

/**
 * A line it prints says it is ready: its value then, `undefined` for a line that says nothing
 * yet; a line that throws means it printed what it must not (the start fails, with the output).
 */
export type ReadyLine<T> = (line: string, stream: 'stdout' | 'stderr') => T | undefined;
/**
 * Something that answers says it is ready (a port, a health URL): its value then, `undefined` while
 * not. It gets the process's PID, to tell its own answer from another process's.
 */
export type ReadyProbe<T> = (signal: AbortSignal, pid: number) => Promise<T | undefined>;

/** How a process is started and how it says it is ready. */
export interface StartProcessOptions<T> {
  /** Its name in a failure's message (default: the command's file). */
  readonly name?: string;
  readonly ready: { readonly line: ReadyLine<T> } | { readonly probe: ReadyProbe<T> };
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** stdin (default `ignore`); stdout and stderr are always piped, and kept for a failure's message. */
  readonly stdin?: 'ignore' | 'pipe';
  /** A process group of its own: `stop()` signals the whole group (a process that starts processes). */
  readonly group?: boolean;
  /** Default {@link START_CAP_MS}. */
  readonly capMs?: number;
}

/** A process that said it is ready. */
export interface StartedProcess<T> {
  readonly pid: number;
  readonly child: ChildProcess;
  /** What its readiness said (the line's value, the probe's value). */
  readonly ready: T;
  /** The end of what it has printed so far. */
  readonly output: OutputTail;
  /** The command line, for messages. */
  readonly command: string;
  /**
   * Signals it by its PID (its group's, when started with `group`) and resolves once it has exited:
   * SIGTERM by default, then SIGKILL after 5 s; `SIGKILL` at once when asked.
   */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/**
 * A process that exited, failed to spawn, printed what it must not, or said nothing within its
 * cap; it was stopped (by `pid`) before this was thrown.
 */
export class ProcessStartError extends Error {
  readonly code = 'PROCESS_DID_NOT_START';
  constructor(
    readonly command: string,
    why: string,
    readonly output: OutputTail,
    readonly pid: number | undefined,
  ) {
    super(`${command} did not start: ${why}\n${describeOutput(output)}`);
    this.name = 'ProcessStartError';
  }
}

const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function stopper(child: ChildProcess, group: boolean): StartedProcess<unknown>['stop'] {
  const exited = new Promise<void>((resolve) => (ended(child) ? resolve() : child.once('exit', () => resolve())));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(group ? -child.pid! : child.pid!, name);
    } catch {
      // Gone already.
    }
  };
  return async (first = 'SIGTERM') => {
    if (child.pid === undefined) return;
    // A group outlives its leader's exit only in what the leader started: it is signalled all the same.
    if (ended(child) && !group) return;
    signal(first);
    const kill = first === 'SIGKILL' ? undefined : setTimeout(() => signal('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(kill);
  };
}

/** Resolves with the first value `ready` gives; rejects with why it never will. */
function readiness<T>(child: ChildProcess, ready: StartProcessOptions<T>['ready'], signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`could not be spawned: ${error.message}`)));
    // 'close', not 'exit': once its output is all read, so that the message shows its last words.
    child.once('close', (code, name) => reject(new Error(`exited (${code ?? name}) before it was ready`)));
    if ('line' in ready) {
      for (const stream of ['stdout', 'stderr'] as const) {
        // Never closed by hand: closing a readline pauses its stream, and a child blocks on a full pipe.
        createInterface({ input: child[stream]! }).on('line', (line) => {
          if (signal.aborted) return;
          try {
            const value = ready.line(line, stream);
            if (value !== undefined) resolve(value);
          } catch (error) {
            reject(new Error(`printed what it must not on ${stream}: ${(error as Error).message}`));
          }
        });
      }
      return;
    }
    void (async () => {
      while (child.pid !== undefined && !signal.aborted && !ended(child)) {
        const value = await ready.probe(signal, child.pid!).catch(() => undefined);
        if (value !== undefined) return resolve(value);
        await new Promise((wake) => setTimeout(wake, PROBE_EVERY_MS));
      }
    })();
  });
}

/**
 * `ready`'s value, or a rejection once `capMs` (a minute by default) have passed without it: the
 * one start cap for whatever says it is ready by a promise (a process's readiness, Miniflare's
 * `ready`). The timer is cleared either way.
 *
 * @example
 * await readyWithin(miniflare.ready); // rejects "nothing said it was ready within 60 s"
 */
export async function readyWithin<T>(ready: Promise<T>, capMs = START_CAP_MS): Promise<T> {
  let cap: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      ready,
      new Promise<never>((_, reject) => (cap = setTimeout(() => reject(new Error(`nothing said it was ready within ${capMs / 1000} s`)), capMs))),
    ]);
  } finally {
    clearTimeout(cap);
  }
}

/**
 * Starts `file args…` (stdout and stderr piped and kept), and resolves once it says it is ready:
 * a line it prints, or a probe that answers (a port). A process that exits first, cannot be
 * spawned, prints what the line check refuses, or says nothing within `capMs` (a minute by
 * default) is stopped, and the start fails with a {@link ProcessStartError} naming the command
 * and showing the end of what it printed. Stop it with `stop()`, by its PID.
 *
 * @example
 * const server = await startProcess(process.execPath, ['server.js', '--port', '0'], {
 *   name: 'server.js',
 *   ready: { line: (line) => /listening on (http:\S+)/.exec(line)?.[1] },
 * });
 * await fetch(server.ready);
 * await server.stop();
 */
export async function startProcess<T>(file: string, args: readonly string[], options: StartProcessOptions<T>): Promise<StartedProcess<T>> {
  const capMs = options.capMs ?? START_CAP_MS;
  const command = `${options.name ?? file} (${[file, ...args].join(' ')})`;
  const group = options.group ?? false;
  const stdio: StdioOptions = [options.stdin ?? 'ignore', 'pipe', 'pipe'];
  const child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: group, stdio });
  const output = keepOutputTail(child);
  const stop = stopper(child, group);
  const giveUp = new AbortController();
  try {
    const ready = await readyWithin(readiness(child, options.ready, giveUp.signal), capMs);
    return { pid: child.pid!, child, ready, output, command, stop };
  } catch (error) {
    await stop('SIGKILL');
    throw new ProcessStartError(command, (error as Error).message, output, child.pid);
  } finally {
    giveUp.abort();
  }
}
