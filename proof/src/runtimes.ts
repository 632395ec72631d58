import { fileURLToPath } from 'node:url';
import { nodeBinary, NODE_LINE_MAJORS, NODE_LINES } from '@mcp-resilience/node-lines';
import type { RuntimeName } from '@mcp-resilience/scenarios';

/** How the proof runs one runtime's sample: a Node command that prints that runtime's canonical report. */
export interface SampleRun {
  /** The runtime of its report (the report's `runtime`). */
  readonly runtime: RuntimeName;
  /** Its column in the proof table and its report's file (`reports/<name>.json`): the runtime, or e.g. `node22`. */
  readonly name: string;
  /** The script `node` runs, with `--chaos CONTROL_URL` after it. */
  readonly script: string;
  /** The Node binary that runs the script, when not this process's (`@mcp-resilience/node-lines`'s Node 22, 24, 26). */
  readonly executable?: () => Promise<string>;
  /** The Node it runs on, when it is not this process's: `v26.12.1`. */
  readonly nodeVersion?: string;
}

const app = (path: string) => fileURLToPath(new URL(`../../apps/${path}`, import.meta.url));
const NODE_SAMPLE = app('node-sample/dist/main.js');

/**
 * The four runtimes of the proof, the reference (Node, this process's) first. Each sample's entry
 * takes `--chaos CONTROL_URL`, runs the whole corpus in its runtime against that `mcp-chaos`, prints
 * the canonical report on stdout and a one-line summary on stderr, and exits 1 on a failure;
 * with `--overhead [--quick]` after it, it prints that runtime's overhead figures as JSON instead
 * (`pnpm bench:runtimes`).
 *
 * @example
 * for (const run of SAMPLE_RUNS) console.log(run.runtime, run.script);
 */
export const SAMPLE_RUNS: readonly SampleRun[] = [
  { runtime: 'node', name: 'node', script: NODE_SAMPLE },
  { runtime: 'deno', name: 'deno', script: app('deno-sample/scripts/run.mjs') },
  { runtime: 'workerd', name: 'workerd', script: app('cloudflare-sample/scripts/run.mjs') },
  { runtime: 'browser', name: 'browser', script: app('browser-sample/dist/main.js') },
];

/**
 * The Node sample's dist on each Node line people run (22, 24, 26), each binary fetched once per
 * checkout from npm by `@mcp-resilience/node-lines`: `node22`, `node24`, `node26`.
 *
 * @example
 * const node26 = NODE_LINE_RUNS.find((r) => r.name === 'node26');
 */
export const NODE_LINE_RUNS: readonly SampleRun[] = NODE_LINE_MAJORS.map((major) => ({
  runtime: 'node', name: `node${major}`, script: NODE_SAMPLE, executable: () => nodeBinary(major), nodeVersion: `v${NODE_LINES[major]}`,
}));

/**
 * What `pnpm proof` runs, the reference first: the Node sample on this process's Node, the same
 * sample on Node 22, 24 and 26, then Deno's, workerd's and Chromium's samples.
 *
 * @example
 * console.log(PROOF_RUNS.map((r) => r.name).join(', ')); // node, node22, node24, node26, deno, workerd, browser
 */
export const PROOF_RUNS: readonly SampleRun[] = [SAMPLE_RUNS[0]!, ...NODE_LINE_RUNS, ...SAMPLE_RUNS.slice(1)];
