import type { OverheadComparison, RuntimeName, RuntimeOverhead } from '@mcp-resilience/scenarios';

/**
 * What one runtime's sample came to under `--overhead`: its figures, or why there are none.
 *
 * @example
 * const outcome: RuntimeOverheadOutcome = { runtime: 'browser', failure: 'exit 1: browser: no Chromium at /usr/bin/chromium' };
 */
export type RuntimeOverheadOutcome =
  | { readonly runtime: RuntimeName; readonly overhead: RuntimeOverhead }
  | { readonly runtime: RuntimeName; readonly failure: string };

/**
 * What a sample printed that is not a {@link RuntimeOverhead} of the runtime asked for.
 *
 * @example
 * try { parseRuntimeOverhead(stdout, 'deno'); } catch (error) { if (error instanceof OverheadOutputError) console.error(error.message); }
 */
export class OverheadOutputError extends Error {
  readonly code = 'OVERHEAD_OUTPUT_INVALID';
  override name = 'OverheadOutputError';
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function checkComparison(value: unknown, where: string): void {
  const c = value as Partial<OverheadComparison> | undefined;
  for (const key of ['medianRatio', 'p99Ratio', 'blockRatio'] as const) {
    if (!isNumber(c?.[key])) throw new OverheadOutputError(`${where}.${key} is not a number`);
  }
  for (const side of ['plain', 'resilient'] as const) {
    const latency = c?.[side]?.latency;
    if (!isNumber(latency?.n) || !isNumber(latency.medianMs) || !isNumber(latency.p99Ms)) throw new OverheadOutputError(`${where}.${side}.latency is not a latency summary`);
  }
}

/**
 * The JSON a sample printed for `--overhead`, checked: the runtime asked for, both answer
 * formats with their sequential comparison. Anything else is an {@link OverheadOutputError}.
 *
 * @example
 * const overhead = parseRuntimeOverhead(outcome.stdout, 'deno');
 */
export function parseRuntimeOverhead(text: string, runtime: RuntimeName): RuntimeOverhead {
  let value: Partial<RuntimeOverhead>;
  try {
    value = JSON.parse(text) as Partial<RuntimeOverhead>;
  } catch {
    throw new OverheadOutputError(`${runtime}: not JSON: ${text.slice(0, 200)}`);
  }
  if (value.runtime !== runtime) throw new OverheadOutputError(`${runtime}: the figures are of runtime ${JSON.stringify(value.runtime)}`);
  if (typeof value.version !== 'string' || typeof value.clock !== 'string') throw new OverheadOutputError(`${runtime}: no version or clock`);
  for (const format of ['sse', 'json'] as const) checkComparison(value[format]?.sequential, `${runtime}.${format}.sequential`);
  return value as RuntimeOverhead;
}

const ms = (value: number) => value.toFixed(2);

function row(runtime: RuntimeName, format: string, c: OverheadComparison, cpuNote: string): string {
  const cpu = c.cpuRatio === undefined ? cpuNote : c.cpuRatio.toFixed(3);
  return `| ${runtime} | ${format} | ${c.plain.latency.n} | ${ms(c.plain.latency.medianMs)} / ${ms(c.resilient.latency.medianMs)} | `
    + `**${c.medianRatio.toFixed(3)}** | ${c.p99Ratio.toFixed(3)} | ${c.blockRatio.toFixed(3)} | ${cpu} |`;
}

/**
 * The four runtimes' overhead as one Markdown table: a row per runtime and answer format (one
 * call at a time), ratios engine / plain SDK client. A runtime that cannot read CPU time has
 * "—" there and says why below the table; a runtime whose sample failed has a row saying so.
 *
 * @example
 * process.stdout.write(renderRuntimesTable(outcomes));
 */
export function renderRuntimesTable(outcomes: readonly RuntimeOverheadOutcome[]): string {
  const lines = [
    '| runtime | answers | calls per side | median ms, plain / engine | median ratio | p99 ratio | block-time ratio | CPU ratio |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const notes: string[] = [];
  for (const outcome of outcomes) {
    if ('failure' in outcome) {
      lines.push(`| ${outcome.runtime} | failed: ${outcome.failure.replaceAll('|', '\\|')} | | | | | | |`);
      continue;
    }
    const { overhead } = outcome;
    const cpuNote = 'unavailable' in overhead.cpu ? '—' : '';
    if ('unavailable' in overhead.cpu) notes.push(`${outcome.runtime}: ${overhead.cpu.unavailable}`);
    lines.push(row(outcome.runtime, 'SSE', overhead.sse.sequential, cpuNote), row(outcome.runtime, 'JSON', overhead.json.sequential, cpuNote));
  }
  const measured = outcomes.flatMap((o) => ('overhead' in o ? [o] : []));
  const versions = measured.map((o) => `${o.runtime}: ${o.overhead.version}`);
  const clocks = measured.map((o) => `${o.runtime}: ${o.overhead.clock}`);
  return `${lines.join('\n')}\n\n${notes.length > 0 ? `CPU "—": ${notes.join('; ')}.\n` : ''}Clocks: ${clocks.join('; ')}.\nVersions: ${versions.join('; ')}.\n`;
}
