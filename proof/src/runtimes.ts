import { fileURLToPath } from 'node:url';
import type { RuntimeName } from '@mcp-resilience/scenarios';

/** How the proof runs one runtime's sample: a Node command that prints that runtime's canonical report. */
export interface SampleRun {
  readonly runtime: RuntimeName;
  /** The script `node` runs, with `--chaos CONTROL_URL` after it. */
  readonly script: string;
}

const app = (path: string) => fileURLToPath(new URL(`../../apps/${path}`, import.meta.url));

/**
 * The four runtimes of the proof, the reference (Node) first. Each sample's entry takes
 * `--chaos CONTROL_URL`, runs the whole corpus in its runtime against that `mcp-chaos`, prints
 * the canonical report on stdout and a one-line summary on stderr, and exits 1 on a failure;
 * with `--overhead [--quick]` after it, it prints that runtime's overhead figures as JSON instead
 * (`pnpm bench:runtimes`).
 *
 * @example
 * for (const run of SAMPLE_RUNS) console.log(run.runtime, run.script);
 */
export const SAMPLE_RUNS: readonly SampleRun[] = [
  { runtime: 'node', script: app('node-sample/dist/main.js') },
  { runtime: 'deno', script: app('deno-sample/scripts/run.mjs') },
  { runtime: 'workerd', script: app('cloudflare-sample/scripts/run.mjs') },
  { runtime: 'browser', script: app('browser-sample/dist/main.js') },
];
