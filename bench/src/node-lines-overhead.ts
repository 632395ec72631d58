import { fileURLToPath } from 'node:url';
import { isNodeLineError, nodeBinary, NODE_LINES, type NodeLine } from '@mcp-resilience/node-lines';
import { runNodeScript } from 'node-sample/dist/run-node-script.js';
import { startChaosProcess } from './chaos-process.ts';
import type { AnswerFormat, OverheadResult, OverheadSize } from './overhead.ts';

/**
 * The Node lines `pnpm bench` measures the overhead on beside this process's Node (20 here): the
 * LTS lines people run, from `@mcp-resilience/node-lines`.
 *
 * @example
 * BENCH_NODE_LINES; // [24, 26]
 */
export const BENCH_NODE_LINES: readonly NodeLine[] = [24, 26];

/** What one Node line came to: its figures, or why there are none (`skipped` off linux-x64, where there is no binary to fetch). */
export type NodeLineOverhead =
  | { readonly line: string; readonly node: string; readonly result: OverheadResult }
  | { readonly line: string; readonly node?: string; readonly failure: string; readonly skipped?: true };

/** The same measurement on each Node line, in one answer format, against one chaos server. */
export interface NodeLinesOverhead {
  readonly format: AnswerFormat;
  readonly lines: readonly NodeLineOverhead[];
}

/**
 * Every Node line measured in each answer format: SSE answers (the SDK server's default), then
 * JSON answers.
 *
 * @example
 * const { sse, json } = await measureNodeLinesOverhead(size);
 * json.lines.map((l) => l.line); // ['node20', 'node24', 'node26']
 */
export interface NodeLinesOverheadByFormat {
  readonly sse: NodeLinesOverhead;
  readonly json: NodeLinesOverhead;
}

const CHILD = fileURLToPath(new URL('./overhead-line-main.js', import.meta.url));
/** A full measurement takes about a minute on 2 cores; ten is a hang. */
const LINE_CAP_MS = 600_000;

/** A Node line to measure on: its name (`node24`), its version, and its binary. */
interface Line {
  readonly line: string;
  readonly node: string;
  readonly binary: () => Promise<string>;
}

/** This process's Node first (`node20`), then {@link BENCH_NODE_LINES}. */
const lines = (): Line[] => [
  { line: `node${process.versions.node.split('.')[0]}`, node: process.version, binary: async () => process.execPath },
  ...BENCH_NODE_LINES.map((major) => ({ line: `node${major}`, node: `v${NODE_LINES[major]}`, binary: () => nodeBinary(major) })),
];

async function measureLine({ line, node, binary }: Line, control: string, size: OverheadSize, format: AnswerFormat): Promise<NodeLineOverhead> {
  let executable: string;
  try {
    executable = await binary();
  } catch (error) {
    const skipped = isNodeLineError(error) && error.code === 'UNSUPPORTED_PLATFORM' ? { skipped: true as const } : {};
    return { line, node, failure: (error as Error).message, ...skipped };
  }
  const run = await runNodeScript(CHILD, ['--chaos', control, '--format', format, '--size', JSON.stringify(size)], LINE_CAP_MS, executable);
  try {
    if (run.code !== 0) throw new Error(`exit ${run.code}${run.error ? ` (${run.error})` : ''}: ${run.stderr.trim().split('\n').at(-1) ?? ''}`);
    const { node: said, sequential, concurrent } = JSON.parse(run.stdout) as { node: string } & OverheadResult;
    if (said !== node) throw new Error(`ran on Node ${said}, not ${node}`);
    return { line, node, result: { sequential, concurrent } };
  } catch (error) {
    return { line, node, failure: (error as Error).message };
  }
}

/**
 * The healthy-call overhead ({@link measureOverhead}'s: the plain SDK client against the same
 * client with `createResilientFetch()`, one call at a time and 32 at a time, CPU per call) on Node
 * 24 and 26 beside this process's Node, with SSE answers and with JSON answers, in one run against
 * one `mcp-chaos` process (started here, stopped by its PID): each line's measurement runs in a
 * child process of that line's binary, every line in SSE and then every line in JSON, one
 * measurement after another, so that the cores go to one measurement at a time. A line that gives
 * no figures in a format says why in `failure`; off linux-x64 the other lines are `skipped`.
 *
 * @example
 * const { sse, json } = await measureNodeLinesOverhead(size);
 * for (const l of json.lines) if ('result' in l) console.log(l.line, l.result.sequential.medianRatio);
 */
export async function measureNodeLinesOverhead(size: OverheadSize): Promise<NodeLinesOverheadByFormat> {
  const chaos = await startChaosProcess();
  try {
    const measureEveryLine = async (format: AnswerFormat): Promise<NodeLinesOverhead> => {
      const measured: NodeLineOverhead[] = [];
      for (const line of lines()) measured.push(await measureLine(line, chaos.control, size, format));
      return { format, lines: measured };
    };
    const sse = await measureEveryLine('sse');
    const json = await measureEveryLine('json');
    return { sse, json };
  } finally {
    await chaos.stop();
  }
}
