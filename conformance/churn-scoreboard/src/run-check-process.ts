import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** What the scoreboard reads of `mcp-chaos check --json`. */
export interface CheckJson {
  readonly client: string;
  readonly checks: { readonly passed: number; readonly total: number };
  readonly requiredFailed: number;
  readonly scenarios: readonly {
    readonly name: string;
    readonly status: 'passed' | 'failed' | 'skipped' | 'varies';
    readonly checks: readonly {
      readonly name: string; readonly passed: boolean; readonly required: boolean; readonly detail: string;
      /** With `--repeat`: the verdict differed run to run. */
      readonly varies?: { readonly passed: number; readonly runs: number };
    }[];
    readonly cost?: { readonly recovered: boolean; readonly requests: number; readonly ms: number };
    readonly problem?: string;
    readonly skipped?: string;
  }[];
}

/** One client's run of `mcp-chaos check`: its JSON report, the summary line, the exit code. */
export interface CheckRun {
  readonly report: CheckJson;
  readonly summary: string;
  readonly code: number | null;
  readonly seconds: number;
}

const CHAOS_BIN = join(createRequire(import.meta.url).resolve('@mcp-resilience/chaos'), '../../bin/mcp-chaos.js');

/**
 * Runs `mcp-chaos check --client CMD --json` (the installed bin, as a user runs it) with these
 * extra arguments, and `env` added to the environment its clients inherit; killed by its PID after `capMs`.
 *
 * @example
 * const run = await runCheckProcess('node clients/sdk-1x.mjs', ['--timeout', '30000'], 300_000);
 */
export function runCheckProcess(command: string, args: readonly string[], capMs: number, env: Readonly<Record<string, string>> = {}): Promise<CheckRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHAOS_BIN, 'check', '--client', command, '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const cap = setTimeout(() => child.kill('SIGKILL'), capMs);
    child.once('close', (code) => {
      clearTimeout(cap);
      try {
        const summary = stderr.trim().split('\n').at(-1) ?? '';
        resolve({ report: JSON.parse(stdout) as CheckJson, summary, code, seconds: (performance.now() - started) / 1000 });
      } catch {
        reject(new Error(`mcp-chaos check --client ${command} gave no report (exit ${code}): ${stderr.slice(-500)}`));
      }
    });
  });
}
