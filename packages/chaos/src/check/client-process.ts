import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A line the client printed on stdout, and when (ms since the scenario started). */
export interface PrintedLine {
  readonly atMs: number;
  readonly text: string;
}

/** How a run of the client command ended. */
export interface ClientRun {
  readonly lines: readonly PrintedLine[];
  /** Its exit code (null when a signal ended it). */
  readonly code: number | null;
  /** It was still running at the cap and was killed. */
  readonly timedOut: boolean;
  /** The last 2 KB of its stderr. */
  readonly stderr: string;
}

const STDERR_KEPT = 2048;
const MAX_LINES = 1000;

/**
 * Quotes one argument for `/bin/sh`.
 *
 * @example
 * shellQuote("it's"); // 'it'\''s'
 */
export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Ends the client's whole process group (the shell and whatever it started), by the group's id. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/**
 * Runs `command URL` through the shell with `env` added, in a process group of its own, and
 * collects what it prints. It is killed (the whole group, by id) once `capMs` has passed, and
 * whatever it left running is ended when it exits; the promise never outlives the cap by more
 * than the kill.
 *
 * @example
 * const run = await runClient('node my-client.mjs', 'http://127.0.0.1:3001/mcp', { MCP_CHURN_SCENARIO: 'restart' }, 20_000, performance.now());
 * run.lines; // [{ atMs: 512.3, text: '{"id":"c1","ok":true,"text":"c1"}' }, …]
 */
export function runClient(command: string, url: string, env: Readonly<Record<string, string>>, capMs: number, t0: number): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = spawn(`${command} ${shellQuote(url)}`, {
      shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env },
    });
    const lines: PrintedLine[] = [];
    let stderr = '';
    let timedOut = false;
    createInterface({ input: child.stdout }).on('line', (text) => {
      if (lines.length < MAX_LINES) lines.push({ atMs: performance.now() - t0, text });
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_KEPT)));
    const cap = setTimeout(() => ((timedOut = true), killGroup(child.pid)), capMs);
    child.once('error', (error) => (stderr += `\n${error.message}`));
    // What it left running goes with it: its output is then complete once the pipes close.
    child.once('exit', () => killGroup(child.pid));
    child.once('close', (code) => {
      clearTimeout(cap);
      resolve({ lines, code, timedOut, stderr });
    });
  });
}
