import type { ChildProcess } from 'node:child_process';

/** How much of each stream a failure shows: its end, where a process says why it stopped. */
const TAIL_CHARS = 4_000;

/** The end of what a child process printed so far on stdout and on stderr. */
export interface OutputTail {
  readonly stdout: string;
  readonly stderr: string;
}

const tail = (text: string, maxChars: number) => (text.length > maxChars ? `…${text.slice(-maxChars)}` : text);

/**
 * What a process printed, for a failure's message: the end of its stdout and of its stderr, each
 * labelled, or that it printed nothing.
 *
 * @example
 * throw new Error(`the report is not JSON\n${describeOutput({ stdout: run.stdout, stderr: run.stderr })}`);
 * // the report is not JSON
 * // stdout: (nothing)
 * // stderr:
 * // ProcessStartError: mcp-chaos (…) did not start: …
 */
export function describeOutput(output: OutputTail, maxChars = TAIL_CHARS): string {
  const block = (name: string, text: string) => (text === '' ? `${name}: (nothing)` : `${name}:\n${tail(text, maxChars).trimEnd()}`);
  return `${block('stdout', output.stdout)}\n${block('stderr', output.stderr)}`;
}

/**
 * Keeps the end of what `child` prints on its piped stdout and stderr, read as it comes (so a
 * chatty child never blocks on a full pipe), for a failure's message.
 *
 * @example
 * const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
 * const printed = keepOutputTail(child);
 * child.once('exit', (code) => code !== 0 && console.error(describeOutput(printed)));
 */
export function keepOutputTail(child: ChildProcess, maxChars = TAIL_CHARS): OutputTail {
  const kept = { stdout: '', stderr: '' };
  for (const name of ['stdout', 'stderr'] as const) {
    child[name]?.setEncoding('utf8').on('data', (chunk: string) => (kept[name] = (kept[name] + chunk).slice(-2 * maxChars)));
  }
  return {
    get stdout() {
      return kept.stdout;
    },
    get stderr() {
      return kept.stderr;
    },
  };
}
